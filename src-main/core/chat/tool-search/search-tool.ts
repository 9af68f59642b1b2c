import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ToolPart, ToolSearchInfo } from '../../../../src-shared/contract/chat';
import type { ToolInfo } from '../../../../src-shared/host-api';
import { toModelOutput, type OutputOptions, type ToolOutcome } from '../model-messages';
import type { ToolRef } from '../tool-names';
import { defaultSearchLimit, maxSearchLimit, type ToolIndex } from './tool-index';

/*
 * `search_tools`, the host's own tool in search mode: ranks the tools the model may use (the index holds only
 * those: trusted, enabled, not app-only) and loads the matches, whose definitions the model gets from its next step
 * on. It runs without an approval: it reads tool descriptions the person's servers published, nothing else.
 */

export const searchToolName = 'search_tools';
/** The server name a search's tool card carries (no MCP server runs it). */
export const searchToolServer = 'switchboard';

export const searchSystemNote =
  `Not every tool is offered up front. To find one, call ${searchToolName} with a few keywords (in any language) of what you need; ` +
  'the tools it finds are offered from your next step on and stay available for the rest of the conversation. ' +
  'You may also call a tool directly by its name (server__tool) if you already know it.';

export interface ToolSearchOptions {
  /** The index of the tools the model may use this turn. */
  index: ToolIndex;
  /** `server/tool` keys loaded earlier in the conversation. */
  loaded: readonly string[];
  /** Tools loaded by this turn (a search, or a call by name), to keep in the conversation. */
  onLoad(keys: string[]): void;
  /** Receives the turn's way to take loaded tools (`server/tool` keys) off its offer from the next step. */
  bindUnload?(unload: (keys: readonly string[]) => void): void;
}

const inputSchema = z.object({
  query: z.string().trim().min(1, 'query: say in a few words what the tool should do').max(500),
  limit: z.number().optional(),
});

interface SearchToolContext {
  search: ToolSearchOptions;
  tools: ReadonlyArray<ToolRef & { info: ToolInfo }>;
  nameOf(ref: ToolRef): string | undefined;
  /** Loads the tool; true when it was not loaded before. */
  load(ref: ToolRef): boolean;
  signal: AbortSignal;
  upsert(part: ToolPart): void;
  output: OutputOptions;
}

/** Each server the model may use and how many tools it has: what there is to search, in a line. */
function serverSummary(tools: ReadonlyArray<ToolRef>): string {
  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t.server, (counts.get(t.server) ?? 0) + 1);
  return [...counts].map(([server, n]) => `${server} (${n})`).join(', ');
}

export function searchTool(context: SearchToolContext): ToolSet[string] {
  const { search } = context;
  return dynamicTool({
    description:
      `Find tools of the user's MCP servers by keywords and load them: returns the best matches (name to call, server, title, ` +
      `one-line description), which you can call from your next step on. Servers (tool count): ${serverSummary(context.tools) || 'none'}.`,
    inputSchema: jsonSchema({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few keywords.' },
        limit: { type: 'integer', minimum: 1, maximum: maxSearchLimit, description: `How many matches (default ${defaultSearchLimit}).` },
      },
      required: ['query'],
    }),
    execute: async (input, { toolCallId }): Promise<ToolOutcome> => {
      const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      const base: ToolPart = {
        type: 'tool',
        callId: toolCallId,
        server: searchToolServer,
        tool: searchToolName,
        modelName: searchToolName,
        args,
        status: 'running',
        readOnly: true,
      };
      if (context.signal.aborted) {
        context.upsert({ ...base, status: 'cancelled' });
        return { kind: 'cancelled' };
      }
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) {
        const message = `${searchToolName} needs {"query": "a few keywords", "limit"?: 1..${maxSearchLimit}}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
        context.upsert({ ...base, status: 'error', error: message });
        return { kind: 'failed', message };
      }
      const started = performance.now();
      const { query } = parsed.data;
      const found = search.index.search(query, parsed.data.limit ?? defaultSearchLimit);
      const info: ToolSearchInfo = { query, matches: [] };
      const matches = found.map((m) => {
        const newlyLoaded = context.load(m);
        info.matches.push({ server: m.server, tool: m.tool, ...(m.title !== undefined ? { title: m.title } : {}), newlyLoaded });
        return { name: context.nameOf(m) ?? m.tool, server: m.server, ...(m.title !== undefined ? { title: m.title } : {}), description: m.description };
      });
      const text =
        matches.length > 0
          ? JSON.stringify({ loaded: matches, note: 'These tools are offered from your next step on; call them by `name`.' })
          : JSON.stringify({ loaded: [], note: `No tool matches "${query}". Try other or fewer words.` });
      const result = { content: [{ type: 'text' as const, text }] };
      context.upsert({ ...base, status: 'done', result, search: info, durationMs: Math.round(performance.now() - started) });
      return { kind: 'result', result };
    },
    toModelOutput: ({ output }) => toModelOutput(output as ToolOutcome, context.output),
  });
}
