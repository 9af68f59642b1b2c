import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostClient } from '../host-client';
import { createChatSlice } from './chat-slice';
import { createConfigSlice } from './config-slice';
import { createHostSlice } from './host-slice';
import { createServersSlice } from './servers-slice';
import type { AppState } from './types';

export type { AppState } from './types';
export type AppStore = StoreApi<AppState>;

/** The one store, built from slices; the host API is injected so tests can pass a fake. */
export function createAppStore(host: HostClient): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createHostSlice(host.connection())(...a),
    ...createServersSlice(host.api)(...a),
    ...createChatSlice(host.api)(...a),
    ...createConfigSlice(host.api)(...a),
  }));
}
