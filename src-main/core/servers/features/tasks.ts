import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { InputRequestsV2Schema, InputResponsesV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { z } from 'zod';
import type { TaskStatus, ToolInfo } from '../../../../src-shared/host-api';
import { CoreError, messageOf } from '../../errors';
import { McpClient } from '../mcp-client';
import type { ConnectedInfo, FeatureContext, SessionFeature } from './feature';

/*
 * Task-augmented tool calls (`io.modelcontextprotocol/tasks`): create the task, poll `tasks/get` (at the server's
 * poll interval, or sooner when a `notifications/tasks/status` arrives), push each status change as a
 * `calls:progress` event, cancel with `tasks/cancel` when the call's signal aborts, and deliver the final
 * CallToolResult.
 *
 * 2025-11-25 (the `initialize` era): `tools/call` with `params.task {ttl}` answers `{task}`; the result comes from
 * `tasks/result` once the task is terminal.
 * 2026-07-28: the client declares the extension in its capabilities (so every request's envelope carries it); the
 * server then decides which calls run as tasks (a `required` tool always, an `optional` one as it likes) and
 * answers `{resultType: "task", taskId, …}`; `tasks/get` inlines the result (or error). SDK 2.4.0's Client rejects
 * a `task` result type before any schema sees it, so such answers are rewritten below the Client, on the
 * transport's inbound path, into a complete result carrying the task under `_meta["switchboard/task"]` (the trace
 * still records the wire message as sent). Any tools/call answered with a task continues as one.
 *
 * A 2026-07-28 task that reports `input_required` carries `inputRequests` in `tasks/get` (elicitation, sampling, roots
 * requests by key): each key not answered before is put through the client's own handler for its method (the same
 * form or sampling approval a direct request gets, on the call's card), and the answers go back in one
 * `tasks/update {taskId, inputResponses}`; both sides are checked against @modelcontextprotocol/ext-tasks' schemas.
 * A request the person refuses outright (a rejected sampling) or a shape the extension does not allow ends the call:
 * the task is cancelled. Declining or cancelling a form is an answer like any other (the server decides what follows).
 * (2025-11-25 tasks ask with ordinary server requests, which the features answer as they come.)
 *
 * A cancelled call (its signal aborted) sends `tasks/cancel` and rejects with CoreError `cancelled` (data: taskId,
 * status). A task the server ends as `failed` or `cancelled` rejects with `tool-call-failed`.
 */

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a bridged 2026-07-28 task handle travels inside the rewritten result. */
export const BRIDGED_TASK_KEY = 'switchboard/task';
/** How long a finished task's result is kept by the server (2025-11-25 `ttl`). */
const taskTtlMs = 30 * 60_000;
/** Poll interval bounds (the server's `pollInterval` is respected within them). */
const minPollMs = 20;
const maxPollMs = 5000;
/** `tasks/cancel` on a cancelled call waits at most this long for the server's ack. */
const cancelWaitMs = 5000;

const taskStatus = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const taskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: taskStatus,
  statusMessage: z.string().optional(),
  pollInterval: z.number().optional(),
  pollIntervalMs: z.number().optional(),
  result: z.unknown().optional(),
  inputRequests: z.unknown().optional(),
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
type TaskState = z.infer<typeof taskSchema>;
const anyResult = z.looseObject({});
const terminal: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface TaskCallOptions {
  callId?: string;
  signal?: AbortSignal;
  timeoutMs: number;
}

/** What a task-augmented call ended with: the final CallToolResult (raw) and the task's last state. */
export interface TaskOutcome {
  raw: Record<string, unknown>;
  task?: { taskId: string; status: TaskStatus };
}

/** The task handle a tools/call answer carries: 2025-11-25 `{task}`, or a bridged 2026-07-28 one. */
export function taskHandleOf(raw: Record<string, unknown>): TaskState | undefined {
  return bridgedTaskOf(raw) ?? parseTask(raw.task);
}

/** A 2026-07-28 task handle, rewritten by the bridge into `_meta["switchboard/task"]`. */
export function bridgedTaskOf(raw: Record<string, unknown>): TaskState | undefined {
  const meta = raw._meta;
  return typeof meta === 'object' && meta !== null ? parseTask((meta as Record<string, unknown>)[BRIDGED_TASK_KEY]) : undefined;
}

function parseTask(value: unknown): TaskState | undefined {
  // Most answers carry no task: no parse (a failed one builds a ZodError).
  if (typeof value !== 'object' || value === null) return undefined;
  const parsed = taskSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export class TasksFeature implements SessionFeature {
  readonly name = 'tasks' as const;
  /** taskId → wake its poll loop (a `notifications/tasks/status` arrived, or the session ended). */
  private readonly waiting = new Map<string, (update?: TaskState) => void>();
  private readonly bridged = new WeakMap<Transport, unknown>();
  /** Aborted when the session ends: a task's input still being answered is withdrawn. */
  private session = new AbortController();

  constructor(private readonly context: FeatureContext) {}

  attach(client: Client): void {
    client.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
    // 2025-11-25 servers may push status changes; the poll loop takes them at once.
    client.setNotificationHandler('notifications/tasks/status', { params: taskSchema }, (task) => this.waiting.get(task.taskId)?.(task));
  }

  /** The SDK set its transport handler in connect: the task-result bridge goes in front of it (2026-07-28). */
  connected(info: ConnectedInfo): void {
    if (info.era === 'modern') this.bridge(info.client);
  }

  disconnected(): void {
    this.session.abort();
    this.session = new AbortController();
    for (const wake of [...this.waiting.values()]) wake();
  }

  /** Runs `tool` as a task and delivers its result; a server that answers at once (no task) is taken as it is. */
  async call(info: ToolInfo, args: Record<string, unknown>, options: TaskCallOptions): Promise<TaskOutcome> {
    const client = this.requireClient(info.name);
    const modern = client.getProtocolEra() === 'modern';
    if (modern) this.bridge(client);
    // 2026-07-28: the declared extension is the request for a task; 2025-11-25: `params.task`.
    const params = modern ? { name: info.name, arguments: args } : { name: info.name, arguments: args, task: { ttl: taskTtlMs } };
    const created = await client.request({ method: 'tools/call', params }, anyResult, this.requestOptions(options));
    const handle = taskHandleOf(created);
    if (!handle) return { raw: created };
    return this.follow(info.name, handle, options);
  }

  /** Follows a created task to its end (also used for a tools/call answered with a task unasked). */
  async follow(tool: string, created: TaskState, options: TaskCallOptions): Promise<TaskOutcome> {
    const client = this.requireClient(tool);
    const modern = client.getProtocolEra() === 'modern';
    const { taskId } = created;
    let state = created;
    let shown: string | undefined;
    const show = (): void => {
      const key = `${state.status}\u0000${state.statusMessage ?? ''}`;
      if (key === shown || options.callId === undefined) return;
      shown = key;
      this.context.emit('calls:progress', {
        callId: options.callId,
        server: this.context.server,
        tool,
        task: { taskId, status: state.status, ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : {}) },
      });
    };
    const data = { server: this.context.server, tool, taskId };
    /** The inputRequests keys answered already: a request still listed on the next poll is not asked twice. */
    const answered = new Set<string>();
    try {
      show();
      while (!terminal.has(state.status)) {
        if (modern && state.status === 'input_required' && (await this.answerInput(client, tool, state, answered, options))) {
          if (options.signal?.aborted) break;
          state = await this.get(client, taskId, options);
          show();
          continue;
        }
        const pushed = await this.pause(taskId, pollMs(state), options.signal);
        if (options.signal?.aborted) break;
        if (this.context.client() !== client)
          throw new CoreError('server-not-ready', `Server "${this.context.server}" disconnected while task ${taskId} (${tool}) was running.`, { data });
        state = pushed ?? (await this.get(client, taskId, options));
        show();
      }
      if (options.signal?.aborted) {
        await this.cancel(client, taskId, options.timeoutMs);
        state = { ...state, status: 'cancelled', statusMessage: 'Cancelled by the user' };
        show();
        throw new CoreError('cancelled', `Cancelled ${this.context.server}/${tool} (task ${taskId}).`, { data: { ...data, status: 'cancelled' } });
      }
      const final = { taskId, status: state.status };
      if (state.status === 'completed') {
        const raw = modern
          ? anyResult.parse(state.result ?? (await this.get(client, taskId, options)).result ?? {})
          : await this.result(client, taskId, options);
        return { raw, task: final };
      }
      if (state.status === 'cancelled') {
        throw new CoreError(
          'tool-call-failed',
          `${this.context.server}/${tool}: the server cancelled task ${taskId}${state.statusMessage ? ` (${state.statusMessage})` : ''}.`,
          { data: { ...data, status: 'cancelled' } },
        );
      }
      // failed: the error is inlined (2026-07-28) or comes from tasks/result (2025-11-25).
      let reason = state.error?.message ?? state.statusMessage;
      if (!modern)
        reason = await this.result(client, taskId, options).then(
          () => reason,
          (error: unknown) => messageOf(error),
        );
      throw new CoreError('tool-call-failed', `Calling ${this.context.server}/${tool} failed: task ${taskId} ended failed${reason ? `: ${reason}` : ''}.`, {
        data: { ...data, status: 'failed' },
      });
    } finally {
      this.waiting.delete(taskId);
    }
  }

  /**
   * Answers the task's `inputRequests` not answered yet with one `tasks/update`; false when there was nothing new to
   * answer (the loop then polls as usual). An abort of the call returns (the loop cancels the task).
   */
  private async answerInput(client: Client, tool: string, state: TaskState, answered: Set<string>, options: TaskCallOptions): Promise<boolean> {
    const { server } = this.context;
    const { taskId } = state;
    const data = { server, tool, taskId };
    const fail = async (why: string): Promise<never> => {
      await this.cancel(client, taskId, options.timeoutMs);
      throw new CoreError('tool-call-failed', `${server}/${tool}: task ${taskId} ${why}; the task was cancelled.`, { data: { ...data, status: 'cancelled' } });
    };
    const requests = InputRequestsV2Schema.safeParse(state.inputRequests ?? {});
    if (!requests.success)
      return fail(
        `asks for input in a shape the tasks extension does not allow (${z.prettifyError(requests.error)}); the server should send elicitation/create, sampling/createMessage or roots/list requests in inputRequests`,
      );
    const pending = Object.entries(requests.data).filter(([key]) => !answered.has(key));
    if (pending.length === 0) return false;
    if (!(client instanceof McpClient)) return fail('asks for input, which this connection cannot answer');
    const signal = AbortSignal.any([this.session.signal, ...(options.signal ? [options.signal] : [])]);
    let responses: Record<string, unknown>;
    try {
      const answers = await Promise.all(
        pending.map(async ([key, request]) => {
          const params = request.params as Record<string, unknown> | undefined;
          const answer = await client.answerInputRequest(key, { method: request.method, ...(params !== undefined ? { params } : {}) }, signal, options.callId);
          return [key, answer] as const;
        }),
      );
      responses = Object.fromEntries(answers);
    } catch (error) {
      if (options.signal?.aborted) return true;
      if (this.session.signal.aborted)
        throw new CoreError('server-not-ready', `Server "${server}" disconnected while task ${taskId} (${tool}) was waiting for input.`, { data });
      const asked = pending.map(([, request]) => request.method).join(', ');
      return fail(`asked for input (${asked}) that was not given: ${messageOf(error)}`);
    }
    // A call cancelled while its input was being answered: the loop cancels the task; nothing more is sent.
    if (options.signal?.aborted) return true;
    const checked = InputResponsesV2Schema.safeParse(responses);
    if (!checked.success) return fail(`got answers the tasks extension does not allow (${z.prettifyError(checked.error)})`);
    for (const [key] of pending) answered.add(key);
    await client.request({ method: 'tasks/update', params: { taskId, inputResponses: responses } }, anyResult, { timeout: options.timeoutMs });
    return true;
  }

  dispose(): void {
    this.disconnected();
    this.waiting.clear();
  }

  private requireClient(tool: string): Client {
    const client = this.context.client();
    if (!client)
      throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; it cannot run "${tool}" now.`, {
        data: { server: this.context.server, tool },
      });
    return client;
  }

  private requestOptions(options: TaskCallOptions): { timeout: number; signal?: AbortSignal } {
    return { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  }

  private async get(client: Client, taskId: string, options: TaskCallOptions): Promise<TaskState> {
    // Not cancelled by the call's signal: an abort ends the loop, which then cancels the task.
    return client.request({ method: 'tasks/get', params: { taskId } }, taskSchema, { timeout: options.timeoutMs });
  }

  private async result(client: Client, taskId: string, options: TaskCallOptions): Promise<Record<string, unknown>> {
    return client.request({ method: 'tasks/result', params: { taskId } }, anyResult, this.requestOptions(options));
  }

  private async cancel(client: Client, taskId: string, timeoutMs: number): Promise<void> {
    // Best effort, and quiet: a task that just ended refuses (2025-11-25), a gone server does not answer; the
    // call is cancelled either way (and the request and its answer are in the protocol trace).
    await client.request({ method: 'tasks/cancel', params: { taskId } }, anyResult, { timeout: Math.min(timeoutMs, cancelWaitMs) }).catch(() => undefined);
  }

  /** Waits `ms`, or until a status notification for the task, an abort or the end of the session. */
  private pause(taskId: string, ms: number, signal: AbortSignal | undefined): Promise<TaskState | undefined> {
    return new Promise((resolve) => {
      const done = (update?: TaskState): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (this.waiting.get(taskId) === done) this.waiting.delete(taskId);
        resolve(update);
      };
      const onAbort = (): void => done();
      const timer = setTimeout(done, ms);
      if (signal?.aborted) return done();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(taskId, done);
    });
  }

  /**
   * Rewrites `{resultType: "task", …}` answers on this client's transport into complete results carrying the task
   * under `_meta["switchboard/task"]`, before the SDK's result decoding (which would reject them). Installed once
   * per transport, after connect (the SDK sets its own handler in connect).
   */
  private bridge(client: Client): void {
    const transport = client.transport;
    if (!transport) return;
    const current = transport.onmessage;
    if (!current || this.bridged.get(transport) === current) return;
    const rewriting = (message: JSONRPCMessage, extra?: unknown): void => {
      const result = 'result' in message ? (message.result as Record<string, unknown> | undefined) : undefined;
      if (result?.resultType === 'task') {
        const { resultType: _task, ...task } = result;
        message = { ...message, result: { resultType: 'complete', content: [], _meta: { [BRIDGED_TASK_KEY]: task } } } as JSONRPCMessage;
      }
      (current as (message: JSONRPCMessage, extra?: unknown) => void).call(transport, message, extra);
    };
    transport.onmessage = rewriting as Transport['onmessage'];
    this.bridged.set(transport, rewriting);
  }
}

function pollMs(state: TaskState): number {
  const asked = state.pollIntervalMs ?? state.pollInterval ?? 500;
  return Math.min(maxPollMs, Math.max(minPollMs, asked));
}
