import { z } from 'zod';

/** Argument tuples of the skills channels (see ../contract/skills.ts for the results). */

const serverName = z.string().min(1).max(200);
const uri = z
  .string()
  .min(1)
  .max(16 * 1024);

/** A skill by its frontmatter name or by its SKILL.md URI. */
export const skillRefSchema = z.object({ server: serverName, name: z.string().min(1).max(1000) });

export const skillsChannels = {
  'skills:list': z.tuple([serverName]),
  'skills:get': z.tuple([skillRefSchema]),
  /** A file of a skill (`skill` names it, as for skills:get; `uri` is the file's URI or its path in the skill). */
  'skills:read': z.tuple([z.object({ server: serverName, skill: z.string().min(1).max(1000), uri })]),
  'skills:directory': z.tuple([z.object({ server: serverName, uri })]),
  /** Accepts the current digests of the skills named (names or URIs), or of every skill that needs review. */
  'skills:trust': z.tuple([z.object({ server: serverName, skills: z.array(z.string().min(1).max(1000)).max(10_000).optional() })]),
} as const;
