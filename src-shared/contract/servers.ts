/** The configured servers, their status and health, as the UI sees them (owned by main, pushed to the renderer). Zod-free. */
import type { TransportKind } from '../schemas/config';
import type { AuthView } from './auth';
import type { ConsentView } from './consent';
import type { LogLevel } from './logging';
import type { ToolInfo } from './tools';

/**
 * Where a server is in its life. `needs-approval`: a stdio entry the person has not approved yet (SEP-1024); it
 * starts once approved (`servers:approve`). `needs-login`: a remote server that asks for OAuth sign-in (not an
 * error): `auth` says where and for which scopes.
 */
export type ServerStatus = 'stopped' | 'starting' | 'ready' | 'error' | 'crash-loop' | 'needs-approval' | 'needs-login';

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
  /** The Skills extension (`io.modelcontextprotocol/skills`). */
  skills?: boolean;
}

/** A StatusReason's facts: JSON scalars and string lists (what a translation's placeholders are filled from). */
export type StatusReasonData = Record<string, string | number | boolean | null | string[]>;

/**
 * Why a server is in its status, as a stable code and data beside the English `error` text, so the UI words it in
 * the person's language (`reasons.<code>` in the catalogues, or `errors.<code>` for a HostError code), falling back
 * to the English text for a code it does not know. `lines`: the server's own last stderr lines the text quotes.
 */
export interface StatusReason {
  code: string;
  data?: StatusReasonData;
  lines?: string[];
  /** A reason this one quotes (its English `text` too): worded first, then filled in as `{{cause}}`. */
  cause?: StatusReason & { text: string };
}

export interface ServerHealth {
  ok: boolean;
  lastPingMs?: number;
  lastPingAt?: number;
  error?: string;
  /** `error`'s code and data (`ping-missed`, `ping-failed`, `ping-error-answer`: server, method, timeoutMs / detail). */
  errorInfo?: StatusReason;
}

export interface ServerView {
  name: string;
  /** The transport in use (for remote servers: the one that answered). */
  transport: TransportKind;
  status: ServerStatus;
  /** Readable reason when status is `error` (in English; also for `crash-loop`, `needs-approval`, `needs-login`). */
  error?: string;
  /** `error`'s code and data, when known, for wording it in the UI's language. */
  errorInfo?: StatusReason;
  /** Negotiated protocol revision, once ready. */
  protocolVersion?: string;
  era?: 'modern' | 'legacy';
  /** The revision the entry pins (`protocolVersion`); absent: negotiated (`auto`). */
  protocolPin?: string;
  /**
   * Negotiated, it fell back from 2026-07-28 to the 2025 era because the server sends the host this request
   * push-style (e.g. `elicitation/create`), which 2026-07-28 has no channel for.
   */
  eraFallback?: string;
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
  counts?: { resources: number; templates: number; prompts: number; skills?: number };
  /** A remote server's OAuth sign-in (absent for stdio servers and entries with their own Authorization header). */
  auth?: AuthView;
  /** Present while this entry is not approved: what would run or where its secrets would go, for a person to review (values never). */
  consent?: ConsentView;
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
  /** The sandbox in force for this start (absent: none asked for). */
  sandbox?: SandboxInfo;
}

/** `bubblewrap` (Linux) / `sandbox-exec` (macOS): what the server may see. `unavailable`: asked for, none here, so it did not start. */
export interface SandboxInfo {
  kind: 'bubblewrap' | 'sandbox-exec' | 'unavailable';
  /** Readable (beyond the system, read-only). */
  read: string[];
  /** Writable (besides a private temp folder). */
  write: string[];
  network: boolean;
  /** Why there is none (kind `unavailable`). */
  reason?: string;
  /** `reason`'s code and data (`sandbox.*` codes, worded by the UI and the CLI from `diagnostics.sandbox.<code>`). */
  reasonInfo?: StatusReason;
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
  /** `reason`'s code and data (worded by the UI and the CLI from `diagnostics.containment.<code>`). */
  reasonInfo?: StatusReason;
}

export interface PingView {
  server: string;
  /** `ping` on legacy-era servers, `server/discover` on 2026-07-28 ones. */
  method: 'ping' | 'server/discover';
  ms: number;
}

/** That server's resources or prompts list was reloaded: fetch it again. */
export interface FeaturesChangedEvent {
  server: string;
  feature: 'resources' | 'prompts' | 'skills';
}

export interface ServersResults {
  'servers:list': ServerView[];
  'servers:restart': void;
  'servers:ping': PingView;
}

export interface ServersEvents {
  /** What changed since the previous `servers:changed` (fetch `servers:list` first, then merge each). */
  'servers:changed': ServersDelta;
  /** That server's list was reloaded (connect, list_changed, disconnect): the UI fetches it again. */
  'features:changed': FeaturesChangedEvent;
}

/** Each servers channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const serversChannelNames = { 'servers:list': true, 'servers:restart': true, 'servers:ping': true } as const satisfies Record<
  keyof ServersResults,
  true
>;
export const serversEventNames = { 'servers:changed': true, 'features:changed': true } as const satisfies Record<keyof ServersEvents, true>;
