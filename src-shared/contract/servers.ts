/** Servers and their tools, as the UI sees them (owned by main, pushed to the renderer). Zod-free. */
import type { TransportKind } from '../schemas/config';
import type { AuthView } from './auth';
import type { TaskStatus } from './calls';
import type { LogLevel } from './logging';

/** What a person sees about one configured server. Owned by main, pushed to the renderer. */
/** `needs-approval`: a stdio entry the person has not approved yet (SEP-1024); it starts once approved (`servers:approve`). */
/** `needs-login`: a remote server that asks for OAuth sign-in (not an error): `auth` says where and for which scopes. */
export type ServerStatus = 'stopped' | 'starting' | 'ready' | 'error' | 'crash-loop' | 'needs-approval' | 'needs-login';

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
  /** Pinned-definition review (issue 12): absent where nothing pins tools (then it counts as trusted). */
  review?: ToolReview;
}

/**
 * `trusted`: as pinned (or pinned on the server's first listing). `changed`: differs from the pinned definition (or
 * the server's instructions changed). `new`: appeared after the server's tools were pinned. `flagged`: not pinned,
 * and its text hides characters (below). All but `trusted` need review: never offered to the model, calls refused.
 */
export type ToolReviewState = 'trusted' | 'changed' | 'new' | 'flagged';
export type ToolDefinitionField = 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations' | 'instructions';

/** A definition as it was trusted (and the server's instructions then), to show beside the current one. */
export interface PinnedDefinition {
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  instructions?: string;
}

/**
 * Invisible or deceptive text: `zero-width` (U+200B–U+200F, U+2060–U+2064, U+FEFF), `bidi` controls, Unicode `tag`
 * characters (U+E0000–U+E007F, which spell ASCII invisibly), `variation-selector` (U+E0100–U+E01EF, and U+FE00–U+FE0F
 * in runs or after a character that takes none: text can be spelled in them), `control` (C0 controls other than tab
 * and line breaks, DEL, C1, and terminal escape sequences: `ESC[8m` conceals text on a terminal), `invisible` (soft
 * hyphen, Hangul fillers, deprecated format characters U+206A–U+206F, musical format characters U+1D173–U+1D17A).
 * Length is not one of them: a long text hides nothing.
 */
export type HiddenTextKind = 'zero-width' | 'bidi' | 'tag' | 'variation-selector' | 'control' | 'invisible';
export interface HiddenTextFinding {
  /** Where: `title`, `description`, `inputSchema.properties.path.description`, `inputSchema.properties.path (name)`, … */
  where: string;
  kinds: HiddenTextKind[];
  /**
   * The text with each invisible character spelled out (`⟨U+200B ZWSP⟩`), escape sequences as `⟨ESC[8m⟩`, and runs of
   * tag characters and variation selectors decoded (`⟨tags: …⟩`, `⟨variation selectors: …⟩`).
   */
  decoded: string;
  /** What the tag characters spell, when there are any. */
  tagText?: string;
  /** What runs of variation selectors spell (each one a byte, the bytes read as UTF-8), when they spell text. */
  selectorText?: string;
  /** How many invisible characters (an escape sequence counts as one). */
  count: number;
}

export interface ToolReview {
  state: ToolReviewState;
  /** `changed`: what differs from the pinned definition. */
  changed?: ToolDefinitionField[];
  /** `changed`: the definition as trusted (only the fields that changed). */
  pinned?: PinnedDefinition;
  /** Hidden text found in the tool's title, description or schemas (shown for trusted tools too). */
  hidden?: HiddenTextFinding[];
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
  /** A remote server's OAuth sign-in (absent for stdio servers and entries with their own Authorization header). */
  auth?: AuthView;
  /** Present while this entry is not approved: what would run or where its secrets would go, for a person to review (values never). */
  consent?: ConsentView;
}

/** A sampling policy as approved or asked about (`perMinute` absent: no limit). */
export interface SamplingSubject {
  mode: 'ask' | 'allow' | 'never';
  perMinute?: number;
}

/** What both kinds of entry put before a person. */
interface SubjectCommon {
  /**
   * Per env variable (stdio) or header (remote): the `${env:…}`, `${secret:…}`, `${input:…}` references its value
   * contains, as written (`${secret:github.TOKEN}`), never what they resolve to. Only names whose value has one;
   * a literal value is never part of a subject (a rotated literal token needs no approval).
   */
  references?: Record<string, string[]>;
  /** The entry's own `sampling` policy, when it has one (absent: ask each time, no limit). */
  sampling?: SamplingSubject;
}

/** What a person approves before a stdio entry may run: the exact launch, env names only (SEP-1024). */
export interface LaunchSubject extends SubjectCommon {
  command: string;
  args: string[];
  /** Absolute; null: Switchboard's own working folder. */
  cwd: string | null;
  /** Names the entry sets (its `env` block and its `envFile`), sorted; never values. */
  env: string[];
  /** The `envFile` path, when the entry names one. */
  envFile?: string;
  /** The entry's own `sandbox` value, when it has one. */
  sandbox?: unknown;
  /**
   * The full values of the variables that change how a program loads code (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, …;
   * the README lists them), from `env` or the `envFile`: these are shown, since they decide what runs.
   */
  loader?: Record<string, string>;
}

/** What a person approves before a remote entry sends a secret: where it goes and which references it sends. */
export interface RemoteSubject extends SubjectCommon {
  url: string;
  /** The entry's `oauth` settings, when they name a secret (their secrets are `${secret:…}` references, never values). */
  oauth?: Record<string, unknown>;
}

export type ConsentSubject = LaunchSubject | RemoteSubject;

/** The parts of a subject a `changed` approval differs in from what was approved before. */
export type ConsentPart = 'command' | 'args' | 'cwd' | 'env' | 'envFile' | 'sandbox' | 'references' | 'loader' | 'url' | 'oauth' | 'sampling';

export interface ConsentView {
  /** `new`: never approved under this name; `changed`: approved before with another launch (`previous`). */
  reason: 'new' | 'changed';
  subject: ConsentSubject;
  previous?: ConsentSubject;
  /** With `previous`: the parts that differ (a stdio entry that became remote lists `url`). */
  changed?: ConsentPart[];
  /** Pass back to `servers:approve`: approving a launch that changed meanwhile is refused. */
  hash: string;
  /** The app waits for approval before starting it; false in the CLI, which runs what its config says. */
  enforced: boolean;
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
