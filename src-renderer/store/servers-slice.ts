import type { HostApi, ServersDelta, ServerView } from '../../src-shared/host-api';
import { applyServersDelta } from '../../src-shared/servers-delta';
import { describeError } from '../host/bridge-client';
import { without } from './tracked-call';
import type { SliceCreator } from './types';

/** The servers as main reports them. The renderer never guesses a status; it only shows what main pushed. */
export interface ServersSlice {
  servers: ServerView[];
  /** False until the first list (fetched or pushed) arrives. */
  serversLoaded: boolean;
  /** Restart requests in flight, by server name (the button's own state, not the server's). */
  restarting: Record<string, boolean>;
  /** Why a restart request itself failed, by server name. */
  restartErrors: Record<string, string>;
  setServers(servers: ServerView[]): void;
  /** Merges a `servers:changed` delta; false when it cannot (no list yet, or it names a server the list lacks). */
  applyServersDelta(delta: ServersDelta): boolean;
  restart(name: string): Promise<void>;
}

export const createServersSlice =
  (api: HostApi): SliceCreator<ServersSlice> =>
  (set, get) => ({
    servers: [],
    serversLoaded: false,
    restarting: {},
    restartErrors: {},
    setServers: (servers) => set({ servers, serversLoaded: true }),
    applyServersDelta(delta) {
      if (!get().serversLoaded) return false;
      const servers = applyServersDelta(get().servers, delta);
      if (!servers) return false;
      set({ servers });
      return true;
    },
    async restart(name) {
      set((s) => ({ restarting: { ...s.restarting, [name]: true }, restartErrors: without(s.restartErrors, name) }));
      try {
        await api['servers:restart'](name);
      } catch (error) {
        const { message } = describeError(error);
        set((s) => ({ restartErrors: { ...s.restartErrors, [name]: message } }));
      } finally {
        set((s) => ({ restarting: without(s.restarting, name) }));
      }
    },
  });
