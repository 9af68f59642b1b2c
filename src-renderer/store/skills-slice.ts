import type { HostApi, SkillFileView, SkillListView } from '../../src-shared/host-api';
import { resourceKey, type Loadable } from './feature-types';
import { latestLoads } from './latest-load';
import { trackedCall } from './tracked-call';
import type { SliceCreator } from './types';

/**
 * Skills per server (`io.modelcontextprotocol/skills`): lists fetched when the Skills tab opens or `/` is typed in the
 * composer, again on `features:changed`; a skill's files read on demand (each checked by the host against its digest);
 * Accept pins a skill that needs review (`skills:trust`).
 */
export interface SkillsSlice {
  skillLists: Record<string, Loadable<SkillListView>>;
  /** Keyed by resourceKey(server, file URI). */
  skillFiles: Record<string, Loadable<SkillFileView>>;
  /** Accepts in flight and their errors, by resourceKey(server, skill URI). */
  trustingSkills: Record<string, true>;
  skillTrustErrors: Record<string, string>;
  loadSkills(server: string): Promise<void>;
  /** Loads the lists of every ready server that declares skills and has none loaded yet. */
  loadAllSkills(): Promise<void>;
  readSkillFile(server: string, skill: string, uri: string): Promise<void>;
  acceptSkill(server: string, uri: string): Promise<void>;
}

/** Whether a server declares the Skills extension and is ready. */
export const offersSkills = (server: { status: string; disabled: boolean; capabilities?: { skills?: boolean } }): boolean =>
  server.status === 'ready' && !server.disabled && server.capabilities?.skills === true;

export const createSkillsSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<SkillsSlice> =>
  (set, get) => {
    const loadList = latestLoads(now);
    const loadFile = latestLoads(now);
    return {
      skillLists: {},
      skillFiles: {},
      trustingSkills: {},
      skillTrustErrors: {},

      async loadSkills(server) {
        await loadList(
          server,
          get().skillLists[server],
          () => api['skills:list'](server),
          (state) => set((s) => ({ skillLists: { ...s.skillLists, [server]: state } })),
        );
      },

      async loadAllSkills() {
        const missing = get().servers.filter((s) => offersSkills(s) && get().skillLists[s.name] === undefined);
        await Promise.all(missing.map((s) => get().loadSkills(s.name)));
      },

      async readSkillFile(server, skill, uri) {
        const key = resourceKey(server, uri);
        await loadFile(
          key,
          get().skillFiles[key],
          () => api['skills:read']({ server, skill, uri }),
          (state) => set((s) => ({ skillFiles: { ...s.skillFiles, [key]: state } })),
        );
      },

      async acceptSkill(server, uri) {
        const key = resourceKey(server, uri);
        const result = await trackedCall(set, { busy: 'trustingSkills', mark: true, errors: 'skillTrustErrors', keys: [key] }, () =>
          api['skills:trust']({ server, skills: [uri] }),
        );
        if (!result.ok) return;
        await get().loadSkills(server);
      },
    };
  };
