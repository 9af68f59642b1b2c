import type { CallProgressEvent, CallView, HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { without } from './tracked-call';
import type { SliceCreator } from './types';

export interface CallProgress extends CallProgressEvent {
  /** When the first and the latest event arrived (epoch ms). */
  firstAt: number;
  at: number;
}

/** How many calls' progress is kept (the oldest is dropped first; a finished call's is dropped when it settles). */
export const MAX_PROGRESS = 200;

/**
 * `calls:progress` by callId: the progress bar, message and task status of a running call; and the calls the host
 * holds (`calls:list`, `calls:changed`), which settle the cards of calls this window did not see end (a reload, a
 * second tab, a dropped connection).
 */
export interface ProgressSlice {
  progress: Record<string, CallProgress>;
  /** The host's calls by callId, as last listed or pushed. */
  hostCalls: Record<string, CallView>;
  /** Whether `hostCalls` was listed since the connection last opened (only then does a call it lacks count as lost). */
  hostCallsListed: boolean;
  applyProgress(event: CallProgressEvent): void;
  clearProgress(callId: string): void;
  /** Lists the host's calls, then settles the cards they answer. */
  loadCalls(): Promise<void>;
  applyCallChanged(view: CallView): void;
  /** The connection dropped: what was listed may be stale until it is listed again. */
  forgetHostCalls(): void;
  /** Asks main to cancel a call by its id (a chat tool card's); true when it was running. Throws what the host threw. */
  cancelToolCall(callId: string): Promise<boolean>;
}

export const createProgressSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<ProgressSlice> =>
  (set, get) => ({
    progress: {},
    hostCalls: {},
    hostCallsListed: false,
    cancelToolCall: (callId) => api['tools:cancel'](callId),
    async loadCalls() {
      let calls: CallView[];
      try {
        calls = await api['calls:list']();
      } catch (error) {
        console.warn('calls:list failed', describeError(error).message);
        return;
      }
      if (!Array.isArray(calls)) return;
      set((s) => {
        const hostCalls: Record<string, CallView> = {};
        for (const call of calls) {
          // A call pushed finished while the list was on its way is newer than the list's copy.
          const pushed = s.hostCalls[call.callId];
          hostCalls[call.callId] = pushed !== undefined && pushed.state !== 'running' ? pushed : call;
        }
        return { hostCalls, hostCallsListed: true };
      });
      for (const call of calls) {
        if (call.state === 'running' && call.progress) get().applyProgress({ callId: call.callId, server: call.server, tool: call.tool, ...call.progress });
      }
      get().settleCalls();
    },
    applyCallChanged(view) {
      if (typeof view?.callId !== 'string') return;
      set((s) => {
        const hostCalls = { ...s.hostCalls, [view.callId]: view };
        const finished = Object.keys(hostCalls).filter((id) => hostCalls[id]?.state !== 'running');
        for (const id of finished.slice(0, Math.max(0, finished.length - MAX_PROGRESS))) delete hostCalls[id];
        return { hostCalls };
      });
      if (view.state !== 'running') get().clearProgress(view.callId);
      get().settleCalls([view.callId]);
    },
    forgetHostCalls: () => set({ hostCallsListed: false }),
    applyProgress(event) {
      if (typeof event?.callId !== 'string') return;
      set((s) => {
        const previous = s.progress[event.callId];
        const at = now();
        // A message or total not repeated in a later notification stays as it was.
        const merged: CallProgress = { ...previous, ...stripUndefined(event), firstAt: previous?.firstAt ?? at, at };
        const progress = { ...s.progress, [event.callId]: merged };
        const keys = Object.keys(progress);
        if (keys.length > MAX_PROGRESS) {
          const oldest = keys.sort((a, b) => (progress[a]?.at ?? 0) - (progress[b]?.at ?? 0)).slice(0, keys.length - MAX_PROGRESS);
          for (const k of oldest) delete progress[k];
        }
        return { progress };
      });
    },
    clearProgress(callId) {
      set((s) => {
        const progress = without(s.progress, callId);
        return progress === s.progress ? {} : { progress };
      });
    },
  });

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
