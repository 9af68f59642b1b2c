import type { StateCreator } from 'zustand/vanilla';
import type { ChatSlice } from './chat-slice';
import type { ConfigSlice } from './config-slice';
import type { HostSlice } from './host-slice';
import type { ServersSlice } from './servers-slice';

export type AppState = HostSlice & ServersSlice & ChatSlice & ConfigSlice;

/** A slice sees the whole store (zustand's slices pattern). */
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
