import { HostCallError, type HostApi } from '../../src-shared/host-api';
import {
  maxChatAttachments,
  type AppMessageSource,
  type ApprovalDecision,
  type AssistantMessage,
  type ChatAttachmentRef,
  type ChatEvent,
  type ChatMessage,
  type UserMessage,
} from '../../src-shared/contract/chat';
import { describeError } from '../host/bridge-client';
import { i18n, providerHint } from '../i18n';
import { argumentProblems, argumentProblemsText } from '../ui/check-args';
import { helpText, parseCommand, promptArgs, resolvePrompt, resolveTool } from './command';
import type { PromptInsert } from './feature-types';
import { appContextToSend } from './apps-slice';
import { canChat } from './providers-slice';
import {
  conversationEntries,
  promptText,
  withPart,
  withText,
  type CallEntry,
  type ChatEntry,
  type MessageEntry,
  type NoticeEntry,
  type PromptEntry,
  type RemoteImage,
  type ToolRef,
} from './transcript-entries';
import type { SliceCreator } from './types';

/** A tool call with an app whose arguments the model is still writing: shown as a preview of the app. */
export interface ToolInputPreview {
  modelCallId: string;
  server: string;
  tool: string;
  /** The arguments so far (partial JSON made whole). */
  args: Record<string, unknown>;
}

/** The open conversation's log: typed lines, direct tool calls, the model's turn as it streams, inserted prompts. */
export interface TranscriptSlice {
  entries: ChatEntry[];
  /**
   * Per assistant message id, its calls still being written (`tool-input` events), until the call's own part
   * arrives or the turn ends. Never stored.
   */
  toolInputs: Record<string, ToolInputPreview[]>;
  /** The tool whose form is open. */
  selectedTool: ToolRef | undefined;
  activeConversationId: string | undefined;
  /** The turn now streaming in the open conversation. */
  activeRunId: string | undefined;
  sending: boolean;
  remoteImages: Record<string, RemoteImage>;
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
  /**
   * Settles running call cards from the host's calls (`hostCalls`; only those of `callIds` when given): a finished
   * call with its result; a card this window no longer waits on (`detached`) whose call the listed host does not
   * know, as not finished (the host stopped while it ran).
   */
  settleCalls(callIds?: readonly string[]): void;
  /** The connection is gone for good: a card whose call this window can no longer follow says so. */
  hostLost(reason: string): void;
  selectTool(ref: ToolRef | undefined): void;
  /** Puts a prompt's messages into the log. */
  addPromptEntry(insert: PromptInsert): void;
  /** Sends an inserted prompt's text to the model as the next user message. */
  sendPromptEntry(id: number): Promise<boolean>;
  /** Shows a notice in the log (`command`: the line it answers; none for a failure of its own). */
  addNotice(message: string, tone?: NoticeEntry['tone'], command?: string): void;
  /** Starts a new conversation (the log is emptied). */
  clearChat(): void;

  /**
   * Sends `text` as the next user message, with what was attached and what apps keep for the model in this
   * conversation (both leave the box once sent: the message carries them). `fromApp`: it is an app's `ui/message`.
   */
  sendChat(text: string, options?: { fromApp?: AppMessageSource }): Promise<boolean>;
  stopChat(): Promise<void>;
  approve(callId: string, decision: ApprovalDecision): Promise<void>;
  applyChatEvent(event: ChatEvent): void;
  loadRemoteImage(url: string): Promise<void>;
  /** Shows a whole conversation (history, or a benchmark's). */
  showConversation(id: string, messages: ChatMessage[]): void;
}

