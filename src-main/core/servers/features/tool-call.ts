import type { ToolInfo, ToolResult } from '../../../../src-shared/host-api';
import { outputSchemaError } from './output-schema';
import { bridgedTaskOf, type TaskOutcome, type TasksFeature } from './tasks';
import { normalizeResult, type ToolsFeature } from './tools';

export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Keys the call's `calls:progress` events (progress and task status); without one none are sent. */
  callId?: string;
  /** Run as a task where the tool allows it (`execution.taskSupport` optional); `required` tools always are. */
  task?: boolean;
  /** Asked by the tool's own app (its visibility was checked): a tool only for its app is not refused. */
  fromApp?: boolean;
}

/** Whether a call of `tool` is sent task-augmented. */
export function runsAsTask(tool: ToolInfo, wanted: boolean | undefined): boolean {
  const support = tool.execution?.taskSupport;
  return support === 'required' || (support === 'optional' && wanted === true);
}

/**
 * One tool call, the way `tools:call` and the chat's tool loop make it: the tool is looked up (one that a
 * `list_changed` just added included), run inline or as a task, its progress and task status pushed as
 * `calls:progress`, and its `structuredContent` checked against the tool's outputSchema (a mismatch is kept as
 * `outputSchemaError`, not thrown). SDK errors are rethrown as they are (the supervisor explains them).
 */
export function callTool(
  features: { tools: ToolsFeature; tasks: TasksFeature },
  tool: string,
  args: Record<string, unknown>,
  options: ToolCallOptions,
  timeoutMs: number,
): Promise<ToolResult> {
  // One small object per call, no spreads (under load every allocation on this path shows up as GC time).
  const taskOptions: { timeoutMs: number; callId?: string; signal?: AbortSignal } = { timeoutMs };
  if (options.callId !== undefined) taskOptions.callId = options.callId;
  if (options.signal) taskOptions.signal = options.signal;
  // The common case — a listed, trusted tool run inline — takes no async step of its own before the request goes.
  const listed = features.tools.listed(tool, options.fromApp === true);
  if (listed === undefined || runsAsTask(listed, options.task)) return resolvedCall(features, tool, args, options, taskOptions);
  return features.tools.call(listed, args, taskOptions).then((raw) => inlineOutcome(features, tool, listed, raw, taskOptions));
}

type TaskOptions = { timeoutMs: number; callId?: string; signal?: AbortSignal };

/** The tool looked up the long way (a re-list settled first; trust rechecked; the reason it cannot run thrown). */
async function resolvedCall(
  features: { tools: ToolsFeature; tasks: TasksFeature },
  tool: string,
  args: Record<string, unknown>,
  options: ToolCallOptions,
  taskOptions: TaskOptions,
): Promise<ToolResult> {
  const info = await features.tools.resolve(tool, options.fromApp === true);
  if (runsAsTask(info, options.task)) return finish(info, await features.tasks.call(info, args, taskOptions));
  return inlineOutcome(features, tool, info, await features.tools.call(info, args, taskOptions), taskOptions);
}

function inlineOutcome(
  features: { tasks: TasksFeature },
  tool: string,
  info: ToolInfo,
  raw: Record<string, unknown>,
  taskOptions: TaskOptions,
): ToolResult | Promise<ToolResult> {
  // A 2026-07-28 server may run an optional-task tool as a task unasked (the client declares the extension).
  const handle = bridgedTaskOf(raw);
  if (handle) return features.tasks.follow(tool, handle, taskOptions).then((outcome) => finish(info, outcome));
  return finish(info, { raw });
}

/** The result as the UI shows it: normalized, its structuredContent checked against the tool's outputSchema. */
function finish(info: ToolInfo, outcome: TaskOutcome): ToolResult {
  const result = normalizeResult(outcome.raw);
  const mismatch = outputSchemaError(info, result);
  if (mismatch !== undefined) result.outputSchemaError = mismatch;
  if (outcome.task) result.task = outcome.task;
  return result;
}
