import type { HostError } from '../errors';
import type { ToolResult } from './tools';

/*
 * The chat's part of the contract (zod-free): providers, conversations, the tool loop's events, approvals, direct
 * tool calls and the audit log. Values never include an API key: the renderer learns only whether one is set and
 * where from.
 */

export type ProviderId = 'anthropic' | 'openai' | 'ollama' | 'compatible';
export const providerIds: readonly ProviderId[] = ['anthropic', 'openai', 'ollama', 'compatible'];

/** Where a provider setting came from: the settings screen (secret store), the environment, or `.env`. */
export type SettingSource = 'settings' | 'env' | 'dotenv' | 'default';

export interface ProviderView {
  id: ProviderId;
  label: string;
  /** Usable now: it has what it needs (a key, or a base URL for keyless local servers). */
  configured: boolean;
  /** Whether a key is set, never the key. */
  hasKey: boolean;
  keySource?: SettingSource;
  /** The environment name of its key (for the "how to add one" hint). */
  keyEnv?: string;
  baseURL?: string;
  baseURLSource?: SettingSource;
  /** Chat Completions (`chat`) or the vendor's own API (`messages` for Anthropic, `responses` for OpenAI). */
  api: 'messages' | 'responses' | 'chat';
  /** Suggested model ids (without the `provider:` prefix). */
  models: string[];
}

export interface ProvidersView {
  providers: ProviderView[];
  /** The model new messages use, `provider:model`; undefined when no provider is configured. */
  model?: string;
  modelSource?: SettingSource;
  /** Where new messages go (provider, model, endpoint), when the model can be used. */
  route?: ChatRoute;
  /** What a working folder's `.env` chooses that waits for a person's confirmation (`providers:confirm-dotenv`). */
  unconfirmed?: UnconfirmedDotenv;
  /** Set when chatting with an LLM is not possible yet: how to add a provider. */
  hint?: string;
}

/** Where a turn goes: said at the start of `switchboard chat` and shown in the app's composer. */
export interface ChatRoute {
  provider: ProviderId;
  /** The provider's name for people (`Ollama`, `OpenAI`…). */
  label: string;
  /** The model id, without the `provider:` prefix. */
  model: string;
  /** The base URL requests go to. */
  endpoint: string;
  /** `flag`: the CLI's `--model`. */
  modelSource: SettingSource | 'flag';
  endpointSource: SettingSource;
  /** The `.env` file the model (or the endpoint) was read from, when a file. */
  modelFile?: string;
  endpointFile?: string;
  /** The variable the endpoint was read from (`OLLAMA_BASE_URL`…), when the environment or a `.env` set it. */
  endpointEnv?: string;
}

/** A name of the working folder's `.env` that would redirect the chat (a model or a base URL), with its value. */
export interface DotenvChoice {
  name: string;
  value: string;
  /** The provider a base URL is for; absent for SWITCHBOARD_MODEL. */
  provider?: ProviderId;
}

export interface UnconfirmedDotenv {
  /** The `.env` file's real path. */
  file: string;
  /** Only choices that would be used once confirmed (one the settings or the environment override is left out). */
  choices: DotenvChoice[];
}

export interface ProviderConfigureRequest {
  id: ProviderId;
  /** A new key (stored as a secret in main); `null` removes the stored key; omitted keeps it. */
  apiKey?: string | null;
  /** `null` clears the stored base URL. */
  baseURL?: string | null;
}

/** ask: every call asks; readonly: tools annotated readOnlyHint run without asking; all: never asks; none: never runs a tool. */
export type ApprovalMode = 'ask' | 'readonly' | 'all' | 'none';
export type ApprovalDecision = 'once' | 'always' | 'deny';

/**
 * How the model is offered tools: `all` (every definition on every request), `search` (a `search_tools` tool, and the
 * tools it found, which stay loaded in the conversation), `auto` (search above a budget: see docs/chat.md).
 */
export type ToolLoading = 'auto' | 'all' | 'search';
export const toolLoadingModes: readonly ToolLoading[] = ['auto', 'all', 'search'];

