import { describe, expect, it } from 'vitest';
import { HostCallError, hostChannelNames, hostEventNames, preloadGlobalName } from '../src-shared/host-api';
import { hostChannels } from '../src-shared/host-schemas';
import { channelNames, eventNames, globalName, isEventName, unwrapEnvelope } from './contract';

describe('preload contract', () => {
  it('exposes exactly the channels main parses, and the contract events', () => {
    expect([...channelNames].sort()).toEqual(Object.keys(hostChannels).sort());
    expect(channelNames).toEqual(hostChannelNames);
    expect(eventNames).toEqual(hostEventNames);
    expect(globalName).toBe(preloadGlobalName);
  });

  it('admits only contract events', () => {
    expect(isEventName('servers:changed')).toBe(true);
    expect(isEventName('toString')).toBe(false);
    expect(isEventName('electron-store-get-data')).toBe(false);
    expect(isEventName(undefined)).toBe(false);
  });

  it('unwraps envelopes; failures reject with a plain, cloneable object that keeps the code', () => {
    expect(unwrapEnvelope({ ok: true, value: 3 })).toBe(3);
    expect(unwrapEnvelope({ ok: true })).toBeUndefined();
    let error: unknown;
    try {
      unwrapEnvelope({ ok: false, error: { code: 'unknown-server', message: 'no x' } });
    } catch (e) {
      error = e;
    }
    expect(error).toEqual({ name: 'HostCallError', code: 'unknown-server', message: 'no x' });
    expect(structuredClone(error)).toEqual(error);
    expect(() => unwrapEnvelope('garbage')).toThrow(expect.objectContaining({ code: 'internal', message: 'Malformed reply from the main process' }));
  });

  it('keeps HostError.data on the rejection, and the page’s HostCallError keeps it too', () => {
    const data = { server: 'crashy', tool: 'crash', exitCode: 3, signal: null };
    let error: unknown;
    try {
      unwrapEnvelope({ ok: false, error: { code: 'tool-call-failed', message: 'exited', data } });
    } catch (e) {
      error = e;
    }
    expect(structuredClone(error)).toEqual({ name: 'HostCallError', code: 'tool-call-failed', message: 'exited', data });
    const page = new HostCallError({ code: 'tool-call-failed', message: 'exited', data });
    expect(page.data).toEqual(data);
  });
});
