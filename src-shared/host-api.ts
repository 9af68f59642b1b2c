import type { z } from 'zod';
import type { ServerEntry, TransportKind } from './config-schema';
import type { callToolRequestSchema, hostChannels } from './host-schemas';
import type {
  AuditEntry,
  ChatEvent,
  ChatSendResult,
  ChatSettingsView,
  Conversation,
  ConversationSummary,
  ProvidersView,
} from './chat-types';
import type { CallProgressEvent, TaskStatus } from './contract/calls';
import type { DebugBundleView, LogEntry, LogLevel, LogsAppendedEvent, PingView, TraceEntry } from './contract/logging';
import type { CompletionView, GetPromptView, PromptListView } from './contract/prompts';
import type { ReadResourceView, ResourceListView, ResourceUpdatedEvent } from './contract/resources';

export type * from './contract/calls';
export type * from './contract/logging';
export type * from './contract/prompts';
export type * from './contract/resources';
export { logLevels } from './contract/logging';

/*
 * The contract, zod-free at runtime: the renderer and the sandboxed preload import this file directly (zod
 * would probe `new Function` under the page's CSP, and a sandboxed preload cannot load it). The argument
 * schemas main parses with live in ./host-schemas.ts; their types are imported here, so both stay one contract.
 */

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

export interface AppInfo {
  version: string;
  mode: 'electron' | 'headless';
  configPath: string;
  logsDir: string;
  /** The config file's problem, if the last read failed (the app keeps the last good config). */
  configError?: HostError;
  /** The same problem, located (for the banner and the editor). */
  configProblem?: ConfigProblem;
  /** Where `${secret:…}` values are kept, and a caveat to show if it is not the OS keychain. */
  secrets: { backing: 'keychain' | 'file' | 'memory'; warning?: string };
}

/** A config file problem at a place in the file. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  /** What is wrong, without the location prefix. */
  message: string;
}

/** The config file as text, for the raw editor. */
export interface ConfigText {
  path: string;
  text: string;
  /** Pass back to `config:save`: a save is refused if the file changed on disk since. */
  hash: string;
  problem?: ConfigProblem;
  backupPath: string;
}

export interface ImportCandidateView {
  name: string;
  entry: ServerEntry;
  status: 'new' | 'same' | 'conflict';
  secretKeys: string[];
  invalid?: string;
}
export interface ImportPreviewView {
  source: string;
  file: string;
  servers: ImportCandidateView[];
}
export interface ImportResultView {
  added: string[];
  replaced: string[];
  skipped: Array<{ name: string; reason: string }>;
  secretsStored: string[];
}

/** The error shape that crosses the boundary: something a person can act on. */
export interface HostError {
  code: HostErrorCode;
  message: string;
  /**
   * Structured facts about the failure, for the UI to use instead of parsing `message`: e.g. `{ server, tool }`,
   * `{ file, line, column }`, `{ exitCode, signal }`. JSON values only (it crosses IPC and the bridge).
   */
  data?: Record<string, unknown>;
}
export type HostErrorCode =
  | 'invalid-argument'
  | 'unknown-server'
  | 'unknown-tool'
  | 'server-not-ready'
  | 'tool-call-failed'
  | 'cancelled'
  | 'config-invalid'
  /** The LLM provider failed (key rejected, rate limit, connection lost): the message says which and what to do. */
  | 'provider-error'
  /** Nothing to chat with yet (no provider configured): the message says how to add one. */
  | 'not-configured'
  /** The server (or this build of Switchboard) does not offer that feature; the message says which. */
  | 'not-supported'
  | 'internal';
const errorCodeFlags = {
  'invalid-argument': true,
  'unknown-server': true,
  'unknown-tool': true,
  'server-not-ready': true,
  'tool-call-failed': true,
  cancelled: true,
  'config-invalid': true,
  'provider-error': true,
  'not-configured': true,
  'not-supported': true,
  internal: true,
} as const satisfies Record<HostErrorCode, true>;
export function isHostErrorCode(code: unknown): code is HostErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCodeFlags, code);
}

export type CallToolRequest = z.input<typeof callToolRequestSchema>;

export type HostChannel = keyof typeof hostChannels;

/** Every channel once; a channel added to the schemas is a compile error here until listed. */
const channelFlags = {
  'app:info': true,
  'servers:list': true,
  'servers:restart': true,
  'tools:call': true,
  'tools:cancel': true,
  'config:read': true,
  'config:save': true,
  'servers:upsert': true,
  'servers:remove': true,
  'servers:set-enabled': true,
  'config:export': true,
  'config:import-preview': true,
  'config:import-apply': true,
  'secrets:list': true,
  'secrets:set': true,
  'secrets:delete': true,
  'shell:open': true,
  'chat:send': true,
  'chat:stop': true,
  'chat:approve': true,
  'chat:list': true,
  'chat:get': true,
  'chat:rename': true,
  'chat:delete': true,
  'chat:settings': true,
  'chat:update-settings': true,
  'chat:fetch-image': true,
  'providers:list': true,
  'providers:configure': true,
  'providers:models': true,
  'audit:list': true,
  'resources:list': true,
  'resources:read': true,
  'resources:subscribe': true,
  'resources:unsubscribe': true,
  'prompts:list': true,
  'prompts:get': true,
  'completion:complete': true,
  'logs:list': true,
  'logs:set-level': true,
  'servers:ping': true,
  'trace:list': true,
  'trace:clear': true,
  'debug:bundle': true,
} as const satisfies Record<HostChannel, true>;
export const hostChannelNames = Object.keys(channelFlags) as HostChannel[];

