import type { HostMethods } from '../../../src-shared/host-api';
import type { Registry } from '../registry';

export type ResourcesChannel = 'resources:list' | 'resources:read' | 'resources:subscribe' | 'resources:unsubscribe';

/** Resources of every server; the work is the server's ResourcesFeature (servers/features/resources.ts). */
export class ResourcesService {
  readonly api: Pick<HostMethods, ResourcesChannel>;

  constructor(registry: Registry) {
    const feature = (server: string) => registry.get(server).features.resources;
    this.api = {
      'resources:list': async (server) => feature(server).list(),
      'resources:read': async ({ server, uri }) => feature(server).read(uri),
      'resources:subscribe': async ({ server, uri }) => feature(server).subscribe(uri),
      'resources:unsubscribe': async ({ server, uri }) => feature(server).unsubscribe(uri),
    };
  }
}