export interface ChatSettingsView {
  /** The picker's choice, `provider:model` (else SWITCHBOARD_MODEL). */
  model?: string;
  approval: ApprovalMode;
  /** The most model steps (calls to the LLM) in one turn. */
  maxSteps: number;
  /** `server/tool` keys never offered to the model. */
  disabledTools: string[];
  /** `server/tool` keys the user chose "Always allow" for. */
  alwaysAllow: string[];
  toolLoading: ToolLoading;
  /** Named sets of servers and tools a conversation can be limited to (see `Toolset`). */
  toolsets: Toolset[];
  /** The toolset new conversations use; absent: all tools. */
  defaultToolset?: string;
  /** Why the file's `toolsets` (or `defaultToolset`) could not be used as written: those sets are left out. */
  toolsetsError?: string;
}
/** `defaultToolset: null` clears it (all tools). */
export type ChatSettingsPatch = Partial<Omit<ChatSettingsView, 'toolsetsError' | 'defaultToolset'>> & {
  model?: string | undefined;
  defaultToolset?: string | null;
};

/**
 * A named set of servers and tools ("coding", "research"): a conversation using it is offered only the tools of
 * `servers` and the tools named in `tools` (`server/tool` keys), in every loading mode; `search_tools` finds only
 * those. A set with neither offers no MCP tools.
 */
export interface Toolset {
  name: string;
  servers?: string[];
  tools?: string[];
}

/** One MCP tool of one server. */
export interface ToolRef {
  server: string;
  tool: string;
}

/** `server/tool`: the key settings (disabled, always allow, toolsets, loaded tools) and the audit log use. */
export const toolKey = (ref: ToolRef): string => `${ref.server}/${ref.tool}`;

/** Whether the tool is one the set offers. */
export function inToolset(set: Toolset, ref: ToolRef): boolean {
  return (set.servers?.includes(ref.server) ?? false) || (set.tools?.includes(toolKey(ref)) ?? false);
}

/** The most tools a conversation keeps loaded (search mode); past it the oldest unpinned ones are dropped. */
export const maxLoadedTools = 30;

/**
 * A conversation's tools as the composer shows them. `loadedTools`: `server/tool` keys in the order they were
 * loaded (search mode offers them on every turn); `pinnedTools`: the loaded ones kept when the list is trimmed
 * (`maxLoadedTools`); `toolset`: the conversation's set (null: all tools; absent: the default set).
 */
export interface ConversationTools {
  conversationId: string;
  loadedTools: string[];
  pinnedTools: string[];
  toolset?: string | null;
  /** How the last turn offered tools (`auto` resolved), when there was one. */
  toolMode?: 'all' | 'search';
}

export type ToolPartStatus = 'awaiting-approval' | 'running' | 'done' | 'error' | 'denied' | 'cancelled';

export interface ToolPart {
  type: 'tool';
  /**
   * The id the host runs the call under: calls:list/calls:changed, calls:progress, tools:cancel, the approval and the
   * requests' `origin.callId`. The provider's tool-call id, unless a running call holds that id already.
   */
  callId: string;
  /** The provider's tool-call id, when it differs from `callId` (sent back to the model in the history). */
  modelCallId?: string;
  server: string;
  tool: string;
  /** The name the model saw (sanitised server + tool). */
  modelName: string;
  args: Record<string, unknown>;
  status: ToolPartStatus;
  /** How it was allowed or denied (see AuditDecision). */
  decision?: AuditDecision;
  readOnly?: boolean;
  result?: ToolResult;
  /** The call failed before the tool answered, or the model sent an unusable call. */
  error?: string;
  durationMs?: number;
  /** A `search_tools` call (the host's own tool): the query and what it found; the found tools were loaded. */
  search?: ToolSearchInfo;
}
export interface ToolSearchInfo {
  query: string;
  matches: Array<{ server: string; tool: string; title?: string; /** Not loaded before this search. */ newlyLoaded: boolean }>;
}
export interface TextPart {
  type: 'text';
  text: string;
}
export type AssistantPart = TextPart | ToolPart;

/** A resource to send with a chat message as context for the model (read through `resources:read` when sent). */
export interface ChatAttachmentRef {
  server: string;
  uri: string;
}

/** One item of an attached resource as read and stored with the message. */
export interface ChatAttachmentContents {
  uri: string;
  mimeType?: string;
  /** The text (cut at `maxAttachmentTextChars`; `truncated` then says so). */
  text?: string;
  /** Base64 data, kept for images only (up to `maxAttachmentImageBytes`); other blobs are summarised. */
  blob?: string;
  /** Bytes of the text (UTF-8) or of the decoded blob as the server sent it. */
  size: number;
  truncated?: boolean;
}

/** A resource attached to a user message: what the server answered when the message was sent. */
export interface ChatAttachment extends ChatAttachmentRef {
  /** The resource's listed name, when known. */
  name?: string;
  contents: ChatAttachmentContents[];
}

