import type { z } from 'zod';
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
import type { CallProgressEvent } from './contract/calls';
import type { AppInfo, ConfigText, ImportPreviewView, ImportResultView, SecretsChangedEvent } from './contract/config';
import type { DebugBundleView, LogEntry, LogsAppendedEvent, PingView, TraceEntry } from './contract/logging';
import type { CompletionView, GetPromptView, PromptListView } from './contract/prompts';
import type { ReadResourceView, ResourceListView, ResourceUpdatedEvent } from './contract/resources';
import type { PendingRequestView, RequestsChangedEvent } from './contract/requests';
import type { LoginResult, LogoutResult } from './contract/auth';
import type { AppSettingsView, DirectCallResult } from './contract/settings';
import type { InstallPlanView, InstallResultView, RegistrySearchView } from './contract/install';
import type { ServersDelta, ServerView, ToolResult } from './contract/servers';
import type { HostError, HostErrorCode } from './errors';

/*
 * host-api.ts joins the per-domain contract files (./contract/<domain>.ts, zod-free names and result types; the
 * error shape in ./errors.ts) into one HostApi: the channels, their results and the events. Importers may take any
 * contract type from here.
 */
export type * from './contract/servers';
export type * from './contract/config';
export type * from './errors';
export { isHostErrorCode } from './errors';
export type * from './contract/calls';
export type * from './contract/logging';
export type * from './contract/prompts';
export type * from './contract/resources';
export type * from './contract/requests';
export type * from './contract/auth';
export type * from './contract/settings';
export type * from './contract/install';
export { logLevels } from './contract/logging';

/*
 * The contract, zod-free at runtime: the renderer and the sandboxed preload import this file directly (zod
 * would probe `new Function` under the page's CSP, and a sandboxed preload cannot load it). The argument
 * schemas main parses with live in ./host-schemas.ts; their types are imported here, so both stay one contract.
 */

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
  'providers:confirm-dotenv': true,
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
  'requests:list': true,
  'requests:answer': true,
  'tools:trust': true,
  'auth:login': true,
  'auth:logout': true,
  'auth:set-client': true,
  'shell:open-url': true,
  'servers:approve': true,
  'registry:search': true,
  'install:prepare': true,
  'install:apply': true,
  'install:uninstall': true,
  'install:pending': true,
  'chat:call': true,
  'settings:get': true,
  'settings:update': true,
} as const satisfies Record<HostChannel, true>;
export const hostChannelNames = Object.keys(channelFlags) as HostChannel[];

export interface HostResults {
  /** The server starts once approved (unless disabled). */
  'servers:approve': void;
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
  /** Recorded in the data folder: the working folder's `.env` may now choose those values (asked again if they change). */
  'providers:confirm-dotenv': ProvidersView;
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
  /** What a person must answer now (oldest first). */
  'requests:list': PendingRequestView[];
  /** Whether a request with that id was pending. */
  'requests:answer': boolean;
  /** The tools whose current definitions are now pinned (trusted). */
  'tools:trust': { server: string; trusted: string[] };
  /** Resolves once signed in (or when stored tokens were refreshed); the server then restarts with its tokens. */
  'auth:login': LoginResult;
  'auth:logout': LogoutResult;
  /** The entry now names the client; sign in next. */
  'auth:set-client': void;
  /** Opened in the system browser (desktop, https only), or not possible here (headless): show the link. */
  'shell:open-url': { opened: boolean; url: string };
  /** A direct tool call (no model), recorded in the conversation and the audit log. */
  'chat:call': DirectCallResult;
  'settings:get': AppSettingsView;
  /** Validated; the new settings apply to servers started from now on (the env allow-list: on their next start). */
  'settings:update': AppSettingsView;
  /** One page of the MCP Registry's catalogue. */
  'registry:search': RegistrySearchView;
  /** What would be added (full command, values it takes); nothing is written. */
  'install:prepare': InstallPlanView;
  'install:apply': InstallResultView;
  'install:uninstall': void;
  /** A `switchboard://install` link not shown yet, or null. */
  'install:pending': string | null;
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
  /** A request a person must answer was added or settled. */
  'requests:changed': RequestsChangedEvent;
  /** The OS handed the app a `switchboard://install` link: show its install dialog. */
  'install:offered': { url: string };
  /** Secrets were added, changed or removed: by this app (any window or tab) or by another process (the CLI). */
  'secrets:changed': SecretsChangedEvent;
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
  'requests:changed': true,
  'install:offered': true,
  'secrets:changed': true,
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
