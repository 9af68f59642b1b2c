import { HostCallError, type HostApi, type ToolResult, type Unsubscribe } from '../../src-shared/host-api';
import {
  maxChatAttachments,
  type ApprovalDecision,
  type ChatAttachmentRef,
  type AssistantMessage,
  type AuditEntry,
  type ChatEvent,
  type ChatMessage,
  type ChatSettingsPatch,
  type ChatSettingsView,
  type ConversationSummary,
  type ProviderConfigureRequest,
  type ProviderId,
  type ProvidersView,
  type ToolPart,
  type UserMessage,
} from '../../src-shared/contract/chat';
import { helpText, parseCommand, promptArgs, resolvePrompt, resolveTool } from './command';
import { describeError } from '../host/bridge-client';
import type { PromptInsert } from './feature-types';
import type { SliceCreator } from './types';
import { i18n, providerHint } from '../i18n';

export interface ToolRef {
  server: string;
  tool: string;
}

export type CallState = 'pending' | 'ok' | 'error' | 'cancelled';

/** A tool called directly (`/add {…}` or the form), without a model. */
export interface CallEntry {
  kind: 'call';
  id: number;
  /** Sent with the call so `tools:cancel` can abort it. */
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** What started it: the typed command, or undefined for the form. */
  command: string | undefined;
  state: CallState;
  startedAt: number;
  durationMs?: number;
  /** The tool's result (also for `isError: true`, whose content explains the failure). */
  result?: ToolResult;
  /** The call failed before the tool answered (HostCallError, disconnect, cancelled). */
  failure?: { message: string; code?: string };
  cancelling?: boolean;
  cancelError?: string;
}

export interface NoticeEntry {
  kind: 'notice';
  id: number;
  tone: 'info' | 'error';
  command: string;
  message: string;
}

/** A message of the LLM conversation shown in the log. */
export interface MessageEntry {
  kind: 'message';
  id: number;
  message: ChatMessage;
}

/** A prompt's messages inserted into the conversation (from a server's prompts tab or `/prompt-name`). */
export interface PromptEntry {
  kind: 'prompt';
  id: number;
  insert: PromptInsert;
}

export type ChatEntry = CallEntry | NoticeEntry | MessageEntry | PromptEntry;

/** A remote image the user asked to see: fetched by main, shown as a data: URL. */
export type RemoteImage = { state: 'loading' } | { state: 'loaded'; dataUrl: string } | { state: 'error'; message: string };

export interface ChatSlice {
  entries: ChatEntry[];
  /** The tool whose form is open. */
  selectedTool: ToolRef | undefined;

  /** The LLM side. */
  providers: ProvidersView | undefined;
  chatSettings: ChatSettingsView | undefined;
  conversations: ConversationSummary[];
  conversationQuery: string;
  activeConversationId: string | undefined;
  /** The turn now streaming in the open conversation. */
  activeRunId: string | undefined;
  sending: boolean;
  remoteImages: Record<string, RemoteImage>;
  audit: AuditEntry[] | undefined;
  /** Which chat dialog is open. */
  chatDialog: 'providers' | 'audit' | undefined;
  historyOpen: boolean;
  /** Model ids each configured provider lists (its `/models`), fetched when the picker opens. */
  providerModels: Partial<Record<ProviderId, string[]>>;
  /** Resources to send with the next message as context for the model (read by main when it is sent). */
  attachments: ChatAttachmentRef[];
  attachResource(ref: ChatAttachmentRef): void;
  detachResource(ref: ChatAttachmentRef): void;

