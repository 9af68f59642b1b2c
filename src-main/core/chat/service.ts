import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { HostMethods, ServerView, ToolResult } from '../../../src-shared/host-api';
import type {
  ApprovalDecision,
  ApprovalMode,
  AssistantMessage,
  ChatAttachment,
  ChatEvent,
  ChatSendRequest,
  ChatSendResult,
  Conversation,
  ConversationSummary,
  ConversationTools,
  DirectCallResult,
  ProviderId,
  ToolLoading,
  ToolPart,
  UserMessage,
} from '../../../src-shared/contract/chat';
import { chatSendSchema, directCallSchema } from '../../../src-shared/schemas/chat';
import type { z } from 'zod';
import { maxLoadedTools, providerIds, type Toolset } from '../../../src-shared/contract/chat';
import { CoreError, messageOf, toHostError } from '../errors';
import type { SecretStore } from '../secrets/store';
import { readAttachments, type ResourceSource } from './attachments';
import type { ChatSkillSource } from './skills/load-skill';
import { AuditLog } from './audit-log';
import { ChatSettingsStore } from './chat-settings';
import { DotenvChoices, dotenvChoicesFileName } from './dotenv-choices';
import { ConversationStore } from './history';
import { toModelMessages, userContent, type OutputOptions } from './model-messages';
import { noProviderHint, parseModelSpec, Providers, type ProviderEnv } from './providers';
import { RequestQueue } from '../requests/queue';
import type { ApprovalAnswer, ApprovalRequest, OfferedTool } from './run-turn';
import { toolKey, type ToolRef } from './tool-names';
import type { RemoteImageOptions } from './remote-image';
import { isAppOnly } from '../../../src-shared/tool-ui';
import { isTrusted } from '../trust/pins';
import { effectiveLoading } from './tool-search/loading';
import { filterSkills, filterTools, type ToolFilter } from './toolsets';
import { freeCallId, usesCallId } from './call-ids';
import { traceScope, type Telemetry } from '../trace/telemetry';
import type { SpanOutcome } from '../trace/trace-context';

/** The channels the chat module implements (host.ts spreads them into its HostApi). */
export type ChatChannel = Extract<keyof HostMethods, `chat:${string}` | `providers:${string}` | `audit:${string}`>;
export type ChatApi = Pick<HostMethods, ChatChannel>;

export interface ToolSource {
  views(): ServerView[];
  /** Before a turn offers the tools: lists past their ttl (2026-07-28 `ttlMs`) are fetched again. */
  freshen?(): Promise<void>;
  /** `callId` (the model's tool call id) keys `calls:progress` and `tools:cancel` for the call. */
  callTool(ref: ToolRef, args: Record<string, unknown>, signal: AbortSignal, callId?: string, options?: { task?: boolean }): Promise<ToolResult>;
}

/** A direct call as `chat:call` takes it. */
export type DirectCallRequest = z.input<typeof directCallSchema>;

export interface ChatServiceOptions {
  tools: ToolSource;
  /** Each turn is a trace (and, with span export on, a span). */
  telemetry?: Telemetry;
  /** Where attached resources are read from (`chat:send` with `attachments`). */
  resources?: ResourceSource;
  /** Skills the model may load (io.modelcontextprotocol/skills); absent: none. */
  skills?: ChatSkillSource;
  secrets: SecretStore;
  env: ProviderEnv;
  /** The data folder (conversations/, chat-settings.json, audit.jsonl); undefined keeps everything in memory. */
  dataDir?: string;
  emit(event: ChatEvent): void;
  log?(line: string): void;
  /** Retries of a failed provider request (429, 5xx, dropped connection), honouring retry-after. Default 2. */
  maxRetries?: number;
  /** Milliseconds text deltas are gathered before they are sent as one event. Default 30. */
  textFlushMs?: number;
  /** How "Load image" fetches (tests allow loopback fixtures). */
  remoteImages?: RemoteImageOptions;
  /**
   * Where tool approvals wait for a person (the host's one queue: kind 'tool-approval', origin {runId,
   * conversationId, callId}); default a queue of its own, interactive. Not interactive: every approval is denied
   * at once, saying why.
   */
  requests?: RequestQueue;
}

