import MiniSearch from 'minisearch';
import type { ToolInfo } from '../../../../src-shared/host-api';
import { isCjk, normalizeTerm, tokenize } from './tokenize';

/*
 * Ranks a tool list for a query: BM25 (MiniSearch) over the tool's name (split into words), title, description,
 * parameter names and the server's name, with prefix matching on longer words and a little fuzziness on long ones.
 * Built once per tool list (see `indexFor`), queried many times.
 */

export interface IndexedTool {
  server: string;
  tool: string;
  info: ToolInfo;
}

export interface ToolMatch {
  server: string;
  tool: string;
  title?: string;
  /** The description's first line, shortened. */
  description: string;
  score: number;
}

interface Doc {
  id: number;
  name: string;
  title: string;
  description: string;
  params: string;
  server: string;
}

export const defaultSearchLimit = 8;
export const maxSearchLimit = 20;

/** The first sentence or line of a description, at most `max` characters. */
export function oneLine(text: string | undefined, max = 160): string {
  const first = (text ?? '').trim().split(/\n\s*\n|\n/)[0] ?? '';
  const flat = first.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Property names of an input schema and their descriptions, one level deep (where tools name what they take). */
function paramText(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  const out: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    out.push(name);
    const description = typeof value === 'object' && value !== null ? (value as { description?: unknown }).description : undefined;
    if (typeof description === 'string') out.push(oneLine(description, 200));
  }
  return out.join(' ');
}

const processTerm = (term: string): string | null => normalizeTerm(term);

export class ToolIndex {
  private readonly search_: MiniSearch<Doc>;

  constructor(readonly tools: readonly IndexedTool[]) {
    this.search_ = new MiniSearch<Doc>({
      fields: ['name', 'title', 'description', 'params', 'server'],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { name: 3, title: 2, description: 1, params: 0.7, server: 1.5 },
        // Prefix: `calc` finds calculate. Fuzzy only on long Latin words (typos), never on CJK pairs.
        prefix: (term) => !isCjk(term) && term.length >= 3,
        fuzzy: (term) => (!isCjk(term) && term.length >= 6 ? 0.2 : false),
        maxFuzzy: 2,
        combineWith: 'OR',
      },
    });
    this.search_.addAll(
      tools.map((t, id) => ({
        id,
        name: t.tool,
        title: t.info.title ?? '',
        description: t.info.description ?? '',
        params: paramText(t.info.inputSchema),
        server: t.server,
      })),
    );
  }

  /** The best `limit` tools for the query, best first; none for a query without words. */
  search(query: string, limit = defaultSearchLimit): ToolMatch[] {
    const n = Math.max(1, Math.min(maxSearchLimit, Math.floor(limit)));
    const hits = this.search_.search(query);
    const out: ToolMatch[] = [];
    for (const hit of hits) {
      const tool = this.tools[hit.id as number];
      if (!tool) continue;
      out.push({
        server: tool.server,
        tool: tool.tool,
        ...(tool.info.title !== undefined ? { title: tool.info.title } : {}),
        description: oneLine(tool.info.description),
        score: Math.round(hit.score * 1000) / 1000,
      });
      if (out.length >= n) break;
    }
    return out;
  }
}

let cached: { tools: readonly IndexedTool[]; index: ToolIndex } | undefined;

/**
 * The index of this tool list: the one built last when the list holds the same tool objects in the same order
 * (servers keep their listed tools until their list changes), else a new one.
 */
export function indexFor(tools: readonly IndexedTool[]): ToolIndex {
  const last = cached;
  if (
    last &&
    last.tools.length === tools.length &&
    last.tools.every((t, i) => {
      const other = tools[i];
      return other !== undefined && t.info === other.info && t.server === other.server;
    })
  )
    return last.index;
  const index = new ToolIndex(tools);
  cached = { tools: [...tools], index };
  return index;
}