  /** Handles a line typed in the chat box. Returns true when the line was accepted (the box may be cleared). */
  submit(input: string): boolean;
  /** `task`: run it as a task (`io.modelcontextprotocol/tasks`) where the tool allows; task-only tools always are. */
  callTool(ref: ToolRef, args: Record<string, unknown>, command?: string, options?: { task?: boolean }): Promise<void>;
  /** Asks main to abort a running call; the card settles when the call itself returns. */
  cancelCall(id: number): Promise<void>;
  selectTool(ref: ToolRef | undefined): void;
  /** Puts a prompt's messages into the log. */
  addPromptEntry(insert: PromptInsert): void;
  /** Sends an inserted prompt's text to the model as the next user message. */
  sendPromptEntry(id: number): Promise<boolean>;
  /** Starts a new conversation (the log is emptied). */
  clearChat(): void;

  sendChat(text: string): Promise<boolean>;
  stopChat(): Promise<void>;
  approve(callId: string, decision: ApprovalDecision): Promise<void>;
  applyChatEvent(event: ChatEvent): void;
  /** Subscribes to `chat:event` and loads providers, settings and history; returns the unsubscribe. */
  followChat(): Unsubscribe;
  refreshChat(): Promise<void>;
  refreshConversations(): Promise<void>;
  searchConversations(query: string): void;
  openConversation(id: string): Promise<void>;
  renameConversation(id: string, title: string): Promise<void>;
  deleteConversation(id: string): Promise<void>;
  setModel(spec: string): Promise<void>;
  updateChatSettings(patch: ChatSettingsPatch): Promise<void>;
  configureProvider(request: ProviderConfigureRequest): Promise<void>;
  /** Confirms the working folder's `.env` choices the person saw (name → value): recorded in main, then used. */
  confirmDotenv(values: Record<string, string>): Promise<void>;
  loadRemoteImage(url: string): Promise<void>;
  loadAudit(): Promise<void>;
  loadProviderModels(): Promise<void>;
  setChatDialog(dialog: ChatSlice['chatDialog']): void;
  toggleHistory(): void;
  /** Shows a whole conversation (history, or a benchmark's). */
  showConversation(id: string, messages: ChatMessage[]): void;
}

/** The text of a prompt's messages, as one user message for the model (non-text blocks named, not sent). */
export function promptText(insert: PromptInsert): string {
  const parts = insert.messages.map((m) => {
    const c = m.content;
    const body = c.type === 'text' ? c.text : c.type === 'resource' ? (c.resource.text ?? `[${c.resource.uri}]`) : c.type === 'resource_link' ? `[${c.name}: ${c.uri}]` : `[${c.type}]`;
    return insert.messages.length > 1 || m.role !== 'user' ? `${m.role}: ${body}` : body;
  });
  return parts.join('\n\n').trim();
}

/** Whether typed text can go to a model now. */
export const canChat = (providers: ProvidersView | undefined): boolean => providers !== undefined && providers.hint === undefined && providers.model !== undefined;

function withPart(message: AssistantMessage, part: ToolPart): AssistantMessage {
  const at = message.parts.findIndex((p) => p.type === 'tool' && p.callId === part.callId);
  const parts = [...message.parts];
  if (at >= 0) parts[at] = part;
  else parts.push(part);
  return { ...message, parts };
}

function withText(message: AssistantMessage, text: string): AssistantMessage {
  const parts = [...message.parts];
  const last = parts[parts.length - 1];
  if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + text };
  else parts.push({ type: 'text', text });
  return { ...message, parts };
}

const callStates: Record<ToolPart['status'], CallState> = { 'awaiting-approval': 'pending', running: 'pending', done: 'ok', error: 'error', denied: 'error', cancelled: 'cancelled' };

/**
 * What one saved message shows as: a direct call (the person's `/tool`) as its call card again, with the command
 * from the user message before it (which is not shown on its own); anything else as a message.
 */