export interface HostResults {
  'app:info': AppInfo;
  'servers:list': ServerView[];
  'servers:restart': void;
  'tools:call': ToolResult;
  /** Whether a call with that id was in flight. */
  'tools:cancel': boolean;
  'config:read': ConfigText;
  'config:save': ConfigText;
  'servers:upsert': void;
  'servers:remove': void;
  'servers:set-enabled': void;
  /** Claude-compatible JSON text. */
  'config:export': string;
  'config:import-preview': ImportPreviewView;
  'config:import-apply': ImportResultView;
  /** Secret names only: values never leave main. */
  'secrets:list': string[];
  'secrets:set': void;
  'secrets:delete': boolean;
  /** Opened in the OS (desktop), or not possible here (headless): the path to show either way. */
  'shell:open': { opened: boolean; path: string };
  /** Starts a turn; its tokens, tool cards and approvals arrive as `chat:event`. */
  'chat:send': ChatSendResult;
  /** Whether a turn (by run or conversation id) was running. */
  'chat:stop': boolean;
  /** Whether a call was waiting for that decision. */
  'chat:approve': boolean;
  'chat:list': ConversationSummary[];
  'chat:get': Conversation;
  'chat:rename': void;
  'chat:delete': boolean;
  'chat:settings': ChatSettingsView;
  'chat:update-settings': ChatSettingsView;
  /** A remote image the user chose to load, fetched by main (the page's CSP allows only data: images). */
  'chat:fetch-image': { dataUrl: string };
  'providers:list': ProvidersView;
  'providers:configure': ProvidersView;
  /** Model ids the provider lists (its `/models`), or its suggestions. */
  'providers:models': string[];
  /** The newest entries first. */
  'audit:list': AuditEntry[];
  /** Every page loaded; templates too; `error` when loading failed. */
  'resources:list': ResourceListView;
  'resources:read': ReadResourceView;
  'resources:subscribe': void;
  'resources:unsubscribe': void;
  'prompts:list': PromptListView;
  'prompts:get': GetPromptView;
  'completion:complete': CompletionView;
  /** Oldest first; the entries with `seq` > `after`. */
  'logs:list': LogEntry[];
  'logs:set-level': void;
  'servers:ping': PingView;
  'trace:list': TraceEntry[];
  'trace:clear': void;
  /** A JSON file written under `<dataDir>/debug/`. */
  'debug:bundle': DebugBundleView;
}

export type HostArgs<C extends HostChannel> = z.input<(typeof hostChannels)[C]>;

/** One method per channel. Implemented by core (`createHost`), the preload and the headless WebSocket client. */
export type HostMethods = { [C in HostChannel]: (...args: HostArgs<C>) => Promise<HostResults[C]> };

/** Events main pushes to every renderer. */
export interface HostEvents {
  /** What changed since the previous `servers:changed` (fetch `servers:list` first, then merge each). */
  'servers:changed': ServersDelta;
  'app:changed': AppInfo;
  /** The config file changed on disk (by anyone): the editor can offer to reload. */
  'config:changed': ConfigText;
  /** The chat's tool loop: tokens, tool cards, approvals, turn ends, list changes. */
  'chat:event': ChatEvent;
  /** That server's list was reloaded (connect, list_changed, disconnect): the UI fetches it again. */
  'features:changed': FeaturesChangedEvent;
  'resources:updated': ResourceUpdatedEvent;
  /** Batched: at most one per server per 100 ms. */
  'logs:appended': LogsAppendedEvent;
  /** Coalesced: at most one per server per 200 ms. */
  'trace:appended': TraceAppendedEvent;
  'calls:progress': CallProgressEvent;
}
export interface FeaturesChangedEvent {
  server: string;
  feature: 'resources' | 'prompts';
}
export interface TraceAppendedEvent {
  server: string;
  lastSeq: number;
}
export type HostEventName = keyof HostEvents;
const eventFlags = {
  'servers:changed': true,
  'app:changed': true,
  'config:changed': true,
  'chat:event': true,
  'features:changed': true,
  'resources:updated': true,
  'logs:appended': true,
  'trace:appended': true,
  'calls:progress': true,
} as const satisfies Record<HostEventName, true>;
export const hostEventNames = Object.keys(eventFlags) as HostEventName[];
export function isHostEventName(name: unknown): name is HostEventName {
  return typeof name === 'string' && Object.hasOwn(eventFlags, name);
}

export type Unsubscribe = () => void;
export interface HostApi extends HostMethods {
  on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): Unsubscribe;
}

/** What travels back over IPC / the bridge: errors as data, so their code and message survive. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: HostError };

/** Thrown on the renderer side when a call fails; carries the HostError. */
export class HostCallError extends Error {
  readonly code: HostErrorCode;
  /** The HostError's structured facts (use these, not the message text). */
  readonly data: Record<string, unknown> | undefined;
  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
    this.data = error.data;
  }
}

export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.value;
  throw new HostCallError(envelope.error);
}

/** Headless bridge wire format (JSON over WebSocket). */
export type BridgeRequest = { id: number; channel: string; args: unknown[] };
export type BridgeMessage =
  | { kind: 'response'; id: number; envelope: Envelope<unknown> }
  | { kind: 'event'; event: HostEventName; payload: unknown };

/** The global the preload exposes in Electron. */
export const preloadGlobalName = 'switchboard';
