import type { HostApi, ServerView } from '../../src-shared/host-api';
import { describeError } from '../host-client';
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
  restart(name: string): Promise<void>;
}

export const createServersSlice =
  (api: HostApi): SliceCreator<ServersSlice> =>
  (set) => ({
    servers: [],
    serversLoaded: false,
    restarting: {},
    restartErrors: {},
    setServers: (servers) => set({ servers, serversLoaded: true }),
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

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}
