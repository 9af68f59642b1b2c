import { Client, DEFAULT_REQUEST_TIMEOUT_MSEC, LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, type ClientContext, type ElicitRequestURLParams, type ElicitResult, type JSONRPCRequest, type LoggingLevel, type Progress, type RequestOptions, type Result } from '@modelcontextprotocol/client';
import { currentCallId, runWithCallId } from './call-origin';
import { ClientTaskStore, listParams, taskIdParams, taskParamsOf } from './client-tasks';

/** Marks a call's request options with its call id (spreads of the options keep it; the SDK passes them on). */
const callIdKey = Symbol('switchboard.callId');
type Tagged = { [callIdKey]?: string };

function callIdOf(options: RequestOptions | undefined): string | undefined {
  return (options as Tagged | undefined)?.[callIdKey];
}

/**
 * The SDK client with what 2.4.0 leaves out for a host:
 * - On 2026-07-28 the log level a client wants travels in every request's `_meta` (`io.modelcontextprotocol/logLevel`;
 *   there is no `logging/setLevel` in that era), and a server built on the SDK sends a request's
 *   `notifications/message` only when that request carries it. The SDK's envelope seam (`_outboundMetaEnvelope`, the
 *   protected per-request `_meta` of a modern connection) builds the level into its codec but never fills it in; this
 *   fills it in from `logLevel` (set by the logging feature). Legacy connections have no envelope.
 * - A call refused with `-32042` (URL elicitation required): each URL is put to the person through the elicitation
 *   feature's handler (`urlElicitation`); when all are accepted, the call is made once more.
 * - Which call a server's request came from (see call-origin.ts): `tools/call`s made inside a call's context are
 *   counted while in flight, and their `input_required` rounds run in that call's context, so the sampling,
 *   elicitation and roots handlers can name the call (`originCallId()`).
 * - A call's timeout stops while its server waits on the host (`holdingCalls`): a legacy server that sent
 *   `sampling/createMessage` or `elicitation/create` from inside a `tools/call` cannot answer that call until the
 *   person has answered (the request queue's own deadline bounds that wait), so the call's idle timeout is kept by a
 *   `CallClock` here rather than by the SDK's timer (which has no pause): the SDK gets no timeout of its own, the
 *   clock aborts the call with the SDK's own timeout error, restarts on progress (when the caller asked for that)
 *   and after each answer, and is held while a request of that call (or, when the request names no call, of this
 *   connection) is being answered. On 2026-07-28 the same holds across the `input_required` rounds.
 * - Task-augmented server requests (2025-11-25, `tasks.requests` declared by the sampling and elicitation features):
 *   a `sampling/createMessage` or `elicitation/create` with `task` params is answered at once with a task, its
 *   handler (the SDK's validation included) runs on, and the server's `tasks/get`, `tasks/result`, `tasks/list` and
 *   `tasks/cancel` are served from this connection's ClientTaskStore (the SDK has no client-side task runtime).
 */
/** The URL elicitations a failed call says it needs first (`-32042` URLElicitationRequired, 2025-11-25). */
export function urlElicitationsOf(error: unknown): ElicitRequestURLParams[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const valid = listed.filter(
    (e: unknown): e is ElicitRequestURLParams =>
      typeof e === 'object' && e !== null && (e as { mode?: unknown }).mode === 'url' && typeof (e as { url?: unknown }).url === 'string' && typeof (e as { elicitationId?: unknown }).elicitationId === 'string' && typeof (e as { message?: unknown }).message === 'string',
  );
  return valid.length > 0 ? valid : undefined;
}

