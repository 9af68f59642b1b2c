import { randomUUID } from 'node:crypto';
import { callToolRequestSchema } from '../../../src-shared/schemas/tools';
import type { HostMethods, ToolResult } from '../../../src-shared/host-api';
import type { Disposable } from '../../../src-shared/lifecycle';
import { CoreError, toHostError } from '../errors';
import type { ServerFleet } from '../servers/fleet';
import type { Supervisor } from '../servers/supervisor';
import { traceScope, type Telemetry } from '../trace/telemetry';
import type { SpanOutcome } from '../trace/trace-context';
import { CallRegistry } from './call-registry';
import type { HostEventBus } from './events';

export type ToolsChannel = 'tools:call' | 'tools:cancel' | 'calls:list';

export interface ToolCallRequest {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Keys `calls:progress` and `tools:cancel`; one is made up when omitted. */
  callId?: string;
  /** Run as a task where the tool allows it (`required` tools always are). */
  task?: boolean;
  /** Asked by the tool's own app (apps:call-tool, which checked its visibility): an app-only tool is not refused. */
  fromApp?: boolean;
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
 * `tasks/cancel` for a task). A call with a `callId` the caller chose is the host's: `calls:list` and `calls:changed`
 * show it running and then its result to every window, whichever started it (see CallRegistry).
 */
export class ToolsService implements Disposable {
  readonly api: Pick<HostMethods, ToolsChannel>;
  readonly calls: CallRegistry;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly subscription: (() => void) | undefined;

  constructor(
    private readonly fleet: ServerFleet,
    events?: Pick<HostEventBus, 'emit' | 'on'>,
    /** Each call outside a chat turn is a trace of its own (and, exported, a span). */
    private readonly telemetry?: Telemetry,
  ) {
    this.calls = new CallRegistry({ changed: (view) => events?.emit('calls:changed', view) });
    this.subscription = events?.on('calls:progress', (event) => this.calls.progress(event));
    this.api = {
      'calls:list': async () => this.calls.list(),
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

  /**
   * One call; `signal` (e.g. a chat turn's Stop) cancels it as `tools:cancel` would. Never throws: rejects. Outside
   * a chat turn it is a trace of its own (a direct call: the composer, the CLI's `call`, an app frame), so that its
   * retries and `input_required` rounds share the trace id.
   */
  call(request: ToolCallRequest, signal?: AbortSignal): Promise<ToolResult> {
    return traceScope(
      this.telemetry,
      () => ({
        name: `direct call ${request.server}.${request.tool}`,
        attributes: { 'switchboard.kind': 'direct-call', 'switchboard.server': request.server, 'gen_ai.tool.name': request.tool },
      }),
      () => this.untracedCall(request, signal),
      toolOutcome,
    );
  }

  private untracedCall(request: ToolCallRequest, signal: AbortSignal | undefined): Promise<ToolResult> {
    let supervisor: Supervisor;
    try {
      supervisor = this.fleet.get(request.server);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // No id and no signal: nobody can cancel it or follow its progress, so it needs neither (nor their cost), and
    // the supervisor's promise is handed back as it is.
    if (request.callId === undefined && signal === undefined && request.fromApp !== true) {
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
    const { tool, args, callId = randomUUID(), task, fromApp } = request;
    // Only a call whose id the caller knows can be followed by a window: one with a made-up id is nobody's to show.
    const tracked = request.callId !== undefined;
    // Two running calls under one id would share an entry, progress and Cancel, and one's result would land on the other.
    if (tracked && this.inFlight.has(callId))
      throw new CoreError('invalid-argument', `A call with id "${callId}" is already running; give each call its own id.`);
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.set(callId, controller);
    if (tracked) this.calls.start(callId, request.server, tool, args);
    try {
      const result = await supervisor.callTool(tool, args, {
        signal: controller.signal,
        callId,
        ...(task !== undefined ? { task } : {}),
        ...(fromApp === true ? { fromApp } : {}),
      });
      if (tracked) this.calls.answered(callId, result);
      return result;
    } catch (error) {
      if (tracked) {
        const failure = toHostError(error);
        const cancelled = controller.signal.aborted || failure.code === 'cancelled';
        this.calls.failed(callId, cancelled && failure.code !== 'cancelled' ? { code: 'cancelled', message: 'The call was cancelled.' } : failure, cancelled);
      }
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.inFlight.get(callId) === controller) this.inFlight.delete(callId);
    }
  }

  dispose(): void {
    this.subscription?.();
    for (const controller of this.inFlight.values()) controller.abort(new Error('Switchboard is shutting down'));
    this.inFlight.clear();
  }
}

/** A call's outcome for its span: the tool's own error, or a result. */
function toolOutcome(result: ToolResult): SpanOutcome {
  return result.isError === true ? 'tool-error' : 'ok';
}
