import type { ServerView } from '../../../src-shared/contract/servers';
import { revealHidden } from '../../../src-shared/hidden-text';

/** What a sampling request's `includeContext` asks for (2025-11-25; soft-deprecated, gated by `sampling.context`). */
export type SamplingContextScope = 'thisServer' | 'allServers';

/** The longest instructions text put in a context (more is cut, saying so), and the most tool names per server. */
const maxInstructionsChars = 2000;
const maxToolNames = 100;

/**
 * The context a sampling request asked for, as system-prompt text: for the requesting server (`thisServer`) or
 * every ready server (`allServers`, the requester first), each one's name, instructions (hidden characters spelled
 * out, so the person reviewing the prompt sees them) and the names of the tools the model could be offered (tools
 * needing review are left out, as the chat leaves them out). Undefined when there is nothing to say. The person
 * sees (and may edit) this in the request's system prompt before anything runs.
 */
export function samplingContextText(requester: string, scope: SamplingContextScope, views: readonly ServerView[]): string | undefined {
  const chosen = views
    .filter((v) => (scope === 'thisServer' ? v.name === requester : v.name === requester || (v.status === 'ready' && !v.disabled)))
    .sort((a, b) => (a.name === requester ? -1 : b.name === requester ? 1 : a.name.localeCompare(b.name)));
  const blocks = chosen.map((v) => {
    const lines = [`Server "${v.name}"${v.serverInfo ? ` (${v.serverInfo.name} ${v.serverInfo.version})` : ''}:`];
    const instructions = v.instructions?.trim();
    if (instructions) {
      const shown = revealHidden(instructions);
      lines.push(`  Instructions: ${shown.length > maxInstructionsChars ? `${shown.slice(0, maxInstructionsChars)}… (cut)` : shown}`);
    }
    const tools = v.tools.filter((t) => t.review === undefined || t.review.state === 'trusted').map((t) => t.name);
    if (tools.length > 0)
      lines.push(`  Tools: ${tools.slice(0, maxToolNames).join(', ')}${tools.length > maxToolNames ? `, … (${tools.length - maxToolNames} more)` : ''}`);
    return lines.length > 1 ? lines.join('\n') : undefined;
  });
  const said = blocks.filter((b): b is string => b !== undefined);
  if (said.length === 0) return undefined;
  const what = scope === 'thisServer' ? 'the MCP server that asked' : 'the connected MCP servers';
  return [`Context from ${what} (includeContext "${scope}"):`, ...said].join('\n');
}
