import type { ToolInfo } from '../../../../src-shared/host-api';
import type { ToolLoading } from '../../../../src-shared/contract/chat';

/*
 * Whether a turn offers every tool or only `search_tools` and the tools the conversation has loaded. `auto` picks
 * search when the definitions would cost more than about 8k tokens (32 KB of JSON at ~4 bytes a token) or there
 * are more than 30 tools: past that, models pick tools less well and every request pays for all of them.
 */

export const autoMaxTools = 30;
export const autoMaxBytes = 32_000;

/** The JSON a provider receives for one tool (name, description, schema), as measured for the budget. */
export function toolJsonBytes(info: Pick<ToolInfo, 'name' | 'title' | 'description' | 'inputSchema'>): number {
  return Buffer.byteLength(
    JSON.stringify({ name: info.name, description: [info.title, info.description].filter(Boolean).join(' — '), parameters: info.inputSchema }),
  );
}

export function effectiveLoading(setting: ToolLoading, tools: ReadonlyArray<{ info: ToolInfo }>): 'all' | 'search' {
  if (setting !== 'auto') return setting;
  if (tools.length > autoMaxTools) return 'search';
  let bytes = 0;
  for (const t of tools) {
    bytes += toolJsonBytes(t.info);
    if (bytes > autoMaxBytes) return 'search';
  }
  return 'all';
}
