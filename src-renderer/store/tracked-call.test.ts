import { describe, expect, it, vi } from 'vitest';
import { HostCallError } from '../host/contract';
import { fakeHost } from './fake-host';
import { createAppStore } from './index';
import { trustKey } from './trust-slice';
import { without } from './tracked-call';

/** trackedCall through the slices that use it with no extra handling: consent (one key) and trust (several). */
describe('tracked host calls', () => {
  it('marks the key while the call runs, clears its old error, and records why it failed', async () => {
    let fail: (() => void) | undefined;
    const approve = vi
      .fn()
      .mockImplementationOnce(
        () =>
          new Promise<never>(
            (_, reject) => (fail = () => reject(new HostCallError({ code: 'invalid-argument', message: 'The entry changed since it was shown.' }))),
          ),
      )
      .mockResolvedValueOnce(undefined);
    const { client } = fakeHost({ 'servers:approve': approve });
    const store = createAppStore(client);
    const first = store.getState().approveServer('files', 'hash-1');
    expect(store.getState().approving).toEqual({ files: true });
    fail?.();
    await first;
    expect(store.getState().approving).toEqual({});
    expect(store.getState().approveErrors).toEqual({ files: 'The entry changed since it was shown.' });
    const second = store.getState().approveServer('files', 'hash-2');
    expect(store.getState().approveErrors).toEqual({});
    await second;
    expect(approve).toHaveBeenLastCalledWith('files', 'hash-2');
    expect(store.getState().approving).toEqual({});
    expect(store.getState().approveErrors).toEqual({});
  });

  it('several keys at once: each is marked, and each gets the failure', async () => {
    const trust = vi
      .fn()
      .mockRejectedValueOnce(new HostCallError({ code: 'request-failed', message: 'The tool changed again.' }))
      .mockResolvedValueOnce(undefined);
    const { client } = fakeHost({ 'tools:trust': trust });
    const store = createAppStore(client);
    const [a, b] = [trustKey('files', 'read'), trustKey('files', 'write')];
    store.getState().keepDisabled('files', 'read');
    const accepting = store.getState().acceptTools('files', ['read', 'write']);
    expect(store.getState().trusting).toEqual({ [a]: true, [b]: true });
    await accepting;
    expect(store.getState().trusting).toEqual({});
    expect(store.getState().trustErrors).toEqual({ [a]: 'The tool changed again.', [b]: 'The tool changed again.' });
    expect(store.getState().keptDisabled).toEqual({ [a]: true });
    await store.getState().acceptTools('files', ['read', 'write']);
    expect(store.getState().trustErrors).toEqual({});
    expect(store.getState().keptDisabled).toEqual({});
  });

  it('without: drops the keys, and hands back the same record when none is in it', () => {
    const record = { a: 1, b: 2 };
    expect(without(record, 'a')).toEqual({ b: 2 });
    expect(without(record, ['a', 'b'])).toEqual({});
    expect(without(record, ['c'])).toBe(record);
  });
});
