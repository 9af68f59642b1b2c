import type { CallProgressEvent, HostApi } from '../../src-shared/host-api';
import { without } from './tracked-call';
import type { SliceCreator } from './types';

export interface CallProgress extends CallProgressEvent {
  /** When the first and the latest event arrived (epoch ms). */
  firstAt: number;
  at: number;
}

/** How many calls' progress is kept (the oldest is dropped first; a finished call's is dropped when it settles). */
export const MAX_PROGRESS = 200;

/** `calls:progress` by callId: the progress bar, message and task status of a running call. */
export interface ProgressSlice {
  progress: Record<string, CallProgress>;
  applyProgress(event: CallProgressEvent): void;
  clearProgress(callId: string): void;
  /** Asks main to cancel a call by its id (a chat tool card's); true when it was running. Throws what the host threw. */
  cancelToolCall(callId: string): Promise<boolean>;
}

export const createProgressSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<ProgressSlice> =>
  (set) => ({
    progress: {},
    cancelToolCall: (callId) => api['tools:cancel'](callId),
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
