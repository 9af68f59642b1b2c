import { randomUUID } from 'node:crypto';
import { callToolRequestSchema } from '../../../src-shared/schemas/tools';
import type { HostMethods, ToolResult } from '../../../src-shared/host-api';
import type { Disposable } from '../../../src-shared/lifecycle';
import type { ServerFleet } from '../servers/fleet';
import type { Supervisor } from '../servers/supervisor';

export type ToolsChannel = 'tools:call' | 'tools:cancel';

export interface ToolCallRequest {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Keys `calls:progress` and `tools:cancel`; one is made up when omitted. */
  callId?: string;
  /** Run as a task where the tool allows it (`required` tools always are). */
  task?: boolean;
}

const noOptions: Readonly<Record<string, never>> = Object.freeze({});
const requestKeys = new Set(['server', 'tool', 'args', 'callId', 'task']);

/** What callToolRequestSchema accepts as it is (no defaults to apply but `args`), checked without zod. */
function isPlainRequest(request: unknown): request is Omit<ToolCallRequest, 'args'> & { args?: Record<string, unknown> } {
  if (typeof request !== 'object' || request === null || Object.getPrototypeOf(request) !== Object.prototype) return false;
  const r = request as Record<string, unknown>;
  for (const key in r) if (!requestKeys.has(key)) return false;
  if (typeof r.server !== 'string' || r.server === '' || typeof r.tool !== 'string' || r.tool === '') return false;
  if (r.args !== undefined && (typeof r.args !== 'object' || r.args === null || Array.isArray(r.args))) return false;
  if (r.callId !== undefined && (typeof r.callId !== 'string' || r.callId === '' || r.callId.length > 200)) return false;
  return r.task === undefined || typeof r.task === 'boolean';
}

/**
 * Tool calls from the UI, the CLI and the chat's tool loop, each cancellable by its `callId` (which also keys
 * `calls:progress`, progress and task status alike); `tools:cancel` aborts it (notifications/cancelled, or
 * `tasks/cancel` for a task).
 */
export class ToolsService implements Disposable {
  readonly api: Pick<HostMethods, ToolsChannel>;
  private readonly inFlight = new Map<string, AbortController>();

  constructor(private readonly fleet: ServerFleet) {
    this.api = {
      // Not async: the call's own promise is handed back (an async wrapper resolving with it costs two more
      // microtask turns per call). Untrusted calls were parsed by the dispatcher already; an in-process caller's
      // well-formed request (the common case, thousands a second under load) skips a second zod pass. Anything else
      // gets zod's error, as a rejection.
      'tools:call': (request) =>
        isPlainRequest(request) ? this.call(request.args === undefined ? { ...request, args: {} } : (request as ToolCallRequest)) : this.parsedCall(request),
      'tools:cancel': async (callId) => {
        const controller = this.inFlight.get(callId);
        if (!controller) return false;
        controller.abort(new Error('Cancelled by the user'));
        this.inFlight.delete(callId);
        return true;
      },
    };
  }

  /** One call; `signal` (e.g. a chat turn's Stop) cancels it as `tools:cancel` would. Never throws: rejects. */
  call(request: ToolCallRequest, signal?: AbortSignal): Promise<ToolResult> {
    let supervisor: Supervisor;
    try {
      supervisor = this.fleet.get(request.server);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // No id and no signal: nobody can cancel it or follow its progress, so it needs neither (nor their cost), and
    // the supervisor's promise is handed back as it is.
    if (request.callId === undefined && signal === undefined) {
      return supervisor.callTool(request.tool, request.args, request.task !== undefined ? { task: request.task } : noOptions);
    }
    return this.cancellable(supervisor, request, signal);
  }

  /** A request that is not plain, as zod reads it (its defaults applied; its error the rejection). */
  private async parsedCall(request: unknown): Promise<ToolResult> {
    const { server, tool, args, callId, task } = callToolRequestSchema.parse(request);
    return this.call({ server, tool, args, ...(callId !== undefined ? { callId } : {}), ...(task !== undefined ? { task } : {}) });
  }

  private async cancellable(supervisor: Supervisor, request: ToolCallRequest, signal: AbortSignal | undefined): Promise<ToolResult> {
    const { tool, args, callId = randomUUID(), task } = request;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.set(callId, controller);
    try {
      return await supervisor.callTool(tool, args, { signal: controller.signal, callId, ...(task !== undefined ? { task } : {}) });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.inFlight.get(callId) === controller) this.inFlight.delete(callId);
    }
  }

  dispose(): void {
    for (const controller of this.inFlight.values()) controller.abort(new Error('Switchboard is shutting down'));
    this.inFlight.clear();
  }
}
