import type { AppInfo, StatusReason } from '../../src-shared/host-api';
import type { ConnectionState } from '../host/bridge-client';
import type { SliceCreator } from './types';

/** What main says about the app itself, and whether we can reach main at all. */
export interface HostSlice {
  appInfo: AppInfo | undefined;
  /** Set when `app:info` could not be fetched (the host is reachable but failed). */
  appInfoError: string | undefined;
  connection: ConnectionState;
  /** Why the host was lost; kept through reconnect attempts until the connection is open again. */
  disconnectReason: string | undefined;
  /** `disconnectReason`'s code and data, for the UI's language. */
  disconnectWhy: StatusReason | undefined;
  /** Whether the client keeps trying to reconnect on its own. */
  reconnecting: boolean;
  setAppInfo(info: AppInfo): void;
  setAppInfoError(message: string): void;
  setConnection(state: ConnectionState): void;
}

export const createHostSlice =
  (initial: ConnectionState): SliceCreator<HostSlice> =>
  (set) => ({
    appInfo: undefined,
    appInfoError: undefined,
    connection: initial,
    disconnectReason: initial.status === 'closed' ? initial.reason : undefined,
    disconnectWhy: initial.status === 'closed' ? initial.why : undefined,
    reconnecting: initial.status === 'closed' && initial.retrying,
    setAppInfo: (appInfo) => set({ appInfo, appInfoError: undefined }),
    setAppInfoError: (appInfoError) => set({ appInfoError }),
    setConnection: (connection) =>
      set((s) => ({
        connection,
        disconnectReason: connection.status === 'open' ? undefined : connection.status === 'closed' ? connection.reason : s.disconnectReason,
        disconnectWhy: connection.status === 'open' ? undefined : connection.status === 'closed' ? connection.why : s.disconnectWhy,
        reconnecting: connection.status === 'connecting' || (connection.status === 'closed' && connection.retrying),
      })),
  });
