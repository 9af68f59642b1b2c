import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

export type LoggingChannel = 'logs:list' | 'logs:set-level' | 'logs:stderr';

/** Server log messages; the work is the server's LoggingFeature (servers/features/logging.ts). */
export class LoggingService {
  readonly api: Pick<HostMethods, LoggingChannel>;

  constructor(fleet: ServerFleet) {
    const feature = (server: string) => fleet.get(server).features.logging;
    this.api = {
      'logs:list': async ({ server, after, limit }) => feature(server).list(after, limit),
      'logs:set-level': async ({ server, level }) => feature(server).setLevel(level),
      'logs:stderr': async ({ server, after, limit }) => feature(server).listStderr(after, limit),
    };
  }
}
