import type { HostError } from '../errors';
import type { ToolApp } from './apps';
import type { ToolReview } from './trust';

/** A server's tools, calling one, its result, and a running call's progress and task state. Zod-free. */

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

export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** JSON Schema of the tool's `structuredContent`, when it declares one. */
  outputSchema?: Record<string, unknown>;
  icons?: ToolIcon[];
  /** `taskSupport`: whether the tool runs as a task (`required`: only as one). */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  /** Pinned-definition review: absent where nothing pins tools (then it counts as trusted). */
  review?: ToolReview;
  /** The tool's `_meta` as listed (MCP Apps read `ui`: `resourceUri`, `visibility`). */
  _meta?: Record<string, unknown>;
  /** MCP Apps: the UI resource `_meta.ui.resourceUri` names, as read and checked when the tool was listed. */
  app?: ToolApp;
}

export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name: string; description?: string; mimeType?: string };

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** `structuredContent` does not validate against the tool's `outputSchema`: shown, not thrown. */
  outputSchemaError?: string;
  /** The final state of a task-augmented call. */
  task?: { taskId: string; status: TaskStatus };
  /** The result's `_meta`, as the server sent it (for an app's `tool-result`; not given to the model). */
  _meta?: Record<string, unknown>;
}

/** Where a call the host runs is: still running, answered (`ok`, or `error` for a tool error or a failure), or cancelled. */
export type HostCallState = 'running' | 'ok' | 'error' | 'cancelled';

/**
 * A tool call with a `callId` as the host holds it: it belongs to the host, not to the window that started it, so a
 * window that connects later (a reload, a second tab) sees it running and then its real result.
 */
export interface CallView {
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  state: HostCallState;
  /** Epoch ms. */
  startedAt: number;
  finishedAt?: number;
  /** The latest `calls:progress` of a running call (progress, message, task status). */
  progress?: Omit<CallProgressEvent, 'callId' | 'server' | 'tool'>;
  /** The tool's answer (also for `isError: true`). */
  result?: ToolResult;
  /**
   * The tool answered, but the host no longer holds the result: it keeps only the newest finished calls' results,
   * up to MAX_KEPT_RESULT_BYTES in all, for windows that connect later. `calls:changed` always carries the result.
   */
  resultNotKept?: true;
  /** The call failed (or was cancelled) before the tool answered. */
  failure?: HostError;
}

export interface ToolsResults {
  'tools:call': ToolResult;
  /** Whether a call with that id was in flight. */
  'tools:cancel': boolean;
  /** The calls running now and the most recently finished ones (a bounded number, results within a byte budget), oldest first. */
  'calls:list': CallView[];
}

export interface ToolsEvents {
  'calls:progress': CallProgressEvent;
  /** A call with a `callId` started or finished: the call as it is now. */
  'calls:changed': CallView;
}

/** Each tools channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const toolsChannelNames = { 'tools:call': true, 'tools:cancel': true, 'calls:list': true } as const satisfies Record<keyof ToolsResults, true>;
export const toolsEventNames = { 'calls:progress': true, 'calls:changed': true } as const satisfies Record<keyof ToolsEvents, true>;