/** How many resources one message may carry (`chat:send` refuses more). */
export const maxChatAttachments = 10;
export const maxAttachmentTextChars = 200_000;
export const maxAttachmentImageBytes = 4 * 1024 * 1024;

/**
 * What an MCP App asked to keep in the model's context (`ui/update-model-context`), sent with a user message: the
 * model gets it as data from that app, never as the person's instructions.
 */
export interface AppContextItem {
  server: string;
  tool: string;
  /** The tool's title, else its name. */
  title: string;
  text: string;
}

/** An MCP App whose `ui/message` a user message is. */
export interface AppMessageSource {
  server: string;
  tool: string;
  title: string;
}

/** How many app contexts one message may carry, and how large each text may be (UTF-8; `chat:send` refuses more). */
export const maxAppContexts = 16;
export const maxAppContextBytes = 16 * 1024;

export interface UserMessage {
  id: string;
  role: 'user';
  text: string;
  at: number;
  /** Resources sent with the message as context for the model. */
  attachments?: ChatAttachment[];
  /** Apps' model context sent with the message (as the model got it). */
  appContext?: AppContextItem[];
  /** The message is an app's `ui/message`, not typed by the person. */
  fromApp?: AppMessageSource;
  /** The command of a direct tool call (`/add {…}`); its call is the next (direct) assistant message. */
  direct?: true;
}
export interface AssistantMessage {
  id: string;
  role: 'assistant';
  parts: AssistantPart[];
  at: number;
  model: string;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  /** A readable provider error. */
  error?: { code: string; message: string };
  /** A tool the person called directly (no model): one tool part; `model` is "direct". */
  direct?: true;
}
export type ChatMessage = UserMessage | AssistantMessage;

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** For a search: the matching text around the hit. */
  snippet?: string;
  /** The model's turn running in it now (the host runs it whether or not a window watches). */
  runId?: string;
}
export interface Conversation extends ConversationSummary {
  messages: ChatMessage[];
  /** Search mode: the `server/tool` keys the model loaded (found or named); offered on every later turn. */
  loadedTools?: string[];
  /** The loaded tools the person pinned (a subset of `loadedTools`): never trimmed away. */
  pinnedTools?: string[];
  /** The conversation's toolset: a name, null for all tools, absent for the default set. */
  toolset?: string | null;
  /** How its last turn offered tools. */
  toolMode?: 'all' | 'search';
}

export interface ChatSendRequest {
  conversationId?: string;
  text: string;
  model?: string;
  /** Resources to read and send with the message (at most `maxChatAttachments`). */
  attachments?: ChatAttachmentRef[];
  /** Apps' model context for this turn (at most `maxAppContexts`, each text at most `maxAppContextBytes`). */
  appContext?: AppContextItem[];
  /** The message is an app's `ui/message`. */
  fromApp?: AppMessageSource;
  /** The conversation's toolset from this message on (null: all tools); omitted keeps what it has. */
  toolset?: string | null;
}
export interface ChatSendResult {
  conversationId: string;
  runId: string;
  userMessage: UserMessage;
  assistantMessage: AssistantMessage;
}

/** What main streams to every renderer while a turn runs (the `chat:event` event). */
export type ChatEvent =
  | { type: 'run-started'; conversationId: string; runId: string; userMessage: UserMessage; assistantMessage: AssistantMessage }
  | { type: 'text'; conversationId: string; runId: string; messageId: string; text: string }
  | { type: 'tool'; conversationId: string; runId: string; messageId: string; part: ToolPart }
  /**
   * The arguments of a tool call the model is still writing, parsed so far (partial JSON made whole), for a tool
   * with an app only; at most ~10 a second per call, never stored. The call's `tool` event (same `modelCallId`,
   * or `callId` when it has none) supersedes it.
   */
  | {
      type: 'tool-input';
      conversationId: string;
      runId: string;
      messageId: string;
      modelCallId: string;
      server: string;
      tool: string;
      args: Record<string, unknown>;
    }
  | {
      type: 'run-finished';
      conversationId: string;
      runId: string;
      messageId: string;
      status: AssistantMessage['status'];
      error?: { code: string; message: string };
    }
  /**
   * A tool the person called directly (`chat:call`, from any window) started in the conversation: its `direct` user
   * message and the assistant message holding its one tool part, as stored. Windows showing that conversation add
   * its card (the window that made the call already has it); `calls:changed` tells how it ends.
   */
  | { type: 'direct-call'; conversationId: string; userMessage: UserMessage; assistantMessage: AssistantMessage }
  /** A conversation's loaded or pinned tools, or its toolset, changed (a search loaded tools, or the person). */
  | { type: 'tools-changed'; conversationId: string; tools: ConversationTools }
  | { type: 'conversations-changed' };