export class HostClient extends Client {
  /** The level to ask for on 2026-07-28 connections; undefined: none (the server sends no log messages). */
  logLevel: LoggingLevel | undefined;
  private readonly inFlight = new Map<string, number>();
  /** The timeouts of the calls in flight (see CallClock). */
  private readonly clocks = new Set<CallClock>();
  /** The tasks of task-augmented server requests (2025-11-25). */
  private readonly requestTasks = new ClientTaskStore();

  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    const tasks = this.requestTasks;
    this.setRequestHandler('tasks/get', { params: taskIdParams }, ({ taskId }) => tasks.get(taskId));
    this.setRequestHandler('tasks/result', { params: taskIdParams }, ({ taskId }) => tasks.result(taskId));
    this.setRequestHandler('tasks/list', { params: listParams }, () => tasks.list());
    this.setRequestHandler('tasks/cancel', { params: taskIdParams }, ({ taskId }) => tasks.cancel(taskId));
  }

  /** A task-augmented sampling or elicitation request gets a task at once; its handler runs on (see ClientTaskStore). */
  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'sampling/createMessage' && method !== 'elicitation/create') return wrapped;
    return (request, ctx) => {
      const task = taskParamsOf(request.params);
      if (task === undefined) return wrapped(request, ctx);
      const created = this.requestTasks.create(task, (signal) => wrapped(request, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }));
      return Promise.resolve({ task: created });
    };
  }

  protected override _onclose(): void {
    this.requestTasks.clear();
    super._onclose();
  }

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.logLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel };
  }

  /** Set by the elicitation feature: asks the person's consent for a URL a call needs first (see callTool). */
  urlElicitation: ((params: ElicitRequestURLParams, signal: AbortSignal | undefined) => Promise<ElicitResult>) | undefined;

  override async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    const callId = currentCallId();
    const [params, options] = args;
    const clock = new CallClock(options?.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC, callId, options?.signal);
    this.clocks.add(clock);
    const clocked: NonNullable<typeof options> & Tagged = { ...options, ...clock.options(options) };
    if (callId !== undefined) {
      clocked[callIdKey] = callId;
      this.inFlight.set(callId, (this.inFlight.get(callId) ?? 0) + 1);
    }
    try {
      return await this.callWithPrerequisites(params, clocked);
    } finally {
      clock.dispose();
      this.clocks.delete(clock);
      if (callId !== undefined) {
        const left = (this.inFlight.get(callId) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(callId);
        else this.inFlight.set(callId, left);
      }
    }
  }

  /**
   * Runs `answer` (the host handling a server's request: a person answering, a model running) with the timeouts of
   * the calls waiting on it held: the call `callId` names, or every call in flight here when it names none.
   */
  async holdingCalls<T>(callId: string | undefined, answer: () => Promise<T>): Promise<T> {
    const held = [...this.clocks].filter((c) => callId === undefined || c.callId === callId);
    for (const clock of held) clock.hold();
    try {
      return await answer();
    } finally {
      for (const clock of held) clock.release();
    }
  }

  private async callWithPrerequisites(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    try {
      return await super.callTool(...args);
    } catch (error) {
      const needed = urlElicitationsOf(error);
      const ask = this.urlElicitation;
      if (!needed || !ask) throw error;
      for (const elicitation of needed) {
        const answer = await ask(elicitation, args[1]?.signal);
        if (answer.action !== 'accept') throw error;
      }
      return await super.callTool(...args);
    }
  }

  protected override _resolveNonCompleteResult(...args: Parameters<Client['_resolveNonCompleteResult']>): Promise<unknown> {
    const callId = callIdOf(args[1].options);
    return runWithCallId(callId, () => super._resolveNonCompleteResult(...args));
  }

  /**
   * The call a server request (being handled now) arose from: the call whose MRTR round or HTTP response stream it
   * came on, else the one call in flight on this connection; undefined when that cannot be told.
   */
  originCallId(): string | undefined {
    const current = currentCallId();
    if (current !== undefined) return current;
    if (this.inFlight.size !== 1) return undefined;
    return this.inFlight.keys().next().value;
  }
}

/** The SDK's timer is set past any clock (setTimeout's largest delay); the clock decides when a call times out. */
const sdkTimeoutMs = 2 ** 31 - 1;

/**
 * One call's idle timeout, which can be held: it aborts the call (through the signal given to the SDK, with the
 * SDK's own "Request timed out" error, so the call is cancelled on the wire as a timeout is) after `timeoutMs`
 * without news, restarts on progress when the caller asked for that (`resetTimeoutOnProgress`), stops while held and
 * starts afresh when the last hold is released. The caller's own `maxTotalTimeout` is passed on to the SDK as it is.
 */
class CallClock {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private holds = 0;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(
    private readonly timeoutMs: number,
    readonly callId: string | undefined,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    if (callerSignal) {
      if (callerSignal.aborted) this.controller.abort(callerSignal.reason);
      else {
        this.onCallerAbort = () => this.controller.abort(callerSignal.reason);
        callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
      }
    }
    this.start();
  }

  /** The request options that put this clock in charge of the call's timeout. */
  options(given: RequestOptions | undefined): RequestOptions {
    const onprogress = given?.onprogress;
    const reset = given?.resetTimeoutOnProgress === true;
    return {
      timeout: sdkTimeoutMs,
      signal: this.controller.signal,
      ...(onprogress ? { onprogress: reset ? (p: Progress) => (this.start(), onprogress(p)) : onprogress } : {}),
    };
  }

  hold(): void {
    this.holds++;
    this.stop();
  }

  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    this.start();
  }

  dispose(): void {
    this.stop();
    this.holds = Number.POSITIVE_INFINITY;
    if (this.onCallerAbort) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private start(): void {
    if (this.holds > 0 || this.controller.signal.aborted) return;
    this.stop();
    this.timer = setTimeout(() => this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: this.timeoutMs })), this.timeoutMs);
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** `answer` run with the timeouts of the calls waiting on it held (see HostClient.holdingCalls); any other client: as it is. */
export function holdingCalls<T>(client: Client, callId: string | undefined, answer: () => Promise<T>): Promise<T> {
  return client instanceof HostClient ? client.holdingCalls(callId, answer) : answer();
}
