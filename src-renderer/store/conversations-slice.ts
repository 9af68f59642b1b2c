import type { ConversationSummary } from '../../src-shared/contract/chat';
import type { HostApi, Unsubscribe } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { SliceCreator } from './types';

/** The chat's saved conversations: the history sidebar, search, opening, renaming and deleting one. */
export interface ConversationsSlice {
  conversations: ConversationSummary[];
  conversationQuery: string;
  historyOpen: boolean;
  /**
   * Whether the first load of the chat (reopening the conversation to resume) is over: until then the calls a
   * server's request names may be on their way to the screen, so the request waits for its card.
   */
  chatResumed: boolean;
  /** Subscribes to `chat:event` and loads providers, settings and history; returns the unsubscribe. */
  followChat(): Unsubscribe;
  /** Loads providers, settings and history again (after a reconnect). */
  refreshChat(): Promise<void>;
  refreshConversations(): Promise<void>;
  searchConversations(query: string): void;
  openConversation(id: string): Promise<void>;
  renameConversation(id: string, title: string): Promise<void>;
  deleteConversation(id: string): Promise<void>;
  toggleHistory(): void;
}

export const createConversationsSlice =
  (api: HostApi): SliceCreator<ConversationsSlice> =>
  (set, get) => ({
    conversations: [],
    conversationQuery: '',
    historyOpen: false,
    chatResumed: false,

    followChat() {
      const off = api.on('chat:event', (event) => get().applyChatEvent(event));
      void get()
        .refreshChat()
        .then(() => {
          // Resume after a reload or a restart: reopen the conversation whose turn the host is running, else the most
          // recent one, unless the user started something already.
          const { conversations } = get();
          const resume = conversations.find((c) => c.runId !== undefined) ?? conversations[0];
          if (resume && get().activeConversationId === undefined && get().entries.length === 0) return get().openConversation(resume.id);
        })
        .finally(() => set({ chatResumed: true }));
      return off;
    },

    async refreshChat() {
      await get().refreshProviders();
      await get().refreshConversations();
      // A turn that went on while the connection was down streamed events this window missed: read it again.
      const { activeRunId, activeConversationId } = get();
      if (activeRunId !== undefined && activeConversationId !== undefined) await get().openConversation(activeConversationId);
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
        // Shown at once, so the turn's events that follow the reply apply to it.
        get().showConversation(conversation.id, conversation.messages);
        get().showConversationTools(conversation);
        // The host's running turn in it, if any: its events go on streaming here, and Stop reaches it.
        set({ activeRunId: conversation.runId });
        // Listed after the conversation was read, so a call it shows running is listed running or finished (which
        // settles its card), or not at all: then the host stopped while it ran.
        await get().loadCalls();
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },

    async renameConversation(id, title) {
      try {
        await api['chat:rename'](id, title);
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },

    async deleteConversation(id) {
      try {
        await api['chat:delete'](id);
        if (get().activeConversationId === id) get().clearChat();
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },
    toggleHistory: () => set((s) => ({ historyOpen: !s.historyOpen })),
  });
