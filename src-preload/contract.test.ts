import { describe, expect, it } from 'vitest';
import { hostChannelNames, hostEventNames, HostCallError, preloadGlobalName } from '../src-shared/host-api';
import { channelNames, eventNames, globalName, isEventName, PreloadCallError, unwrapEnvelope } from './contract';

describe('preload contract mirror', () => {
  it('matches the zod contract at runtime', () => {
    expect([...channelNames].sort()).toEqual([...hostChannelNames].sort());
    expect([...eventNames].sort()).toEqual([...hostEventNames].sort());
    expect(globalName).toBe(preloadGlobalName);
  });

  it('admits only contract events', () => {
    expect(isEventName('servers:changed')).toBe(true);
    expect(isEventName('toString')).toBe(false);
    expect(isEventName('electron-store-get-data')).toBe(false);
    expect(isEventName(undefined)).toBe(false);
  });

  it('unwraps envelopes like the shared unwrap', () => {
    expect(unwrapEnvelope({ ok: true, value: 3 })).toBe(3);
    expect(unwrapEnvelope({ ok: true })).toBeUndefined();
    const error = (() => {
      try {
        unwrapEnvelope({ ok: false, error: { code: 'unknown-server', message: 'no x' } });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PreloadCallError);
    expect(error).toMatchObject({ name: new HostCallError({ code: 'internal', message: '' }).name, code: 'unknown-server', message: 'no x' });
    expect(() => unwrapEnvelope('garbage')).toThrow(/Malformed/);
  });
});