/** A new conversation's id, chosen by the window (random; `crypto.randomUUID` needs a secure context, this does not). */
function newConversationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `c-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export const createTranscriptSlice =
  (api: HostApi, now: () => number = () => performance.now()): SliceCreator<TranscriptSlice> =>
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
    const setToolInputs = (messageId: string, change: (previews: ToolInputPreview[]) => ToolInputPreview[]): void => {
      set((s) => {
        const before = s.toolInputs[messageId] ?? [];
        const after = change(before);
        if (after === before) return {};
        const { [messageId]: _dropped, ...rest } = s.toolInputs;
        return { toolInputs: after.length > 0 ? { ...rest, [messageId]: after } : rest };
      });
    };
    /** The call already has its part in the message: its arguments are complete. */
    const hasPart = (messageId: string, modelCallId: string): boolean =>
      get().entries.some(
        (e) =>
          e.kind === 'message' &&
          e.message.id === messageId &&
          e.message.role === 'assistant' &&
          e.message.parts.some((p) => p.type === 'tool' && (p.modelCallId ?? p.callId) === modelCallId),
      );

    return {
      entries: [],
      toolInputs: {},
      selectedTool: undefined,
      activeConversationId: undefined,
      activeRunId: undefined,
      sending: false,
      remoteImages: {},
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
              // Checked as the tool's form checks it; the line stays in the box to be fixed.
              const problems = argumentProblems(resolved.tool.inputSchema, parsed.args);
              if (problems.length > 0) {
                notice(command, argumentProblemsText(resolved.tool.name, problems), 'error');
                return false;
              }
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
        const sentConnected = get().connection.status === 'open';
        try {
          // Kept in the conversation and the audit log, like the model's calls. With none open, one is opened now
          // under an id chosen here: a second call sent before this one answers goes to the same conversation.
          let conversationId = get().activeConversationId;
          if (conversationId === undefined) {
            conversationId = newConversationId();
            set({ activeConversationId: conversationId });
          }
          const out = await api['chat:call']({
            server: ref.server,
            tool: ref.tool,
            args,
            callId,
            conversationId,
            ...(command !== undefined ? { command } : {}),
            ...(options?.task === true ? { task: true } : {}),
          });
          // The host started another one (this one was deleted meanwhile, in another window): follow it.
          if (out.conversationId !== conversationId && get().activeConversationId === conversationId) set({ activeConversationId: out.conversationId });
          if (out.failure) throw new HostCallError(out.failure);
          const result = out.result ?? { content: [] };
          update(id, { state: result.isError === true ? 'error' : 'ok', result, durationMs: now() - startedAt });
        } catch (error) {
          const failure = describeError(error);
          // The connection dropped while the call ran in the host: it goes on there, and the host's calls settle the
          // card once the connection is back (a call sent while disconnected never started, and fails here).
          if (failure.code === 'disconnected' && sentConnected) {
            update(id, { detached: true });
            return;
          }
          const state = failure.code === 'cancelled' ? 'cancelled' : 'error';
          update(id, { state, failure, durationMs: now() - startedAt });
        }
        get().clearProgress(callId);
      },

      settleCalls(callIds) {
        const { hostCalls, hostCallsListed } = get();
        const only = callIds === undefined ? undefined : new Set(callIds);
        set((s) => {
          let changed = false;
          const entries = s.entries.map((e) => {
            if (e.kind !== 'call' || e.state !== 'pending' || (only !== undefined && !only.has(e.callId))) return e;
            const call = hostCalls[e.callId];
            if (call === undefined) {
              if (e.detached !== true || !hostCallsListed) return e;
              changed = true;
              return { ...e, state: 'error' as const, failure: { message: i18n.t('command.stoppedWhile') } };
            }
            if (call.state === 'running') return e;
            changed = true;
            const settled: CallEntry = { ...e, state: call.state, cancelling: false };
            delete settled.detached;
            if (call.result) settled.result = call.result;
            else if (call.resultNotKept) settled.resultNotKept = true;
            if (call.failure) settled.failure = call.failure;
            if (call.finishedAt !== undefined) settled.durationMs = call.finishedAt - call.startedAt;
            return settled;
          });
          return changed ? { entries } : {};
        });
      },

      hostLost(reason) {
        set((s) => {
          if (!s.entries.some((e) => e.kind === 'call' && e.state === 'pending' && e.detached === true)) return {};
          return {
            entries: s.entries.map((e) =>
              e.kind === 'call' && e.state === 'pending' && e.detached === true
                ? { ...e, state: 'error' as const, failure: { code: 'disconnected', message: i18n.t('call.hostLost', { reason }) } }
                : e,
            ),
          };
        });
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
      addNotice: (message, tone = 'error', command = '') => notice(command, message, tone),
      clearChat: () =>
        set({ entries: [], toolInputs: {}, activeConversationId: undefined, activeRunId: undefined, conversationTools: undefined, pendingToolset: undefined }),

      async sendChat(text, options) {
        const conversationId = get().activeConversationId;
        const attachments = get().attachments;
        const contexts = get().appContexts[conversationId ?? ''] ?? [];
        const appContext = appContextToSend(contexts);
        const toolset = get().pendingToolset;
        set({ sending: true });
        try {
          const started = await api['chat:send']({
            text,
            ...(conversationId ? { conversationId } : {}),
            ...(attachments.length > 0 ? { attachments } : {}),
            ...(appContext.length > 0 ? { appContext } : {}),
            ...(options?.fromApp ? { fromApp: options.fromApp } : {}),
            ...(toolset !== undefined ? { toolset } : {}),
          });
          if (get().pendingToolset === toolset) set({ pendingToolset: undefined });
          // Sent with this message; what was attached (or an app updated) meanwhile stays for the next.
          set((s) => ({ attachments: s.attachments.filter((a) => !attachments.includes(a)) }));
          if (contexts.length > 0) get().dropAppContexts(conversationId ?? '', contexts);
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
        if (event.type === 'tools-changed') {
          get().toolsChanged(event.tools);
          return;
        }
        const { activeConversationId, sending } = get();
        if (event.conversationId !== activeConversationId && !(activeConversationId === undefined && sending && event.type === 'run-started')) return;
        switch (event.type) {
          case 'direct-call': {
            // Made in another window (this one already shows the card of a call it made): its card, settled by the
            // host's calls as a restored card is. Settled now only if the host already told how it ended.
            const callIds = event.assistantMessage.parts.flatMap((p) => (p.type === 'tool' ? [p.callId] : []));
            if (get().entries.some((e) => e.kind === 'call' && callIds.includes(e.callId))) break;
            // The direct user message has no entry of its own: its command shows on the call's card.
            set((s) => ({ entries: [...s.entries, ...conversationEntries(event.assistantMessage, event.userMessage, () => nextId++)] }));
            const known = callIds.filter((id) => get().hostCalls[id] !== undefined);
            if (known.length > 0) get().settleCalls(known);
            break;
          }
          case 'run-started':
            set({ activeConversationId: event.conversationId, activeRunId: event.runId });
            addMessages([event.userMessage, event.assistantMessage]);
            break;
          case 'text':
            updateMessage(event.messageId, (m) => withText(m, event.text));
            break;
          case 'tool': {
            const id = event.part.modelCallId ?? event.part.callId;
            setToolInputs(event.messageId, (previews) =>
              previews.some((p) => p.modelCallId === id) ? previews.filter((p) => p.modelCallId !== id) : previews,
            );
            updateMessage(event.messageId, (m) => withPart(m, event.part));
            break;
          }
          case 'tool-input': {
            if (hasPart(event.messageId, event.modelCallId)) break;
            const preview: ToolInputPreview = { modelCallId: event.modelCallId, server: event.server, tool: event.tool, args: event.args };
            setToolInputs(event.messageId, (previews) =>
              previews.some((p) => p.modelCallId === event.modelCallId)
                ? previews.map((p) => (p.modelCallId === event.modelCallId ? preview : p))
                : [...previews, preview],
            );
            break;
          }
          case 'run-finished':
            setToolInputs(event.messageId, () => []);
            updateMessage(event.messageId, (m) => ({ ...m, status: event.status, ...(event.error ? { error: event.error } : {}) }));
            if (get().activeRunId === event.runId || get().activeRunId === undefined) set({ activeRunId: undefined });
            break;
        }
      },

      showConversation(id, messages) {
        set({
          activeConversationId: id,
          activeRunId: undefined,
          toolInputs: {},
          entries: messages.flatMap((m, i) => conversationEntries(m, messages[i - 1], () => nextId++)),
        });
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
    };
  };
