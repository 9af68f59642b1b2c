import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host-client';
import type { SliceCreator } from './types';

/**
 * Approving a stdio entry's launch before it first runs (issue 12 §3, `servers:approve`). The host pushes the server's
 * new status (starting, then ready); this slice only tracks the request in flight and why it failed.
 */
export interface ConsentSlice {
  /** Approvals in flight, by server name. */
  approving: Record<string, true>;
  /** Why an approval failed (e.g. the entry changed since it was shown), by server name. */
  approveErrors: Record<string, string>;
  approveServer(server: string, hash: string): Promise<void>;
}

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
};

export const createConsentSlice =
  (api: HostApi): SliceCreator<ConsentSlice> =>
  (set) => ({
    approving: {},
    approveErrors: {},
    async approveServer(server, hash) {
      set((s) => ({ approving: { ...s.approving, [server]: true }, approveErrors: without(s.approveErrors, server) }));
      try {
        await api['servers:approve'](server, hash);
      } catch (error) {
        set((s) => ({ approveErrors: { ...s.approveErrors, [server]: describeError(error).message } }));
      } finally {
        set((s) => ({ approving: without(s.approving, server) }));
      }
    },
  });
