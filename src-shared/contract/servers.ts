/** Servers and their tools, as the UI sees them (owned by main, pushed to the renderer). Zod-free. */
import type { TransportKind } from '../config-schema';
import type { TaskStatus } from './calls';
import type { LogLevel } from './logging';

/** What a person sees about one configured server. Owned by main, pushed to the renderer. */
export type ServerStatus = 'stopped' | 'starting' | 'ready' | 'error' | 'crash-loop';

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
}

export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

/** What the server said it offers (from `initialize` or `server/discover`). */
export interface ServerCapabilitiesView {
  tools: boolean;
  resources: boolean;
  /** `resources.subscribe`. */
  subscribe: boolean;
  prompts: boolean;
  completions: boolean;
  logging: boolean;
  tasks: boolean;
}

export interface ServerHealth {
  ok: boolean;
  lastPingMs?: number;
  lastPingAt?: number;
  error?: string;
}

export interface ServerView {
  name: string;
  /** The transport in use (for remote servers: the one that answered). */
  transport: TransportKind;
  status: ServerStatus;
  /** Readable reason when status is `error`. */
  error?: string;
  /** Negotiated protocol revision, once ready. */
  protocolVersion?: string;
  era?: 'modern' | 'legacy';
  serverInfo?: { name: string; version: string };
  disabled: boolean;
  tools: ToolInfo[];
  /** `command args…` or the URL. */
  target: string;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail: string[];
  /** What the child receives (stdio only): resolved command, args, cwd, and env *names* with their source. */
  launch?: LaunchInfo;
  /** The running child's pid (stdio only). */
  pid?: number;
  /** Milliseconds from start to ready, for the last start. */
  readyMs?: number;
  /** Automatic restarts since the last manual start. */
  restarts: number;
  /** When an automatic restart is scheduled (epoch ms). */
  nextRestartAt?: number;
  /** This server's stderr log file. */
  logFile?: string;
  /** A `${input:ID}` the user must answer (`secrets:set` with `input.ID`) before the server can start. */
  needsInput?: string;
  /** Once ready: what the server offers. */
  capabilities?: ServerCapabilitiesView;
  /** The server's `instructions` (for a person, and for the model). */
  instructions?: string;
  /** The level asked for with `logging/setLevel` (legacy servers with `logging`). */
  logLevel?: LogLevel;
  health?: ServerHealth;
  /** The sizes of the feature lists, as last loaded. */
  counts?: { resources: number; templates: number; prompts: number };
}

/** One server in a `servers:changed` event: its whole view, except `tools`, which is absent when unchanged. */
export type ServerPatch = Omit<ServerView, 'tools'> & { tools?: ToolInfo[] };

/**
 * What `servers:changed` carries: only the servers whose view changed since the previous event (per server, so
 * a stderr line of one server does not resend every server's tools), the names removed, and the new order of
 * names when it changed. A listener merges it into the list it got from `servers:list` (src-shared/servers-delta.ts).
 */
export interface ServersDelta {
  changed: ServerPatch[];
  removed: string[];
  /** Every server's name in list order; present only when the names or their order changed. */
  order?: string[];
}

export type EnvSource = 'default' | 'allow-list' | 'server-env';
export interface LaunchInfo {
  command: string;
  args: string[];
  cwd: string;
  /** Names only — values are never sent to the UI or printed. */
  env: Array<{ name: string; source: EnvSource }>;
  /** How the server's process tree is held together so that all of it ends with the server (set once it started). */
  containment?: ContainmentInfo;
}

/**
 * `cgroup`: the server runs in a cgroup v2 of its own (`path`), so children that leave its process group or session
 * end with it too. `process-group`: it leads a process group that is ended as one (`reason` says why no cgroup).
 * `taskkill`: Windows, the tree is ended with `taskkill /T`.
 */
export interface ContainmentInfo {
  kind: 'cgroup' | 'process-group' | 'taskkill';
  path?: string;
  reason?: string;
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
}
