import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

export type SkillsChannel = 'skills:list' | 'skills:get' | 'skills:read' | 'skills:directory' | 'skills:trust';

/** Skills (`io.modelcontextprotocol/skills`); the work is the server's SkillsFeature (servers/features/skills.ts). */
export class SkillsService {
  readonly api: Pick<HostMethods, SkillsChannel>;

  constructor(fleet: ServerFleet) {
    const feature = (server: string) => fleet.get(server).features.skills;
    this.api = {
      'skills:list': async (server) => feature(server).list(),
      'skills:get': async ({ server, name }) => feature(server).get(name),
      'skills:read': async ({ server, skill, uri }) => feature(server).read(skill, uri),
      'skills:directory': async ({ server, uri }) => feature(server).readDirectory(uri),
      'skills:trust': async ({ server, skills }) => ({ server, trusted: feature(server).trust(skills) }),
    };
  }
}