export type AuditDecision = 'allow-once' | 'always-allow' | 'auto-always' | 'auto-readonly' | 'auto-all' | 'deny' | 'auto-deny';

/**
 * How a server's sampling request ended: the person approved it or declined it, policy allowed it (`auto`: the
 * server's `sampling.mode` is "allow") or declined it (`auto-declined`: "never", no provider, no one to ask), it was
 * cancelled or timed out, the server's rate limit refused it, or the model failed.
 */
export type SamplingAuditDecision = 'approved' | 'auto' | 'declined' | 'auto-declined' | 'cancelled' | 'timed-out' | 'rate-limited' | 'failed';

/** What the audit keeps of a sampling request: sizes, never the content. */
export interface SamplingAudit {
  decision: SamplingAuditDecision;
  /** `provider:model` used (or that would have been). */
  model?: string;
  /** How many messages the server sent. */
  messages: number;
  /** Characters of text in them and the system prompt. */
  promptChars: number;
  maxTokens?: number;
  /** Characters of the answer sent back. */
  resultChars?: number;
  stopReason?: string;
  /** The person edited the prompt or the result before it went on. */
  edited?: boolean;
  durationMs?: number;
}

/**
 * One line of audit.jsonl. `decision` and `call` entries (the chat's tools) always carry callId and tool; a
 * `sampling` entry (a server asked the host's model) carries `sampling`, and callId/tool only when the request is
 * attributed to an in-flight call. Files written before `sampling` existed read unchanged.
 */
export interface AuditEntry {
  /** ISO time. */
  at: string;
  kind: 'decision' | 'call' | 'sampling';
  /** `mcp-app`: a call a server's app (MCP Apps) made from its frame. */
  source: 'app' | 'cli' | 'mcp-app';
  conversationId?: string;
  /** Always set for `decision` and `call`; for `sampling`, the call that was running when the server asked. */
  callId?: string;
  server: string;
  /** Always set for `decision` and `call`; for `sampling`, the tool of that call. */
  tool?: string;
  sampling?: SamplingAudit;
  /** The arguments, shortened when long. */
  args?: string;
  decision?: AuditDecision;
  outcome?: 'ok' | 'tool-error' | 'failed' | 'cancelled';
  durationMs?: number;
  detail?: string;
  /** A `call` the person made directly (`/tool` or the form), not the model. */
  direct?: true;
}

/** How a direct call (`chat:call`) ended; it is in the conversation either way. */
export interface DirectCallResult {
  conversationId: string;
  /** Set when the tool answered (also for `isError: true`). */
  result?: ToolResult;
  /** Set when the call failed before the tool answered (not ready, cancelled, timed out). */
  failure?: HostError;
}

/** The chat's channels (`chat:*`, `providers:*`, `audit:list`) and what each resolves to. */
export interface ChatResults {
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
  /** A direct tool call (no model), recorded in the conversation and the audit log. */
  'chat:call': DirectCallResult;
  /** Pins (or unpins) one of a conversation's loaded tools. */
  'chat:pin-tool': ConversationTools;
  /** Takes tools off a conversation's loaded list (pinned or not): not offered from the model's next step. */
  'chat:remove-tools': ConversationTools;
  /** Chooses a conversation's toolset (null: all tools). */
  'chat:set-toolset': ConversationTools;
  'providers:list': ProvidersView;
  'providers:configure': ProvidersView;
  /** Model ids the provider lists (its `/models`), or its suggestions. */
  'providers:models': string[];
  /** Recorded in the data folder: the working folder's `.env` may now choose those values (asked again if they change). */
  'providers:confirm-dotenv': ProvidersView;
  /** The newest entries first. */
  'audit:list': AuditEntry[];
}

export interface ChatEvents {
  /** The chat's tool loop: tokens, tool cards, approvals, turn ends, list changes. */
  'chat:event': ChatEvent;
}

/** Each chat channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const chatChannelNames = {
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
  'chat:call': true,
  'chat:pin-tool': true,
  'chat:remove-tools': true,
  'chat:set-toolset': true,
  'providers:list': true,
  'providers:configure': true,
  'providers:models': true,
  'providers:confirm-dotenv': true,
  'audit:list': true,
} as const satisfies Record<keyof ChatResults, true>;
export const chatEventNames = { 'chat:event': true } as const satisfies Record<keyof ChatEvents, true>;
