import type { HostApi } from '../../src-shared/host-api';
import { trackedCall, without } from './tracked-call';
import type { SliceCreator } from './types';

/** The key of one tool in the trust records. */
export const trustKey = (server: string, tool: string): string => JSON.stringify([server, tool]);

/**
 * Reviewing tools that changed since they were trusted, are new, or hide text. Accept pins the current
 * definition (`tools:trust`); the host then pushes the tool as trusted. Keep disabled changes nothing in the host
 * (the tool stays out of the model's reach and its calls stay refused): it only folds the review for this window.
 */
export interface TrustSlice {
  /** Accepts in flight, by trustKey. */
  trusting: Record<string, true>;
  /** Why an Accept failed, by trustKey. */
  trustErrors: Record<string, string>;
  /** Tools the person chose to keep disabled (their review is folded), by trustKey. */
  keptDisabled: Record<string, true>;
  acceptTools(server: string, tools: string[]): Promise<void>;
  keepDisabled(server: string, tool: string): void;
  /** Unfolds a review that was kept disabled. */
  reviewAgain(server: string, tool: string): void;
}

export const createTrustSlice =
  (api: HostApi): SliceCreator<TrustSlice> =>
  (set) => ({
    trusting: {},
    trustErrors: {},
    keptDisabled: {},
    async acceptTools(server, tools) {
      const keys = tools.map((t) => trustKey(server, t));
      const result = await trackedCall(set, { busy: 'trusting', mark: true, errors: 'trustErrors', keys }, () => api['tools:trust']({ server, tools }));
      if (result.ok) set((s) => ({ keptDisabled: without(s.keptDisabled, keys) }));
    },
    keepDisabled(server, tool) {
      set((s) => ({ keptDisabled: { ...s.keptDisabled, [trustKey(server, tool)]: true } }));
    },
    reviewAgain(server, tool) {
      set((s) => ({ keptDisabled: without(s.keptDisabled, [trustKey(server, tool)]) }));
    },
  });
