import { z } from 'zod';
import { inToolset, type Toolset, type ToolRef } from '../../../src-shared/contract/chat';

/*
 * Toolsets: named sets of servers and tools kept in the chat settings file. A tool is in a set when its server is
 * one of `servers` or its `server/tool` key (the key the other chat settings use) is one of `tools`. Checked here so
 * an error names the set and the field that is wrong, not a zod path.
 */

export const maxToolsetNameLength = 60;

const nameSchema = z
  .string({ error: 'name: must be a text' })
  .trim()
  .min(1, 'name: must not be empty')
  .max(maxToolsetNameLength, `name: at most ${maxToolsetNameLength} characters`);
const serversSchema = z.array(z.string().trim().min(1, 'must not be empty').max(200), { error: 'servers: must be a list of server names' }).max(1000);
const toolsSchema = z
  .array(
    z
      .string()
      .trim()
      .regex(/^[^/]+\/.+$/, 'must be written server/tool')
      .max(600),
    { error: 'tools: must be a list of server/tool names' },
  )
  .max(10_000);

/** The sets `raw` holds and, when some are wrong, an error naming the first (those are left out). */
export function parseToolsets(raw: unknown): { toolsets: Toolset[]; error?: string } {
  if (raw === undefined) return { toolsets: [] };
  if (!Array.isArray(raw)) return { toolsets: [], error: 'toolsets: must be a list of {"name", "servers"?, "tools"?}' };
  const toolsets: Toolset[] = [];
  const errors: string[] = [];
  raw.forEach((entry: unknown, i) => {
    const label =
      typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string'
        ? JSON.stringify((entry as { name: string }).name)
        : `#${i + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push(`Toolset ${label}: must be an object {"name", "servers"?, "tools"?}`);
      return;
    }
    const record = entry as Record<string, unknown>;
    const name = nameSchema.safeParse(record.name);
    if (!name.success) {
      errors.push(`Toolset ${label}: ${name.error.issues[0]?.message ?? 'name: invalid'}`);
      return;
    }
    const set: Toolset = { name: name.data };
    for (const field of ['servers', 'tools'] as const) {
      if (record[field] === undefined) continue;
      const parsed = (field === 'servers' ? serversSchema : toolsSchema).safeParse(record[field]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const at = issue?.path.length ? `${field}[${String(issue.path[0])}]` : field;
        const value = issue?.path.length && Array.isArray(record[field]) ? ` (${JSON.stringify((record[field] as unknown[])[Number(issue.path[0])])})` : '';
        errors.push(`Toolset "${name.data}": ${at}${value} ${issue?.message.replace(/^\w+: /, '') ?? 'is invalid'}`);
        return;
      }
      set[field] = [...new Set(parsed.data)];
    }
    const unknownKeys = Object.keys(record).filter((k) => k !== 'name' && k !== 'servers' && k !== 'tools');
    if (unknownKeys.length > 0) {
      errors.push(`Toolset "${name.data}": unknown field ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')} (a set has name, servers and tools)`);
      return;
    }
    if (toolsets.some((t) => t.name === set.name)) {
      errors.push(`Toolset "${set.name}" is defined twice: give each set its own name`);
      return;
    }
    toolsets.push(set);
  });
  return errors.length > 0 ? { toolsets, error: errors.join('; ') } : { toolsets };
}

/** What the CLI's --servers and the chosen set leave of the tools: a tool must pass both. */
export interface ToolFilter {
  toolset?: Toolset;
  servers?: readonly string[];
}

export function filterTools<T extends ToolRef>(tools: readonly T[], filter: ToolFilter): T[] {
  const { toolset, servers } = filter;
  return tools.filter((t) => (toolset === undefined || inToolset(toolset, t)) && (servers === undefined || servers.includes(t.server)));
}

/**
 * The skills a filter leaves: a skill belongs to its server, so a set offers the skills of the servers it names and of
 * the servers whose tools it picks; --servers keeps the skills of the servers it lists.
 */
export function filterSkills<T extends { server: string }>(skills: readonly T[], filter: ToolFilter): T[] {
  const { toolset, servers } = filter;
  const setServers = toolset ? new Set([...(toolset.servers ?? []), ...(toolset.tools ?? []).map((key) => key.slice(0, key.indexOf('/')))]) : undefined;
  return skills.filter((s) => (setServers === undefined || setServers.has(s.server)) && (servers === undefined || servers.includes(s.server)));
}
