import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Result, type Task, type TaskStatus } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** How long a task is kept when the server names no ttl, and the longest it may ask for. */
const defaultTtlMs = 10 * 60 * 1000;
const maxTtlMs = 60 * 60 * 1000;
/** How often the server is told it may poll (`pollInterval`). */
const pollIntervalMs = 1000;

/** The `task` params of a task-augmented request (2025-11-25), when it is one. */
export function taskParamsOf(params: unknown): { ttl?: number } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const task = (params as { task?: unknown }).task;
  if (typeof task !== 'object' || task === null) return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? { ttl } : {};
}

interface Entry {
  task: Task;
  controller: AbortController;
  /** Settles when the work ends: its result, or the error the request would have been answered with. */
  outcome: Promise<{ ok: true; result: Result } | { ok: false; error: unknown }>;
  expiry: ReturnType<typeof setTimeout>;
}

const terminal = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** The params of the server's `tasks/*` requests to the client (zod at the boundary). */
export const taskIdParams = z.object({ taskId: z.string() }).loose();
export const listParams = z.object({ cursor: z.string().optional() }).loose();

/**
 * The client side of 2025-11-25 task-augmented requests: a server that sends `sampling/createMessage` or
 * `elicitation/create` with `task` params gets a task at once (status `working` while the person answers and the
 * model runs), polls `tasks/get`, fetches the answer with `tasks/result` (which waits for it, as the spec has it) and
 * may `tasks/list` and `tasks/cancel` them. Tasks live in memory for this connection only, each until its ttl
 * (the server's, capped at an hour; ten minutes when it names none) has passed since it was created.
 */
export class ClientTaskStore {
  private readonly tasks = new Map<string, Entry>();

  /** Starts `run` as a task; answers the task as created. */
  create(params: { ttl?: number }, run: (signal: AbortSignal) => Promise<Result>): Task {
    const now = new Date().toISOString();
    const ttl = Math.min(params.ttl ?? defaultTtlMs, maxTtlMs);
    const task: Task = { taskId: randomUUID(), status: 'working', ttl, createdAt: now, lastUpdatedAt: now, pollInterval: pollIntervalMs };
    const controller = new AbortController();
    const expiry = setTimeout(() => this.drop(task.taskId), ttl);
    expiry.unref();
    const entry: Entry = {
      task,
      controller,
      expiry,
      outcome: Promise.resolve()
        .then(() => run(controller.signal))
        .then(
          (result) => {
            this.settle(entry, 'completed');
            return { ok: true as const, result };
          },
          (error: unknown) => {
            this.settle(entry, 'failed', error instanceof Error ? error.message : String(error));
            return { ok: false as const, error };
          },
        ),
    };
    this.tasks.set(task.taskId, entry);
    return { ...task };
  }

  /** `tasks/get`. */
  get(taskId: string): Task {
    return { ...this.entry(taskId).task };
  }

  /** `tasks/result`: waits for the work to end; its result (related to the task), or its error thrown. */
  async result(taskId: string): Promise<Result> {
    const entry = this.entry(taskId);
    const outcome = await entry.outcome;
    if (entry.task.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Task ${taskId} was cancelled`);
    if (!outcome.ok) throw outcome.error;
    const meta = (outcome.result._meta ?? {}) as Record<string, unknown>;
    return { ...outcome.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  /** `tasks/list`: every task of this connection (one page). */
  list(): { tasks: Task[] } {
    return { tasks: [...this.tasks.values()].map((e) => ({ ...e.task })) };
  }

  /** `tasks/cancel`: stops the work (the person's card is withdrawn); a task already ended cannot be. */
  cancel(taskId: string): Task {
    const entry = this.entry(taskId);
    if (terminal.has(entry.task.status))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it is already ${entry.task.status}`);
    this.settle(entry, 'cancelled', 'cancelled by the server');
    entry.controller.abort(new Error('the server cancelled the task'));
    return { ...entry.task };
  }

  /** The connection ended: every task's work stops and the tasks are forgotten. */
  clear(): void {
    for (const id of [...this.tasks.keys()]) this.drop(id);
  }

  private entry(taskId: string): Entry {
    const entry = this.tasks.get(taskId);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
    return entry;
  }

  private settle(entry: Entry, status: TaskStatus, statusMessage?: string): void {
    if (terminal.has(entry.task.status)) return;
    entry.task = { ...entry.task, status, lastUpdatedAt: new Date().toISOString(), ...(statusMessage !== undefined ? { statusMessage } : {}) };
  }

  private drop(taskId: string): void {
    const entry = this.tasks.get(taskId);
    if (!entry) return;
    clearTimeout(entry.expiry);
    if (!terminal.has(entry.task.status)) entry.controller.abort(new Error('the task expired'));
    this.tasks.delete(taskId);
  }
}
