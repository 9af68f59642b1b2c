import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { trackedCall, without } from './tracked-call';
import type { SliceCreator } from './types';

/**
 * OAuth sign-in and sign-out of remote servers (`auth:login` / `auth:logout`). Main owns the sign-in state
 * (the server's `auth` view: signing-in with its authorization URL, signed-in with its scopes) and pushes it; this
 * slice only tracks the requests in flight and why one failed.
 */
export interface AuthSlice {
  /** Sign-ins or sign-outs in flight, by server name. */
  authBusy: Record<string, 'signing-in' | 'signing-out'>;
  /** Why the last sign-in or sign-out failed, by server name. */
  authErrors: Record<string, string>;
  /** The authorization server lets no app register itself: the redirect URI the person must register, by server. */
  authNeedsClient: Record<string, { redirectUri?: string; redirectPort?: number }>;
  signIn(server: string): Promise<void>;
  signOut(server: string): Promise<void>;
  /** Saves the client the person registered (`auth:set-client`), then signs in. */
  setClient(server: string, client: { clientId: string; clientSecret?: string }): Promise<void>;
}

export const createAuthSlice =
  (api: HostApi): SliceCreator<AuthSlice> =>
  (set, get) => {
    const run = async (server: string, busy: 'signing-in' | 'signing-out', call: () => Promise<unknown>): Promise<void> => {
      const result = await trackedCall(set, { busy: 'authBusy', mark: busy, errors: 'authErrors', keys: server }, call);
      if (result.ok) return;
      const { data } = describeError(result.error);
      if (data?.needsClient !== true) return;
      set((s) => ({
        authNeedsClient: {
          ...s.authNeedsClient,
          [server]: {
            ...(typeof data.redirectUri === 'string' ? { redirectUri: data.redirectUri } : {}),
            ...(typeof data.redirectPort === 'number' ? { redirectPort: data.redirectPort } : {}),
          },
        },
      }));
    };
    return {
      authBusy: {},
      authErrors: {},
      authNeedsClient: {},
      signIn: (server) => run(server, 'signing-in', () => api['auth:login'](server, {})),
      setClient: (server, client) =>
        run(server, 'signing-in', async () => {
          const needed = get().authNeedsClient[server];
          await api['auth:set-client'](server, { ...client, ...(needed?.redirectPort !== undefined ? { redirectPort: needed.redirectPort } : {}) });
          set((s) => ({ authNeedsClient: without(s.authNeedsClient, server) }));
          await api['auth:login'](server, {});
        }),
      signOut: (server) => run(server, 'signing-out', () => api['auth:logout'](server)),
    };
  };
