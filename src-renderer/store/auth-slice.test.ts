import { describe, expect, it, vi } from 'vitest';
import { HostCallError } from '../host/contract';
import { fakeHost } from './fake-host';
import { createAppStore } from './index';

describe('auth slice (Sign in / Sign out)', () => {
  it('tracks a sign-in in flight and keeps why it failed', async () => {
    let finish: (() => void) | undefined;
    const login = vi.fn(
      () =>
        new Promise<never>(
          (_, reject) => (finish = () => reject(new HostCallError({ code: 'request-failed', message: 'The authorization server did not grant access.' }))),
        ),
    );
    const { client } = fakeHost({ 'auth:login': login });
    const store = createAppStore(client);
    const signing = store.getState().signIn('remote');
    expect(store.getState().authBusy).toEqual({ remote: 'signing-in' });
    expect(login).toHaveBeenCalledWith('remote', {});
    finish?.();
    await signing;
    expect(store.getState().authBusy).toEqual({});
    expect(store.getState().authErrors.remote).toBe('The authorization server did not grant access.');
    expect(store.getState().authNeedsClient).toEqual({});
  });

  it('an authorization server without registration asks for the client: set-client (with the redirect port shown), then sign in', async () => {
    const login = vi
      .fn()
      .mockRejectedValueOnce(
        new HostCallError({
          code: 'request-failed',
          message: 'does not let apps register themselves',
          data: { server: 'remote', needsClient: true, redirectUri: 'http://127.0.0.1:5123/callback', redirectPort: 5123 },
        }),
      )
      .mockResolvedValueOnce({ outcome: 'signed-in', opened: false });
    const setClient = vi.fn(async () => undefined);
    const { client } = fakeHost({ 'auth:login': login, 'auth:set-client': setClient });
    const store = createAppStore(client);
    await store.getState().signIn('remote');
    expect(store.getState().authNeedsClient.remote).toEqual({ redirectUri: 'http://127.0.0.1:5123/callback', redirectPort: 5123 });
    await store.getState().setClient('remote', { clientId: 'registered-by-hand', clientSecret: 'shh' });
    expect(setClient).toHaveBeenCalledWith('remote', { clientId: 'registered-by-hand', clientSecret: 'shh', redirectPort: 5123 });
    expect(login).toHaveBeenCalledTimes(2);
    expect(store.getState().authNeedsClient).toEqual({});
    expect(store.getState().authErrors).toEqual({});
  });

  it('sign out calls auth:logout', async () => {
    const logout = vi.fn(async () => ({ removed: true, revoked: true }));
    const { client } = fakeHost({ 'auth:logout': logout });
    const store = createAppStore(client);
    await store.getState().signOut('remote');
    expect(logout).toHaveBeenCalledWith('remote');
    expect(store.getState().authBusy).toEqual({});
  });
});
