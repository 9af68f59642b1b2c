import type { ToolResult } from '../../../../src-shared/host-api';
import { notSupported } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

/** Task-augmented tool calls (`io.modelcontextprotocol/tasks`: create, `tasks/get` polling, cancel). Registration point. */
export class TasksFeature implements SessionFeature {
  readonly name = 'tasks' as const;

  constructor(private readonly context: FeatureContext) {}

  /** Runs a tool as a task and delivers its result. */
  call(tool: string, _args: Record<string, unknown>, _options: { callId: string; signal?: AbortSignal; timeoutMs: number }): Promise<ToolResult> {
    throw notSupported(`tools:call as a task (${tool})`, this.context.server);
  }

  dispose(): void {}
}
