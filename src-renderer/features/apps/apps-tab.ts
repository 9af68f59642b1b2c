import type { CallView } from '../../../src-shared/contract/tools';

/**
 * The newest finished call of a tool that the host still holds a result for (the call registry keeps the newest
 * results within a byte budget): what the Apps tab opens the tool's app with. Undefined when there is none.
 */
export function lastToolResult(calls: Record<string, CallView>, server: string, tool: string): CallView | undefined {
  let best: CallView | undefined;
  for (const call of Object.values(calls)) {
    if (call.server !== server || call.tool !== tool || call.state === 'running' || call.result === undefined) continue;
    if (best === undefined || (call.finishedAt ?? call.startedAt) > (best.finishedAt ?? best.startedAt)) best = call;
  }
  return best;
}

/** Whether a tool's input schema names required arguments (then the tab cannot run it with none). */
export function hasRequiredArguments(inputSchema: Record<string, unknown> | undefined): boolean {
  const required = inputSchema?.['required'];
  return Array.isArray(required) && required.length > 0;
}