function conversationEntries(message: ChatMessage, previous: ChatMessage | undefined, id: () => number): ChatEntry[] {
  if (message.direct !== true) return [{ kind: 'message', id: id(), message }];
  if (message.role === 'user') return [];
  return message.parts.flatMap((part): CallEntry[] => {
    if (part.type !== 'tool') return [];
    const state = message.status === 'streaming' && part.status === 'running' ? 'error' : callStates[part.status];
    return [
      {
        kind: 'call',
        id: id(),
        callId: part.callId,
        server: part.server,
        tool: part.tool,
        args: part.args,
        command: previous?.role === 'user' && previous.direct === true ? previous.text : undefined,
        state,
        startedAt: message.at,
        ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
        ...(part.result ? { result: part.result } : {}),
        ...(part.error !== undefined
          ? { failure: { message: part.error } }
          : part.status === 'cancelled'
            ? { failure: { message: i18n.t('command.cancelled'), code: 'cancelled' } }
            : state === 'error' && !part.result
              ? { failure: { message: i18n.t('command.stoppedWhile') } }
              : {}),
      },
    ];
  });
}

export const createChatSlice =
  (api: HostApi, now: () => number = () => performance.now()): SliceCreator<ChatSlice> =>
  (set, get) => {
    let nextId = 1;
    // Call ids are unique per page load, so two windows on one host never cancel each other's calls.
    const session = Math.random().toString(36).slice(2, 10);
    const notice = (command: string, message: string, tone: NoticeEntry['tone']): void => {
      const entry: NoticeEntry = { kind: 'notice', id: nextId++, tone, command, message };
      set((s) => ({ entries: [...s.entries, entry] }));
    };
    const update = (id: number, patch: Partial<CallEntry>): void => {
      set((s) => ({
        entries: s.entries.map((e) => (e.kind === 'call' && e.id === id ? { ...e, ...patch } : e)),
      }));
    };
    const messageEntry = (message: ChatMessage): MessageEntry => ({ kind: 'message', id: nextId++, message });
    /** Adds messages not yet shown (the send reply and the run-started event may come in either order). */
    const addMessages = (messages: ChatMessage[]): void => {
      set((s) => {
        const shown = new Set(s.entries.flatMap((e) => (e.kind === 'message' ? [e.message.id] : [])));
        const fresh = messages.filter((m) => !shown.has(m.id));
        return fresh.length === 0 ? {} : { entries: [...s.entries, ...fresh.map(messageEntry)] };
      });
    };
    const updateMessage = (messageId: string, change: (m: AssistantMessage) => AssistantMessage): void => {
      set((s) => {
        // From the end: the streaming message is (nearly always) the last entry.
        for (let i = s.entries.length - 1; i >= 0; i--) {
          const e = s.entries[i];
          if (e?.kind === 'message' && e.message.id === messageId && e.message.role === 'assistant') {
            const entries = [...s.entries];
            entries[i] = { ...e, message: change(e.message) };
            return { entries };
          }
        }
        return {};
      });
    };
    const fail = (message: string): void => notice('', message, 'error');

    return {
      entries: [],
      selectedTool: undefined,
      providers: undefined,
      chatSettings: undefined,
      conversations: [],
      conversationQuery: '',
      activeConversationId: undefined,
      activeRunId: undefined,
      sending: false,
      remoteImages: {},
      audit: undefined,
      chatDialog: undefined,
      historyOpen: false,
      providerModels: {},
      attachments: [],
      attachResource(ref) {
        const { attachments } = get();
        if (attachments.some((a) => a.server === ref.server && a.uri === ref.uri)) return;
        if (attachments.length >= maxChatAttachments) {
          fail(i18n.t('chatNotices.tooManyAttachments', { count: maxChatAttachments }));
          return;
        }
        set({ attachments: [...attachments, { server: ref.server, uri: ref.uri }] });
      },
      detachResource: (ref) => set((s) => ({ attachments: s.attachments.filter((a) => !(a.server === ref.server && a.uri === ref.uri)) })),

      submit(input) {
        const command = input.trim();
        const parsed = parseCommand(command);
        switch (parsed.kind) {
          case 'empty':
            return false;
          case 'help':
            notice(command, helpText(), 'info');
            return true;
          case 'text': {
            const { providers, activeRunId } = get();
            if (!canChat(providers)) {
              notice(command, i18n.t('chatNotices.nothingToSend', { hint: providerHint(providers) ?? helpText() }), 'info');
              return true;
            }
            if (activeRunId !== undefined) {
              notice(command, i18n.t('chatNotices.replyRunning'), 'error');
              return false;
            }
            void get().sendChat(command);
            return true;
          }
          case 'invalid':
            notice(command, parsed.message, 'error');
            return false;
          case 'call': {
            const resolved = resolveTool(parsed.name, get().servers);
            if (resolved.ok) {
              void get().callTool({ server: resolved.server, tool: resolved.tool.name }, parsed.args, command);
              return true;
            }
            // No such tool: perhaps a prompt (`/prompt-name` opens its form; with all its arguments, inserts it).
            const runPrompt = (): 'done' | 'unloaded' | 'none' => {
              const prompt = resolvePrompt(parsed.name, get().servers, get().promptLists);
              if (prompt.kind === 'ambiguous') {
                notice(command, prompt.message, 'error');
                return 'done';
              }
              if (prompt.kind === 'unknown') return prompt.unloaded.length > 0 ? 'unloaded' : 'none';
              const args = promptArgs(parsed.args);
              const complete = prompt.prompt.arguments.every((a) => a.required !== true || (args[a.name] ?? '') !== '');
              if (complete && Object.keys(parsed.args).length > 0) {
                void get()
                  .insertPrompt(prompt.server, prompt.prompt.name, args)
                  .then((ok) => {
                    if (!ok) get().openPromptForm({ server: prompt.server, name: prompt.prompt.name, args });
                  });
              } else {
                get().openPromptForm({ server: prompt.server, name: prompt.prompt.name, args });
              }
              return 'done';
            };
            const first = runPrompt();
            if (first === 'done') return true;
            if (first === 'none') {
              notice(command, resolved.message, 'error');
              return false;
            }
            // Some ready server's prompts are not loaded yet: load them, then decide (the line stays in the box).
            void get()
              .loadAllPrompts()
              .then(() => {
                if (runPrompt() !== 'done') notice(command, resolved.message, 'error');
              });
            return false;
          }
        }
      },

      async callTool(ref, args, command, options) {
        const id = nextId++;
        const callId = `${session}-${id}`;
        const startedAt = now();
        const entry: CallEntry = { kind: 'call', id, callId, ...ref, args, command, state: 'pending', startedAt };
        set((s) => ({ entries: [...s.entries, entry] }));
        try {
          // Kept in the conversation (a new one when none is open) and the audit log, like the model's calls.
          const conversationId = get().activeConversationId;
          const out = await api['chat:call']({
            server: ref.server,
            tool: ref.tool,
            args,
            callId,
            ...(conversationId !== undefined ? { conversationId } : {}),
            ...(command !== undefined ? { command } : {}),
            ...(options?.task === true ? { task: true } : {}),
          });
          if (get().activeConversationId === undefined && get().entries.some((e) => e.kind === 'call' && e.id === id)) set({ activeConversationId: out.conversationId });
          if (out.failure) throw new HostCallError(out.failure);
          const result = out.result ?? { content: [] };
          update(id, { state: result.isError === true ? 'error' : 'ok', result, durationMs: now() - startedAt });
        } catch (error) {
          const failure = describeError(error);
          const state = failure.code === 'cancelled' ? 'cancelled' : 'error';
          update(id, { state, failure, durationMs: now() - startedAt });
        } finally {
          get().clearProgress(callId);
        }
      },

      async cancelCall(id) {
        const entry = get().entries.find((e): e is CallEntry => e.kind === 'call' && e.id === id);
        if (!entry || entry.state !== 'pending' || entry.cancelling) return;
        update(id, { cancelling: true });
        try {
          await api['tools:cancel'](entry.callId);
        } catch (error) {
          update(id, { cancelling: false, cancelError: describeError(error).message });
        }
      },

      selectTool: (selectedTool) => set({ selectedTool, ...(selectedTool ? { promptForm: undefined } : {}) }),
      addPromptEntry(insert) {
        const entry: PromptEntry = { kind: 'prompt', id: nextId++, insert };
        set((s) => ({ entries: [...s.entries, entry] }));
      },
      async sendPromptEntry(id) {
        const entry = get().entries.find((e): e is PromptEntry => e.kind === 'prompt' && e.id === id);
        if (!entry) return false;
        const text = promptText(entry.insert);
        if (text === '') {
          fail(i18n.t('chatNotices.promptEmpty'));
          return false;
        }
        if (get().activeRunId !== undefined) {
          fail(i18n.t('chatNotices.replyRunning'));
          return false;
        }
        return get().sendChat(text);
      },
      clearChat: () => set({ entries: [], activeConversationId: undefined, activeRunId: undefined }),

      async sendChat(text) {
        const conversationId = get().activeConversationId;
        const attachments = get().attachments;
        set({ sending: true });
        try {
          const started = await api['chat:send']({ text, ...(conversationId ? { conversationId } : {}), ...(attachments.length > 0 ? { attachments } : {}) });
          // Sent with this message; what was attached meanwhile stays for the next.
          set((s) => ({ attachments: s.attachments.filter((a) => !attachments.includes(a)) }));
          const userMessage: UserMessage = started.userMessage;
          if (get().activeConversationId === undefined || get().activeConversationId === started.conversationId) {
            set({ activeConversationId: started.conversationId });
            addMessages([userMessage, started.assistantMessage]);
            // The turn may already be over (a fast error) by the time the reply arrives.
            const shown = get().entries.find((e) => e.kind === 'message' && e.message.id === started.assistantMessage.id);
            if (shown?.kind === 'message' && shown.message.role === 'assistant' && shown.message.status === 'streaming') set({ activeRunId: started.runId });
          }
          return true;
        } catch (error) {
          notice(text, describeError(error).message, 'error');
          return false;
        } finally {
          set({ sending: false });
        }
      },

      async stopChat() {
        const { activeRunId, activeConversationId } = get();
        const id = activeRunId ?? activeConversationId;
        if (id === undefined) return;
        try {
          await api['chat:stop'](id);
        } catch (error) {
          fail(i18n.t('chatNotices.stopFailed', { error: describeError(error).message }));
        }
      },

      async approve(callId, decision) {
        try {
          const waiting = await api['chat:approve'](callId, decision);
          if (!waiting) fail(i18n.t('chatNotices.decisionGone'));
        } catch (error) {
          fail(i18n.t('chatNotices.decisionFailed', { error: describeError(error).message }));
        }
      },

      applyChatEvent(event) {
        if (event.type === 'conversations-changed') {
          void get().refreshConversations();
          return;
        }
        const { activeConversationId, sending } = get();
        if (event.conversationId !== activeConversationId && !(activeConversationId === undefined && sending && event.type === 'run-started')) return;
        switch (event.type) {
          case 'run-started':
            set({ activeConversationId: event.conversationId, activeRunId: event.runId });
            addMessages([event.userMessage, event.assistantMessage]);
            break;
          case 'text':
            updateMessage(event.messageId, (m) => withText(m, event.text));
            break;
          case 'tool':
            updateMessage(event.messageId, (m) => withPart(m, event.part));
            break;
          case 'run-finished':
            updateMessage(event.messageId, (m) => ({ ...m, status: event.status, ...(event.error ? { error: event.error } : {}) }));
            if (get().activeRunId === event.runId || get().activeRunId === undefined) set({ activeRunId: undefined });
            break;
        }
      },

      followChat() {
        const off = api.on('chat:event', (event) => get().applyChatEvent(event));
        void get()
          .refreshChat()
          .then(() => {
            // Resume after a restart: reopen the most recent conversation, unless the user started something already.
            const latest = get().conversations[0];
            if (latest && get().activeConversationId === undefined && get().entries.length === 0) void get().openConversation(latest.id);
          });
        return off;
      },

      async refreshChat() {
        try {
          const [providers, chatSettings] = await Promise.all([api['providers:list'](), api['chat:settings']()]);
          set({ providers, chatSettings });
        } catch (error) {
          console.warn('chat settings could not be read', describeError(error).message);
        }
        await get().refreshConversations();
      },

      async refreshConversations() {
        const query = get().conversationQuery;
        try {
          const conversations = await api['chat:list'](query.trim() ? { query } : {});
          if (get().conversationQuery === query) set({ conversations });
        } catch (error) {
          console.warn('chat:list failed', describeError(error).message);
        }
      },

      searchConversations(query) {
        set({ conversationQuery: query });
        void get().refreshConversations();
      },

      async openConversation(id) {
        try {
          const conversation = await api['chat:get'](id);
          get().showConversation(conversation.id, conversation.messages);
          const streaming = conversation.messages.some((m) => m.role === 'assistant' && m.status === 'streaming');
          if (!streaming) set({ activeRunId: undefined });
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      showConversation(id, messages) {
        set({ activeConversationId: id, activeRunId: undefined, entries: messages.flatMap((m, i) => conversationEntries(m, messages[i - 1], () => nextId++)) });
      },

      async renameConversation(id, title) {
        try {
          await api['chat:rename'](id, title);
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      async deleteConversation(id) {
        try {
          await api['chat:delete'](id);
          if (get().activeConversationId === id) get().clearChat();
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      async setModel(spec) {
        await get().updateChatSettings({ model: spec });
      },

      async updateChatSettings(patch) {
        try {
          const chatSettings = await api['chat:update-settings'](patch);
          const providers = await api['providers:list']();
          set({ chatSettings, providers });
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      async configureProvider(request) {
        const providers = await api['providers:configure'](request);
        set({ providers });
        // Setting up a provider leads straight to chatting: the picker offers its models, and when the chosen
        // model cannot be used (another provider's, not set up), the new provider's first model is taken.
        const view = providers.providers.find((p) => p.id === request.id);
        if (!view?.configured) return;
        await get().loadProviderModels();
        const first = get().providerModels[request.id]?.[0] ?? view.models[0];
        if (get().providers?.hint !== undefined && first !== undefined) await get().setModel(`${request.id}:${first}`);
      },

      async confirmDotenv(values) {
        try {
          set({ providers: await api['providers:confirm-dotenv']({ values }) });
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      async loadRemoteImage(url) {
        const current = get().remoteImages[url];
        if (current?.state === 'loading' || current?.state === 'loaded') return;
        set((s) => ({ remoteImages: { ...s.remoteImages, [url]: { state: 'loading' } } }));
        try {
          const { dataUrl } = await api['chat:fetch-image'](url);
          set((s) => ({ remoteImages: { ...s.remoteImages, [url]: { state: 'loaded', dataUrl } } }));
        } catch (error) {
          set((s) => ({ remoteImages: { ...s.remoteImages, [url]: { state: 'error', message: describeError(error).message } } }));
        }
      },

      async loadProviderModels() {
        const configured = (get().providers?.providers ?? []).filter((p) => p.configured);
        const lists = await Promise.all(configured.map(async (p) => [p.id, await api['providers:models'](p.id).catch(() => p.models)] as const));
        set({ providerModels: Object.fromEntries(lists) });
      },

      async loadAudit() {
        try {
          set({ audit: await api['audit:list']({ limit: 500 }) });
        } catch (error) {
          fail(describeError(error).message);
        }
      },

      setChatDialog: (chatDialog) => {
        set({ chatDialog });
        if (chatDialog === 'audit') void get().loadAudit();
      },
      toggleHistory: () => set((s) => ({ historyOpen: !s.historyOpen })),
    };
  };
