import type { HostMethods } from '../../../src-shared/host-api';
import { notSupported } from '../errors';
import type { Registry } from '../registry';

export type TraceChannel = 'trace:list' | 'trace:clear' | 'debug:bundle';

/**
 * The protocol trace and the debug bundle. Transitional: the trace recorder (src-main/core/trace/, a transport
 * decorator given to the supervisors as `decorateTransport`) is wired here when it lands.
 */
export class TraceService {
  readonly api: Pick<HostMethods, TraceChannel>;

  constructor(registry: Registry) {
    this.api = {
      'trace:list': async ({ server }) => {
        registry.get(server);
        throw notSupported('trace:list', server);
      },
      'trace:clear': async (server) => {
        registry.get(server);
        throw notSupported('trace:clear', server);
      },
      'debug:bundle': async () => {
        throw notSupported('debug:bundle');
      },
    };
  }
}