export interface TurnOverrides {
  /** Overrides the saved approval mode for this turn (the CLI's --approve). */
  approval?: ApprovalMode;
  source?: 'app' | 'cli';
  /** Overrides the saved tool loading for this turn (the CLI's --tool-loading). */
  toolLoading?: ToolLoading;
  /** This turn's toolset instead of the conversation's (the CLI's --toolset); an unknown name is refused. */
  toolset?: string;
  /** Only these servers' tools this turn (the CLI's --servers); a name the config lacks is refused. */
  servers?: string[];
}

interface Run {
  id: string;
  conversationId: string;
  controller: AbortController;
  done: Promise<void>;
  pendingText: string;
  timer: NodeJS.Timeout | undefined;
  messageId: string;
  /** Search mode: takes loaded tools off the running turn's offer, from its next step. */
  unload?: (keys: readonly string[]) => void;
}

/** What the composer shows of a conversation's tools. */
function toolsView(conversation: Conversation): ConversationTools {
  return {
    conversationId: conversation.id,
    loadedTools: [...(conversation.loadedTools ?? [])],
    pinnedTools: [...(conversation.pinnedTools ?? [])],
    ...(conversation.toolset !== undefined ? { toolset: conversation.toolset } : {}),
    ...(conversation.toolMode !== undefined ? { toolMode: conversation.toolMode } : {}),
  };
}

/**
 * `loaded` after `added` were loaded: in load order, the oldest unpinned ones dropped past `maxLoadedTools` (pinned
 * ones are never dropped).
 */
export function withLoaded(loaded: readonly string[], added: readonly string[], pinned: readonly string[]): string[] {
  const all = [...new Set([...loaded, ...added])];
  let excess = all.length - maxLoadedTools;
  if (excess <= 0) return all;
  const keep = new Set(pinned);
  return all.filter((key) => keep.has(key) || excess-- <= 0);
}

export class ChatService {
  readonly settings: ChatSettingsStore;
  readonly providers: Providers;
  readonly history: ConversationStore;
  readonly audit: AuditLog;
  readonly api: ChatApi;
  private readonly runs = new Map<string, Run>();
  /** Direct calls in flight (dispose cancels them and waits for their saves). */
  private readonly directCalls = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  /** The ids the model's calls run under, from approval to result (see claimCallId). */
  private readonly modelCalls = new Set<string>();
  private readonly requests: RequestQueue;
  private readonly ownsRequests: boolean;
  private disposed: Promise<void> | undefined;

