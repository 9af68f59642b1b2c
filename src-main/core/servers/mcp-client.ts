import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type BaseContext,
  type ClientContext,
  type ElicitRequestURLParams,
  type ElicitResult,
  type JSONRPCRequest,
  type LoggingLevel,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type Result,
  type ResultTypeMap,
  type StandardSchemaV1,
  TRACEPARENT_META_KEY,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { ObservedTransport } from '../support/observed-transport';
import { requestTraceparent, type RequestSpan, type RequestSpanMaker, type SpanOutcome } from '../trace/trace-context';
import { currentCallId, runWithCallId } from './call-origin';
import { ClientTaskStore, listParams, taskIdParams, taskParamsOf } from './client-tasks';

/** Who Switchboard is to a server (`clientInfo` of every connection). */
export const clientInfo = { name: 'switchboard', version: '0.1.0' };

/** Marks a call's request options with its call id (spreads of the options keep it; the SDK passes them on). */
const callIdKey = Symbol('switchboard.callId');
type Tagged = { [callIdKey]?: string };
type CallParams = Parameters<Client['callTool']>[0];
type CallOptions = Parameters<Client['callTool']>[1];

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
 * - The capabilities in that envelope are the era's own: the 2025-11-25 top-level `tasks` capability (task-augmented
 *   sampling and elicitation requests, which 2026-07-28 does not have: its tasks are the
 *   `io.modelcontextprotocol/tasks` extension) is declared at `initialize` only, not sent with every modern request.
 * - A call refused with `-32042` (URL elicitation required): each URL is put to the person through the elicitation
 *   feature's handler (`urlElicitation`); when all are accepted, the call is made once more.
 * - Which call a server's request came from (see call-origin.ts): `tools/call`s made inside a call's context are
 *   counted while in flight, and their `input_required` rounds run in that call's context, so the sampling,
 *   elicitation and roots handlers can name the call (`originCallId()`).
 * - A call's timeout stops while its server waits on the host (`holdingCalls`): a legacy server that sent
 *   `sampling/createMessage` or `elicitation/create` from inside a `tools/call` cannot answer that call until the
 *   person has answered (the request queue's own deadline bounds that wait). The SDK's per-request timer has no
 *   public pause, so `SdkTimeouts` (the one place that reaches into the SDK's Protocol internals, checked at
 *   runtime) holds it: each outgoing `tools/call` is noted with its call id as it is sent (no cost per call beyond
 *   that), and while a request of that call (or, when it names no call, of this connection) is answered the call's
 *   timer is set past any wait; after the answer it starts afresh. On 2026-07-28 no call is in flight while its
 *   `input_required` round is being answered (each retry is a new request with its own timeout).
 * - Task-augmented server requests (2025-11-25, `tasks.requests` declared by the sampling and elicitation features):
 *   a `sampling/createMessage` or `elicitation/create` with `task` params is answered at once with a task, its
 *   handler (the SDK's validation included) runs on, and the server's `tasks/get`, `tasks/result`, `tasks/list` and
 *   `tasks/cancel` are served from this connection's ClientTaskStore (the SDK has no client-side task runtime).
 * - Every request carries W3C trace context (`traceparent` in its `_meta`, SEP-414; both eras), stamped as it goes to
 *   the transport (after the SDK's envelope, so next to the log level on 2026-07-28): the trace of the chat turn or
 *   direct call it is made in (../trace/trace-context.ts), a new span id each. With span export on
 *   (`requestSpans`), the span is the exporter's and ends when the response (or a cancel, or the close) comes.
 */
/** The URL elicitations a failed call says it needs first (`-32042` URLElicitationRequired, 2025-11-25). */
export function urlElicitationsOf(error: unknown): ElicitRequestURLParams[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const valid = listed.filter(
    (e: unknown): e is ElicitRequestURLParams =>
      typeof e === 'object' &&
      e !== null &&
      (e as { mode?: unknown }).mode === 'url' &&
      typeof (e as { url?: unknown }).url === 'string' &&
      typeof (e as { elicitationId?: unknown }).elicitationId === 'string' &&
      typeof (e as { message?: unknown }).message === 'string',
  );
  return valid.length > 0 ? valid : undefined;
}

export class McpClient extends Client {
  /** The level to ask for on 2026-07-28 connections; undefined: none (the server sends no log messages). */
  logLevel: LoggingLevel | undefined;
  private readonly inFlight = new Map<string, number>();
  /** The outgoing `tools/call` requests by message id, with the call id they were made for (see holdingCalls). */
  private readonly callMessages = new Map<number | string, string | undefined>();
  private readonly timeouts = SdkTimeouts.of(this);
  private sweepAt = 256;
  /** The tasks of task-augmented server requests (2025-11-25). */
  private readonly requestTasks = new ClientTaskStore();
  /** Set while spans are exported (the session's): the span of a request about to be sent. */
  requestSpans: RequestSpanMaker | undefined;
  /** Exported spans of the requests awaiting their response, by message id. */
  private readonly openSpans = new Map<number | string, RequestSpan>();

  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    const tasks = this.requestTasks;
    this.setRequestHandler('tasks/get', { params: taskIdParams }, ({ taskId }) => tasks.get(taskId));
    this.setRequestHandler('tasks/result', { params: taskIdParams }, ({ taskId }) => tasks.result(taskId));
    this.setRequestHandler('tasks/list', { params: listParams }, () => tasks.list());
    this.setRequestHandler('tasks/cancel', { params: taskIdParams }, ({ taskId }) => tasks.cancel(taskId));
  }

  /** A task-augmented sampling or elicitation request gets a task at once; its handler runs on (see ClientTaskStore). */
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
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
    this.endSpans('closed');
    super._onclose();
  }

  /**
   * The last envelope made, with the SDK's envelope and the level it was made from: the SDK makes its envelope anew
   * for each request (the same protocol version, client info and capabilities objects each time), so ours (the level
   * added, the capabilities of the era) is made once while those stay the same.
   */
  private made: { base: Readonly<Record<string, unknown>>; level: LoggingLevel | undefined; envelope: Readonly<Record<string, unknown>> } | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined) return undefined;
    const level = this.logLevel;
    const made = this.made;
    if (made !== undefined && made.level === level && sameEntries(made.base, envelope)) return made.envelope;
    const ours: Record<string, unknown> = { ...envelope };
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
    if (typeof capabilities === 'object' && capabilities !== null && 'tasks' in capabilities) {
      const { tasks: _legacyOnly, ...modern } = capabilities as Record<string, unknown>;
      ours[CLIENT_CAPABILITIES_META_KEY] = modern;
    }
    if (level !== undefined) ours[LOG_LEVEL_META_KEY] = level;
    const frozen = Object.freeze(ours);
    this.made = { base: envelope, level, envelope: frozen };
    return frozen;
  }

  /**
   * `tools/call` sent with its result validator made once per era codec. The SDK's request() makes one per request
   * for a spec method, probing the codec with `validateResult(method, undefined)` first — a zod parse that fails
   * and formats its error, every call. This one validates exactly as the SDK's does (the same codec's
   * validateResult, the same issue text); the schema path asserts the method's era as the other does.
   */
  override request<M extends RequestMethod>(request: { method: M; params?: Record<string, unknown> }, options?: RequestOptions): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(request: Request, resultSchema: T, options?: RequestOptions): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: Request, schemaOrOptions?: StandardSchemaV1 | RequestOptions, options?: RequestOptions): Promise<unknown> {
    if (request.method === 'tools/call' && this._negotiatedProtocolVersion !== undefined && !isStandardSchema(schemaOrOptions)) {
      return super.request(request, this.callResultSchema(), schemaOrOptions);
    }
    const forward = super.request as unknown as (
      this: McpClient,
      request: Request,
      schemaOrOptions?: StandardSchemaV1 | RequestOptions,
      options?: RequestOptions,
    ) => Promise<unknown>;
    return forward.call(this, request, schemaOrOptions, options);
  }

  private callSchema: { codec: object; schema: StandardSchemaV1 } | undefined;

  private callResultSchema(): StandardSchemaV1 {
    const codec = this._wireCodec();
    if (this.callSchema?.codec === codec) return this.callSchema.schema;
    const schema: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'mcp-wire-codec',
        validate(value: unknown) {
          const outcome = codec.validateResult('tools/call', value);
          if (outcome.ok) return { value: outcome.value };
          return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message : 'not-in-era: tools/call' }] };
        },
      },
    };
    this.callSchema = { codec, schema };
    return schema;
  }

  /** Set by the elicitation feature: asks the person's consent for a URL a call needs first (see callTool). */
  urlElicitation: ((params: ElicitRequestURLParams, signal: AbortSignal | undefined) => Promise<ElicitResult>) | undefined;

  /**
   * Outside a call's context (no call id) the SDK's own promise is handed back, with a `.catch` only where a
   * `-32042` can be answered (no async frame of our own on the hot path); inside one, the call is counted in flight
   * and its options carry the id to its MRTR rounds.
   */
  override callTool(params: CallParams, options?: CallOptions): ReturnType<Client['callTool']> {
    const callId = currentCallId();
    if (callId === undefined) return this.callWithPrerequisites(params, options);
    return this.countedCall(callId, params, options);
  }

  private async countedCall(callId: string, params: CallParams, options: CallOptions | undefined): ReturnType<Client['callTool']> {
    const tagged: NonNullable<CallOptions> & Tagged = { ...options, [callIdKey]: callId };
    this.inFlight.set(callId, (this.inFlight.get(callId) ?? 0) + 1);
    try {
      return await this.callWithPrerequisites(params, tagged);
    } finally {
      const left = (this.inFlight.get(callId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(callId);
      else this.inFlight.set(callId, left);
    }
  }

  /**
   * Notes each outgoing `tools/call` with the call it was made for (the async context's call id) as it is sent: the
   * transport is handed to the SDK inside an observing decorator (one per connection).
   */
  override connect(...args: Parameters<Client['connect']>): Promise<void> {
    const [transport, ...rest] = args;
    const observed = new ObservedTransport(transport, {
      outgoing: (message) => this.stamp(message),
      sent: (message) => {
        const method = (message as { method?: unknown }).method;
        if (method === 'tools/call') this.noteCall((message as JSONRPCRequest).id);
        else if (method === 'notifications/cancelled' && this.openSpans.size > 0) this.spanCancelled(message);
      },
      received: (message) => {
        if (this.openSpans.size > 0) this.spanAnswered(message);
      },
    });
    return super.connect(observed, ...rest);
  }

  /**
   * A request (not a notification, not our answer to the server) gets its `traceparent`, unless its `_meta` already
   * names one (a caller's own wins, as `_meta` keys do over the SDK's envelope). The params and `_meta` are copied:
   * the caller's objects may be sent again (a retry) and must not keep a stale span.
   */
  private stamp(message: JSONRPCMessage): JSONRPCMessage {
    const m = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    if (typeof m.method !== 'string' || (typeof m.id !== 'number' && typeof m.id !== 'string')) return message;
    const params = m.params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (meta !== undefined && meta[TRACEPARENT_META_KEY] !== undefined) return message;
    const span = this.requestSpans?.(m.method, params);
    if (span !== undefined) this.openSpans.set(m.id, span);
    const traceparent = span?.traceparent ?? requestTraceparent();
    return { ...message, params: { ...params, _meta: { ...meta, [TRACEPARENT_META_KEY]: traceparent } } } as JSONRPCMessage;
  }

  private spanAnswered(message: JSONRPCMessage): void {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    if (m.method !== undefined || (typeof m.id !== 'number' && typeof m.id !== 'string')) return;
    const span = this.openSpans.get(m.id);
    if (span === undefined) return;
    this.openSpans.delete(m.id);
    span.end(outcomeOf(m.result, m.error));
  }

  private spanCancelled(message: JSONRPCMessage): void {
    const id = ((message as { params?: { requestId?: unknown } }).params ?? {}).requestId;
    if (typeof id !== 'number' && typeof id !== 'string') return;
    const span = this.openSpans.get(id);
    if (span === undefined) return;
    this.openSpans.delete(id);
    span.end('cancelled');
  }

  private endSpans(outcome: SpanOutcome): void {
    for (const span of this.openSpans.values()) span.end(outcome);
    this.openSpans.clear();
  }

  private noteCall(messageId: number | string): void {
    // Answered calls are swept now and then (the SDK forgets a request's timer when it settles): when the notes have
    // doubled since the last sweep, so that many calls in flight at once cost no more than a few.
    if (this.callMessages.size >= this.sweepAt && this.timeouts) {
      for (const id of this.callMessages.keys()) if (!this.timeouts.pending(id)) this.callMessages.delete(id);
      this.sweepAt = Math.max(256, this.callMessages.size * 2);
    }
    this.callMessages.set(messageId, currentCallId());
  }

  /**
   * Runs `answer` (the host handling a server's request: a person answering, a model running) with the timeouts of
   * the calls waiting on it held: the call `callId` names, or every call in flight here when it names none.
   */
  async holdingCalls<T>(callId: string | undefined, answer: () => Promise<T>): Promise<T> {
    const timeouts = this.timeouts;
    if (!timeouts) return answer();
    const held: (number | string)[] = [];
    for (const [id, forCall] of this.callMessages) {
      if (!timeouts.pending(id)) this.callMessages.delete(id);
      else if (callId === undefined || forCall === callId) held.push(id);
    }
    for (const id of held) timeouts.hold(id);
    try {
      return await answer();
    } finally {
      for (const id of held) timeouts.release(id);
    }
  }

  private callWithPrerequisites(params: CallParams, options: CallOptions | undefined): ReturnType<Client['callTool']> {
    const call = super.callTool(params, options);
    // Without the elicitation feature nobody can answer a -32042: the refusal stands as it is.
    return this.urlElicitation === undefined ? call : call.catch((error: unknown) => this.afterPrerequisites(error, params, options));
  }

  /** A call refused with `-32042`: each URL is put to the person; all accepted, the call is made once more. */
  private async afterPrerequisites(error: unknown, params: CallParams, options: CallOptions | undefined): ReturnType<Client['callTool']> {
    const needed = urlElicitationsOf(error);
    const ask = this.urlElicitation;
    if (!needed || !ask) throw error;
    for (const elicitation of needed) {
      const answer = await ask(elicitation, options?.signal);
      if (answer.action !== 'accept') throw error;
    }
    return await super.callTool(params, options);
  }

  protected override _resolveNonCompleteResult(...args: Parameters<Client['_resolveNonCompleteResult']>): Promise<unknown> {
    const callId = callIdOf(args[1].options);
    return runWithCallId(callId, () => super._resolveNonCompleteResult(...args));
  }

  /**
   * Answers one request a running 2026-07-28 task waits on (an `inputRequests` entry of `tasks/get`, answered with
   * `tasks/update`) through this client's own handler for its method — the same handler, validation and person-facing
   * path as the request sent on its own, run in the call's context so the card it shows is that call's. The SDK's
   * multi-round-trip engine does the same for `input_required` results, but keeps its dispatch internal.
   */
  async answerInputRequest(
    key: string,
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
    callId: string | undefined,
  ): Promise<Result> {
    const handler = this._getRequestHandler(request.method);
    if (handler === undefined)
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `This client does not answer ${request.method} (asked as task input "${key}")`);
    const unavailable = (): never => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `A task's input request ("${key}") has no request of its own to send on`);
    };
    const meta = request.params?._meta;
    const base: BaseContext = {
      ...(this.transport?.sessionId !== undefined ? { sessionId: this.transport.sessionId } : {}),
      mcpReq: {
        id: key,
        method: request.method,
        ...(typeof meta === 'object' && meta !== null ? { _meta: meta as NonNullable<BaseContext['mcpReq']['_meta']> } : {}),
        requestState: () => undefined,
        signal,
        send: unavailable,
        notify: unavailable,
      },
    };
    const message: JSONRPCRequest = { jsonrpc: '2.0', id: key, method: request.method, ...(request.params !== undefined ? { params: request.params } : {}) };
    return runWithCallId(callId, () => handler(message, this.buildContext(base)));
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

