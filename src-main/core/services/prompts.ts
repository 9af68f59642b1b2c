import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

/** (`completion:complete` is served by ResourcesService: one implementation for prompt and resource-template refs.) */
export type PromptsChannel = 'prompts:list' | 'prompts:get';

/** Prompts; the work is the server's PromptsFeature (servers/features/prompts.ts). */
export class PromptsService {
  readonly api: Pick<HostMethods, PromptsChannel>;

  constructor(fleet: ServerFleet) {
    const feature = (server: string) => fleet.get(server).features.prompts;
    this.api = {
      'prompts:list': async (server) => feature(server).list(),
      'prompts:get': async ({ server, name, args = {} }) => feature(server).get(name, args),
    };
  }
}
