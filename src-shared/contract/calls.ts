/** A running tool call's progress and task state, pushed while it runs. Zod-free. */

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface CallProgressEvent {
  /** The `callId` given to `tools:call` (or the chat's tool call id). */
  callId: string;
  server: string;
  tool: string;
  /** From `notifications/progress`. */
  progress?: number;
  total?: number;
  message?: string;
  /** For a task-augmented call (`io.modelcontextprotocol/tasks`). */
  task?: { taskId: string; status: TaskStatus; statusMessage?: string };
}