  constructor(private readonly options: ChatServiceOptions) {
    // The SDK prints its warnings with console.info/warn, i.e. on stdout, which belongs to the CLI's answer.
    const log = options.log;
    (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = log
      ? (o: { warnings: unknown[]; provider: string; model: string }) => log(`AI SDK warning (${o.provider} / ${o.model}): ${JSON.stringify(o.warnings)}`)
      : false;
    this.ownsRequests = options.requests === undefined;
    this.requests = options.requests ?? new RequestQueue({ interactive: true });
    const dir = options.dataDir;
    this.settings = new ChatSettingsStore(dir ? join(dir, 'chat-settings.json') : undefined);
    this.providers = new Providers(this.settings, options.secrets, options.env, new DotenvChoices(dir ? join(dir, dotenvChoicesFileName) : undefined));
    this.history = new ConversationStore(dir ? join(dir, 'conversations') : undefined);
    this.audit = new AuditLog(dir ? join(dir, 'audit.jsonl') : undefined);
    this.api = {
      'chat:send': async (request) => this.start(chatSendSchema.parse(request)),
      'chat:call': async (request) => this.callDirect(request),
      'chat:stop': async (id) => this.stop(id),
      'chat:approve': async (callId, decision) => this.approve(callId, decision),
      'chat:list': async ({ query }) => this.history.list(query).map((summary) => this.withRun(summary)),
      'chat:get': async (id) => this.withRun(structuredClone(this.history.get(id))),
      'chat:rename': async (id, title) => {
        this.history.rename(id, title);
        this.options.emit({ type: 'conversations-changed' });
      },
      'chat:delete': async (id) => {
        this.stop(id);
        const deleted = await this.history.delete(id);
        if (deleted) this.options.emit({ type: 'conversations-changed' });
        return deleted;
      },
      'chat:pin-tool': async (id, key, pinned) => this.pinTool(id, key, pinned),
      'chat:remove-tools': async (id, keys) => this.removeTools(id, keys),
      'chat:set-toolset': async (id, name) => {
        const conversation = this.history.get(id);
        if (name !== null) this.toolsetNamed(name);
        conversation.toolset = name;
        return this.toolsChanged(conversation);
      },
      'chat:settings': async () => this.settings.view(),
      'chat:update-settings': async (patch) => this.settings.update(patch),
      // Loaded when first used (node:http/https/dns/net are not worth loading for every CLI command).
      'chat:fetch-image': async (url) => (await import('./remote-image')).fetchRemoteImage(url, this.options.remoteImages),
      'providers:list': async () => this.providers.list(),
      'providers:configure': async (request) => {
        try {
          return this.providers.configure(request);
        } catch (error) {
          throw new CoreError('invalid-argument', error instanceof Error ? error.message : String(error));
        }
      },
      'providers:models': async (id) => this.providers.models(id),
      'providers:confirm-dotenv': async ({ values }) => {
        this.providers.confirmDotenv(values);
        return this.providers.list();
      },
      'audit:list': async ({ limit }) => this.audit.list(limit),
    };
  }

  /** Saves the conversation and tells every window what its tools are now. */
  private toolsChanged(conversation: Conversation): ConversationTools {
    void this.history.save(conversation.id);
    const tools = toolsView(conversation);
    this.options.emit({ type: 'tools-changed', conversationId: conversation.id, tools: structuredClone(tools) });
    return tools;
  }

  /** A pinned tool stays loaded when the list is trimmed (`maxLoadedTools`); only loaded tools can be pinned. */
  private pinTool(id: string, key: string, pinned: boolean): ConversationTools {
    const conversation = this.history.get(id);
    const loaded = conversation.loadedTools ?? [];
    if (pinned && !loaded.includes(key)) {
      throw new CoreError('invalid-argument', `${key} is not loaded in this conversation, so it cannot be pinned (the model loads tools with search_tools).`);
    }
    const rest = (conversation.pinnedTools ?? []).filter((k) => k !== key);
    conversation.pinnedTools = pinned ? [...rest, key] : rest;
    return this.toolsChanged(conversation);
  }

  /** Not offered from the model's next step (also in a turn running now); the model may load them again. */
  private removeTools(id: string, keys: readonly string[]): ConversationTools {
    const conversation = this.history.get(id);
    const gone = new Set(keys);
    conversation.loadedTools = (conversation.loadedTools ?? []).filter((k) => !gone.has(k));
    conversation.pinnedTools = (conversation.pinnedTools ?? []).filter((k) => !gone.has(k));
    for (const run of this.runs.values()) if (run.conversationId === id) run.unload?.(keys);
    return this.toolsChanged(conversation);
  }

  /** The set called `name`; an unknown name is refused, naming the ones there are. */
  private toolsetNamed(name: string): Toolset {
    const set = this.settings.toolset(name);
    if (set) return set;
    const names = this.settings.view().toolsets.map((t) => JSON.stringify(t.name));
    throw new CoreError(
      'invalid-argument',
      `There is no toolset ${JSON.stringify(name)} (there are: ${names.join(', ') || 'none'}). Toolsets are defined in Settings → Toolsets, or under "toolsets" in chat-settings.json.`,
    );
  }

  /** The summary with the id of the turn running in its conversation, if one is. */
  private withRun<T extends ConversationSummary>(summary: T): T {
    for (const run of this.runs.values()) if (run.conversationId === summary.id) return { ...summary, runId: run.id };
    return summary;
  }

  /** The tools the model is offered: every ready server's, minus the ones the user disabled. */
  offeredTools(): OfferedTool[] {
    const disabled = new Set(this.settings.view().disabledTools);
    return (
      this.options.tools
        .views()
        .filter((v) => v.status === 'ready' && !v.disabled)
        // A tool that changed, is new or hides text since it was trusted is never offered until a person accepts it.
        // An app-only tool (MCP Apps `visibility` without "model") is its app's alone: never the model's.
        .flatMap((v) => v.tools.filter((t) => isTrusted(t) && !isAppOnly(t)).map((info) => ({ server: v.name, tool: info.name, info })))
        .filter((t) => !disabled.has(toolKey(t)))
    );
  }

  private providerLabel(spec: string): string {
    const id = providerIds.find((p) => p === parseModelSpec(spec)?.provider) as ProviderId;
    const view = this.providers.view(id);
    return view.baseURL && view.baseURLSource !== 'default' ? `${view.label} at ${view.baseURL}` : view.label;
  }

  /** Reads the request's attachments (a failure refuses the send, naming the resource), then starts the turn. */
  async start(request: ChatSendRequest, overrides: TurnOverrides = {}): Promise<ChatSendResult> {
    const attachments = await readAttachments(request.attachments, this.options.resources);
    return this.send(request, overrides, attachments);
  }

  /**
   * Starts a turn and returns at once; the turn streams as `chat:event`s. `attachments`: the request's attached
   * resources as read (see `start`, which reads them); a request that names attachments needs them.
   */
  send(request: ChatSendRequest, overrides: TurnOverrides = {}, attachments: ChatAttachment[] = []): ChatSendResult {
    if (this.disposed) throw new CoreError('internal', 'Switchboard is shutting down.');
    if ((request.attachments?.length ?? 0) > 0 && attachments.length === 0) {
      throw new CoreError('internal', 'A message with attachments is sent with ChatService.start(), which reads them first.');
    }
    const spec = request.model ?? this.providers.defaultModel()?.value;
    if (spec === undefined) throw new CoreError('not-configured', noProviderHint);
    const model = this.providers.model(spec);
    const id = providerIds.find((p) => p === parseModelSpec(spec)?.provider);
    const output: OutputOptions = { images: id !== undefined && this.providers.view(id).api !== 'chat', maxChars: 100_000 };

    // An id the host does not know yet is one the window chose for a new conversation (see `ConversationStore.create`).
    const wanted = request.conversationId;
    const isNew = wanted === undefined || (!this.history.has(wanted) && !this.history.wasDeleted(wanted));
    const existing = isNew || wanted === undefined ? undefined : this.history.get(wanted);
    for (const run of this.runs.values()) {
      if (run.conversationId === existing?.id)
        throw new CoreError('invalid-argument', 'A reply is still being written in this conversation: stop it first, or wait.');
    }
    // Checked before anything is kept: a toolset or server that does not exist refuses the message.
    const chosen = request.toolset !== undefined ? request.toolset : existing ? existing.toolset : undefined;
    const setName = overrides.toolset ?? (chosen === null ? undefined : (chosen ?? this.settings.view().defaultToolset));
    const toolset = setName !== undefined ? this.toolsetNamed(setName) : undefined;
    if (overrides.servers) {
      const known = new Set(this.options.tools.views().map((v) => v.name));
      const unknown = overrides.servers.filter((name) => !known.has(name));
      if (unknown.length > 0) {
        throw new CoreError(
          'invalid-argument',
          `No server named ${unknown.map((n) => JSON.stringify(n)).join(', ')} in the config (there are: ${[...known].map((n) => JSON.stringify(n)).join(', ') || 'none'}).`,
        );
      }
    }
    const conversation = existing ?? this.history.create(request.text, wanted);
    if (request.toolset !== undefined) conversation.toolset = request.toolset;
    const history = toModelMessages(conversation.messages, output);
    const now = Date.now();
    const userMessage: UserMessage = {
      id: randomUUID(),
      role: 'user',
      text: request.text,
      at: now,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(request.appContext !== undefined && request.appContext.length > 0 ? { appContext: request.appContext } : {}),
      ...(request.fromApp !== undefined ? { fromApp: request.fromApp } : {}),
    };
    const assistantMessage: AssistantMessage = { id: randomUUID(), role: 'assistant', parts: [], at: now, model: spec, status: 'streaming' };
    conversation.messages.push(userMessage, assistantMessage);
    conversation.updatedAt = now;
    void this.history.save(conversation.id);

    const run: Run = {
      id: randomUUID(),
      conversationId: conversation.id,
      controller: new AbortController(),
      done: Promise.resolve(),
      pendingText: '',
      timer: undefined,
      messageId: assistantMessage.id,
    };
    this.runs.set(run.id, run);
    const base = { conversationId: conversation.id, runId: run.id };
    this.options.emit({ type: 'run-started', ...base, userMessage: structuredClone(userMessage), assistantMessage: structuredClone(assistantMessage) });
    if (isNew) this.options.emit({ type: 'conversations-changed' });

    const flushText = (): void => {
      if (run.timer) clearTimeout(run.timer);
      run.timer = undefined;
      if (run.pendingText === '') return;
      const text = run.pendingText;
      run.pendingText = '';
      this.options.emit({ type: 'text', ...base, messageId: assistantMessage.id, text });
    };
    const source = overrides.source ?? 'app';
    let turnOutcome: SpanOutcome = 'ok';
    const turn = async (): Promise<void> => {
      // The AI SDK loads with the first turn: a host that never chats (most CLI commands) never loads it.
      const [{ runTurn }, { redactKeys }] = await Promise.all([import('./run-turn'), import('./provider-errors')]);
      await this.options.tools.freshen?.();
      const filter: ToolFilter = { ...(toolset ? { toolset } : {}), ...(overrides.servers ? { servers: overrides.servers } : {}) };
      const offered = filterTools(this.offeredTools(), filter);
      const loading = effectiveLoading(overrides.toolLoading ?? this.settings.view().toolLoading, offered);
      conversation.toolMode = loading;
      this.toolsChanged(conversation);
      // The ranking library loads only when a turn searches.
      const search =
        loading === 'search'
          ? {
              index: (await import('./tool-search/tool-index')).indexFor(offered),
              loaded: conversation.loadedTools ?? [],
              onLoad: (keys: string[]) => {
                conversation.loadedTools = withLoaded(conversation.loadedTools ?? [], keys, conversation.pinnedTools ?? []);
                this.toolsChanged(conversation);
              },
              bindUnload: (unload: (keys: readonly string[]) => void) => {
                run.unload = unload;
              },
            }
          : undefined;
      const result = await runTurn({
        model,
        providerLabel: this.providerLabel(spec),
        messages: [...history, { role: 'user', content: userContent(userMessage, output) }],
        tools: offered,
        ...(search ? { search } : {}),
        ...(this.options.skills ? { skills: { skills: filterSkills(await this.options.skills.offered(), filter), source: this.options.skills } } : {}),
        // Unique in the conversation too: a reload matches cards to the calls registry by id.
        claimCallId: (modelCallId, taken) => this.claimCallId(modelCallId, (id) => taken(id) || usesCallId(conversation, id)),
        callTool: (ref, args, signal, callId) => this.options.tools.callTool(ref, args, signal, callId),
        policy: () => {
          const settings = this.settings.view();
          return { mode: overrides.approval ?? settings.approval, alwaysAllow: new Set(settings.alwaysAllow) };
        },
        ask: (req, signal) => this.ask(run, req, signal),
        allowAlways: (key) => this.settings.allowAlways(key),
        audit: this.audit,
        source,
        conversationId: conversation.id,
        maxSteps: this.settings.view().maxSteps,
        maxRetries: this.options.maxRetries ?? 2,
        output,
        signal: run.controller.signal,
        message: assistantMessage,
        onText: (delta) => {
          run.pendingText += delta;
          run.timer ??= setTimeout(flushText, this.options.textFlushMs ?? 30);
        },
        onTool: (part) => {
          flushText();
          this.options.emit({ type: 'tool', ...base, messageId: assistantMessage.id, part: structuredClone(part) });
        },
        onToolInput: (input) => {
          flushText();
          this.options.emit({ type: 'tool-input', ...base, messageId: assistantMessage.id, ...input });
        },
      }).catch((error: unknown) => ({
        status: 'error' as const,
        error: { code: 'internal', message: error instanceof Error ? error.message : String(error) },
      }));
      flushText();
      if (result.error) result.error = { ...result.error, message: redactKeys(result.error.message, this.providers.keyValues()) };
      assistantMessage.status = result.status;
      if (result.error) assistantMessage.error = result.error;
      if (result.status === 'error') turnOutcome = 'error';
      conversation.updatedAt = Date.now();
      this.runs.delete(run.id);
      if (result.error) this.options.log?.(`chat turn failed (${spec}): ${result.error.message}`);
      await this.history.save(conversation.id);
      this.options.emit({
        type: 'run-finished',
        ...base,
        messageId: assistantMessage.id,
        status: result.status,
        ...(result.error ? { error: result.error } : {}),
      });
      this.options.emit({ type: 'conversations-changed' });
    };
    // One trace per turn: every request its tool calls make carries its trace id (and, exported, is a span under it).
    run.done = traceScope(
      this.options.telemetry,
      () => ({ name: 'chat turn', attributes: { 'switchboard.kind': 'chat-turn', 'switchboard.model': spec ?? '', 'switchboard.source': source } }),
      turn,
      () => turnOutcome,
    );
    return { conversationId: conversation.id, runId: run.id, userMessage, assistantMessage: structuredClone(assistantMessage) };
  }

  /**
   * A tool the person calls directly (`/tool {…}`, the form), no model: kept in the conversation (a `direct` user
   * message with the command, then a `direct` assistant message holding the one tool part) and in the audit log
   * like the model's calls. Never rejects for the tool's sake: a failure is in the result (and the conversation).
   */
  async callDirect(raw: DirectCallRequest, source: 'app' | 'cli' = 'app'): Promise<DirectCallResult> {
    if (this.disposed) throw new CoreError('internal', 'Switchboard is shutting down.');
    const request = directCallSchema.parse(raw);
    const { server, tool, args, callId } = request;
    if (this.directCalls.has(callId) || this.modelCalls.has(callId)) throw new CoreError('invalid-argument', `A call with id "${callId}" is already running.`);
    const command = request.command?.trim() || `/${server}.${tool} ${JSON.stringify(args)}`;
    // An id the host does not know is the window's choice for a new conversation; one deleted meanwhile (another
    // window) is not worth failing the call over: it starts a new one under a fresh id.
    const wanted = request.conversationId;
    const isNew = wanted === undefined || !this.history.has(wanted);
    const conversation = isNew || wanted === undefined ? this.history.create(command, wanted) : this.history.get(wanted);
    const now = Date.now();
    const part: ToolPart = { type: 'tool', callId, server, tool, modelName: `${server}.${tool}`, args, status: 'running' };
    const message: AssistantMessage = { id: randomUUID(), role: 'assistant', parts: [part], at: now, model: 'direct', status: 'streaming', direct: true };
    const userMessage: UserMessage = { id: randomUUID(), role: 'user', text: command, at: now, direct: true };
    conversation.messages.push(userMessage, message);
    conversation.updatedAt = now;
    void this.history.save(conversation.id);
    if (isNew) this.options.emit({ type: 'conversations-changed' });
    this.options.emit({
      type: 'direct-call',
      conversationId: conversation.id,
      userMessage: structuredClone(userMessage),
      assistantMessage: structuredClone(message),
    });

    const controller = new AbortController();
    const base = { kind: 'call' as const, source, conversationId: conversation.id, callId, server, tool, args: AuditLog.shorten(args), direct: true as const };
    const run = (async (): Promise<DirectCallResult> => {
      const started = performance.now();
      try {
        const result = await this.options.tools.callTool(
          { server, tool },
          args,
          controller.signal,
          callId,
          request.task !== undefined ? { task: request.task } : undefined,
        );
        const durationMs = Math.round(performance.now() - started);
        message.parts = [{ ...part, status: result.isError === true ? 'error' : 'done', result, durationMs }];
        message.status = 'done';
        this.audit.append({ ...base, outcome: result.isError === true ? 'tool-error' : 'ok', durationMs });
        return { conversationId: conversation.id, result };
      } catch (error) {
        const durationMs = Math.round(performance.now() - started);
        const failure = toHostError(error);
        const cancelled = controller.signal.aborted || failure.code === 'cancelled';
        message.parts = [{ ...part, status: cancelled ? 'cancelled' : 'error', durationMs, ...(cancelled ? {} : { error: messageOf(error) }) }];
        message.status = cancelled ? 'stopped' : 'error';
        this.audit.append({ ...base, outcome: cancelled ? 'cancelled' : 'failed', durationMs, ...(cancelled ? {} : { detail: failure.message }) });
        return {
          conversationId: conversation.id,
          failure: cancelled && failure.code !== 'cancelled' ? { code: 'cancelled', message: 'The call was cancelled.' } : failure,
        };
      } finally {
        conversation.updatedAt = Date.now();
        await this.history.save(conversation.id);
        this.options.emit({ type: 'conversations-changed' });
      }
    })();
    this.directCalls.set(callId, { controller, done: run });
    try {
      return await run;
    } finally {
      this.directCalls.delete(callId);
    }
  }

  /**
   * The id a model's call runs under (call-ids.ts): the provider's id, or `<id>-2`, `-3`… while a running call holds
   * it or `taken` says a card of its turn or conversation has it.
   */
  private claimCallId(modelCallId: string, taken: (callId: string) => boolean): { callId: string; release(): void } {
    const callId = freeCallId(modelCallId, (id) => this.modelCalls.has(id) || this.directCalls.has(id) || taken(id));
    this.modelCalls.add(callId);
    return { callId, release: () => this.modelCalls.delete(callId) };
  }

  /** Resolves when the run is over (the CLI waits on it). */
  finished(runId: string): Promise<void> {
    return this.runs.get(runId)?.done ?? Promise.resolve();
  }

  /** Stops a run (by run id or conversation id): aborts the model and every in-flight tool call. */
  stop(id: string): boolean {
    let stopped = false;
    for (const run of this.runs.values()) {
      if (run.id === id || run.conversationId === id) {
        run.controller.abort(new Error('Stopped by the user'));
        stopped = true;
      }
    }
    return stopped;
  }

  /**
   * Answers the approval of the chat's tool call `callId` (its entry in the request queue, as `requests:answer`
   * would): once → accept, always → accept {always: true}, deny → decline. False when none is waiting.
   */
  approve(callId: string, decision: ApprovalDecision): boolean {
    const entry = this.requests
      .list()
      .find((r) => r.kind === 'tool-approval' && r.origin.callId === callId && r.origin.runId !== undefined && this.runs.has(r.origin.runId));
    if (!entry) return false;
    return this.requests.answer(
      entry.id,
      decision === 'deny' ? { action: 'decline' } : { action: 'accept', content: decision === 'always' ? { always: true } : {} },
    );
  }

  /** Puts the approval on the queue and waits for its answer (which never rejects; Stop withdraws it). */
  private async ask(run: Run, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const answer = await this.requests.ask(
      {
        kind: 'tool-approval',
        server: request.server,
        title: `The model asks to run ${request.server} › ${request.tool}`,
        payload: { tool: request.tool, ...(request.title !== undefined ? { title: request.title } : {}), args: request.args, readOnly: request.readOnly },
        origin: { runId: run.id, conversationId: run.conversationId, callId: request.callId },
      },
      // As before the queue: an approval waits until it is answered or the turn stops.
      { timeoutMs: 0, signal },
    );
    if (signal.aborted) return { decision: 'cancelled' };
    switch (answer.action) {
      case 'accept': {
        const always = typeof answer.content === 'object' && 'always' in answer.content && answer.content.always === true;
        return { decision: always ? 'always' : 'once' };
      }
      case 'decline':
        return { decision: 'deny', ...(answer.reason !== undefined ? { reason: answer.reason } : {}) };
      case 'cancel':
        return { decision: 'cancelled', ...(answer.reason !== undefined ? { reason: answer.reason } : {}) };
    }
  }

  /** Stops every run (their tool calls are cancelled) and waits for the saves. Idempotent. */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      const runs = [...this.runs.values()];
      for (const run of runs) run.controller.abort(new Error('Switchboard is shutting down'));
      const direct = [...this.directCalls.values()];
      for (const call of direct) call.controller.abort(new Error('Switchboard is shutting down'));
      await Promise.race([Promise.all([...runs.map((r) => r.done), ...direct.map((c) => c.done)]), new Promise((r) => setTimeout(r, 5000).unref())]);
      await this.history.flush();
      if (this.ownsRequests) this.requests.dispose();
    })();
    return this.disposed;
  }
}
