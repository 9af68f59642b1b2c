import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host-client';
import type { SliceCreator } from './types';

/** The key of one tool in the trust records. */
export const trustKey = (server: string, tool: string): string => JSON.stringify([server, tool]);

/**
 * Reviewing tools that changed since they were trusted, are new, or hide text (issue 12). Accept pins the current
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

const without = <T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> => {
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
};

export const createTrustSlice =
  (api: HostApi): SliceCreator<TrustSlice> =>
  (set) => ({
    trusting: {},
    trustErrors: {},
    keptDisabled: {},
    async acceptTools(server, tools) {
      const keys = tools.map((t) => trustKey(server, t));
      set((s) => ({ trusting: { ...s.trusting, ...Object.fromEntries(keys.map((k) => [k, true as const])) }, trustErrors: without(s.trustErrors, keys) }));
      try {
        await api['tools:trust']({ server, tools });
        set((s) => ({ keptDisabled: without(s.keptDisabled, keys) }));
      } catch (error) {
        const { message } = describeError(error);
        set((s) => ({ trustErrors: { ...s.trustErrors, ...Object.fromEntries(keys.map((k) => [k, message])) } }));
      } finally {
        set((s) => ({ trusting: without(s.trusting, keys) }));
      }
    },
    keepDisabled(server, tool) {
      set((s) => ({ keptDisabled: { ...s.keptDisabled, [trustKey(server, tool)]: true } }));
    },
    reviewAgain(server, tool) {
      set((s) => ({ keptDisabled: without(s.keptDisabled, [trustKey(server, tool)]) }));
    },
  });
