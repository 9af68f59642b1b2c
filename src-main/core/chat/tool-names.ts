import { createHash } from 'node:crypto';
import { toolKey, type ToolRef } from '../../../src-shared/contract/chat';

/**
 * Names the model sees for MCP tools. Providers allow `^[a-zA-Z0-9_-]{1,64}$` (OpenAI and Anthropic alike), while
 * MCP names may be anything and two servers may share a tool name. Each tool gets `server__tool`, sanitised and
 * shortened to that limit; where sanitising makes two names equal, or a name is too long, a short
 * hash of the exact `server`/`tool` pair keeps them apart. The map back is exact: a name resolves only to the
 * pair it was made from.
 */

export const maxToolNameLength = 64;
const separator = '__';

const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');
const hashOf = (ref: ToolRef): string => createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, 8);

export { toolKey, type ToolRef };

function withHash(base: string, ref: ToolRef): string {
  const suffix = `_${hashOf(ref)}`;
  return `${base.slice(0, maxToolNameLength - suffix.length)}${suffix}`;
}

export class ToolNameMap {
  private readonly byName = new Map<string, ToolRef>();
  private readonly byKey = new Map<string, string>();

  constructor(refs: Iterable<ToolRef>) {
    const list = [...refs];
    const plain = list.map((ref) => `${clean(ref.server)}${separator}${clean(ref.tool)}`);
    const counts = new Map<string, number>();
    for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
    list.forEach((ref, i) => {
      const base = plain[i] ?? '';
      let name = base.length <= maxToolNameLength && (counts.get(base) ?? 0) === 1 ? base : withHash(base, ref);
      // Astronomically unlikely, but never map two tools to one name.
      for (let n = 2; this.byName.has(name); n++) name = withHash(`${base}${n}`, ref);
      this.byName.set(name, ref);
      this.byKey.set(toolKey(ref), name);
    });
  }

  /** The model's name for a tool. */
  nameOf(ref: ToolRef): string | undefined {
    return this.byKey.get(toolKey(ref));
  }

  /** The exact server and tool behind a model's name, or undefined for a name we never gave out. */
  resolve(name: string): ToolRef | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
