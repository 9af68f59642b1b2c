import type { ConversationSummary } from '../../src-shared/contract/chat';
import type { HostApi, Unsubscribe } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { SliceCreator } from './types';

/** The chat's saved conversations: the history sidebar, search, opening, renaming and deleting one. */
export interface ConversationsSlice {
  conversations: ConversationSummary[];
  conversationQuery: string;
  historyOpen: boolean;
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
      await get().refreshProviders();
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