/** A response's outcome: an error, a tool's own error result, an `input_required` round, or a result. */
function outcomeOf(result: unknown, error: unknown): SpanOutcome {
  if (error !== undefined) return 'error';
  if (typeof result !== 'object' || result === null) return 'ok';
  const r = result as { isError?: unknown; resultType?: unknown };
  if (r.resultType === 'input_required') return 'input-required';
  return r.isError === true ? 'tool-error' : 'ok';
}

function isStandardSchema(value: StandardSchemaV1 | RequestOptions | undefined): value is StandardSchemaV1 {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

/** Same keys with the same values (by identity): the SDK's envelope is a few keys whose values are its own objects. */
function sameEntries(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  let count = 0;
  for (const key in b) {
    if (a[key] !== b[key]) return false;
    count++;
  }
  for (const _ in a) count--;
  return count === 0;
}

/** setTimeout's largest delay: a held request's timer is set this far off (any reset meanwhile keeps it there). */
const heldTimeoutMs = 2 ** 31 - 1;

/** What of the SDK Protocol's request timers is used here (TS-private in 2.4.0; present at runtime). */
interface ProtocolTimerInternals {
  _timeoutInfo: Map<number | string, { timeout: number; onTimeout: () => void }>;
  _resetTimeout(messageId: number | string): boolean;
}

/**
 * Holds and restarts the SDK's own per-request timers — the one contained seam into the Protocol's internals:
 * checked once at runtime (`of()` answers undefined when a future SDK lays them out otherwise; then nothing is
 * held, and the call-timeout tests fail). A held timer is reset with the longest delay (so a progress notification
 * meanwhile, which resets it too, keeps it there); the last release restores its timeout and starts it afresh.
 */
class SdkTimeouts {
  private readonly holds = new Map<number | string, { count: number; timeout: number }>();

  private constructor(private readonly sdk: ProtocolTimerInternals) {}

  static of(client: Client): SdkTimeouts | undefined {
    const sdk = client as unknown as Partial<ProtocolTimerInternals>;
    return sdk._timeoutInfo instanceof Map && typeof sdk._resetTimeout === 'function' ? new SdkTimeouts(sdk as ProtocolTimerInternals) : undefined;
  }

  /** The request has not settled yet (its timer is still set). */
  pending(messageId: number | string): boolean {
    return this.sdk._timeoutInfo.has(messageId);
  }

  hold(messageId: number | string): void {
    const info = this.sdk._timeoutInfo.get(messageId);
    if (!info) return;
    const held = this.holds.get(messageId);
    if (held) {
      held.count++;
      return;
    }
    this.holds.set(messageId, { count: 1, timeout: info.timeout });
    info.timeout = heldTimeoutMs;
    this.restart(messageId);
  }

  release(messageId: number | string): void {
    const held = this.holds.get(messageId);
    if (!held || --held.count > 0) return;
    this.holds.delete(messageId);
    const info = this.sdk._timeoutInfo.get(messageId);
    if (!info) return;
    info.timeout = held.timeout;
    this.restart(messageId);
  }

  private restart(messageId: number | string): void {
    const info = this.sdk._timeoutInfo.get(messageId);
    try {
      this.sdk._resetTimeout(messageId);
    } catch {
      // Past the request's maxTotalTimeout: it times out now, as the SDK would have on its next reset.
      info?.onTimeout();
    }
  }
}

/** `answer` run with the timeouts of the calls waiting on it held (see McpClient.holdingCalls); any other client: as it is. */
export function holdingCalls<T>(client: Client, callId: string | undefined, answer: () => Promise<T>): Promise<T> {
  return client instanceof McpClient ? client.holdingCalls(callId, answer) : answer();
}
