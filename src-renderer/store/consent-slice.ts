import type { HostApi } from '../../src-shared/host-api';
import { trackedCall } from './tracked-call';
import type { SliceCreator } from './types';

/**
 * Approving a stdio entry's launch before it first runs (`servers:approve`). The host pushes the server's
 * new status (starting, then ready); this slice only tracks the request in flight and why it failed.
 */
export interface ConsentSlice {
  /** Approvals in flight, by server name. */
  approving: Record<string, true>;
  /** Why an approval failed (e.g. the entry changed since it was shown), by server name. */
  approveErrors: Record<string, string>;
  approveServer(server: string, hash: string): Promise<void>;
}

export const createConsentSlice =
  (api: HostApi): SliceCreator<ConsentSlice> =>
  (set) => ({
    approving: {},
    approveErrors: {},
    async approveServer(server, hash) {
      await trackedCall(set, { busy: 'approving', mark: true, errors: 'approveErrors', keys: server }, () => api['servers:approve'](server, hash));
    },
  });
