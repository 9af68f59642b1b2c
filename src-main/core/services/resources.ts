import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

export type ResourcesChannel = 'resources:list' | 'resources:read' | 'resources:subscribe' | 'resources:unsubscribe' | 'completion:complete';

/**
 * Resources of every server, and argument completion (prompt arguments and resource-template variables); the
 * work is the server's ResourcesFeature and CompletionsFeature (servers/features/resources.ts, completions.ts).
 * An unknown server is refused by `fleet.get` (unknown-server).
 */
export class ResourcesService {
  readonly api: Pick<HostMethods, ResourcesChannel>;

  constructor(fleet: ServerFleet) {
    const features = (server: string) => fleet.get(server).features;
    this.api = {
      'resources:list': async (server) => features(server).resources.list(),
      'resources:read': async ({ server, uri }) => features(server).resources.read(uri),
      'resources:subscribe': async ({ server, uri }) => features(server).resources.subscribe(uri),
      'resources:unsubscribe': async ({ server, uri }) => features(server).resources.unsubscribe(uri),
      'completion:complete': async ({ server, ref, argument, context }) =>
        features(server).completions.complete({ ref, argument, ...(context !== undefined ? { context } : {}) }),
    };
  }
}
