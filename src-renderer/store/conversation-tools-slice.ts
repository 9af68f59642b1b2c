import type { ChatSettingsPatch, Conversation, ConversationTools, Toolset } from '../../src-shared/contract/chat';
import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { SliceCreator } from './types';

/**
 * The open conversation's tools as the composer shows them: what search mode loaded (pin, remove) and its toolset.
 * The host owns them (kept with the conversation) and says when they change (`tools-changed`).
 */
export interface ConversationToolsSlice {
  conversationTools: ConversationTools | undefined;
  /** The toolset chosen before the conversation exists: sent with its first message (undefined: the default set). */
  pendingToolset: string | null | undefined;
  /** A `tools-changed` event, or what a channel answered: kept when it is the open conversation's. */
  toolsChanged(tools: ConversationTools): void;
  showConversationTools(conversation: Conversation): void;
  pinTool(key: string, pinned: boolean): Promise<void>;
  removeTools(keys: string[]): Promise<void>;
  /** The open conversation's toolset (null: all tools); before its first message, the one it will start with. */
  chooseToolset(name: string | null): Promise<void>;
  /** Saves toolsets (or the default); the host's error, when it refuses them. */
  saveToolsets(patch: ToolsetsPatch): Promise<string | undefined>;
  /**
   * Saves what `edit` makes of the sets as saved last: edits run one after another, so quick clicks each build on
   * the one before. The host's error, when it refuses one.
   */
  editToolsets(edit: (toolsets: Toolset[], defaultToolset: string | undefined) => ToolsetsPatch): Promise<string | undefined>;
}

export type ToolsetsPatch = Pick<ChatSettingsPatch, 'toolsets' | 'defaultToolset'>;

export const createConversationToolsSlice =
  (api: HostApi): SliceCreator<ConversationToolsSlice> =>
  (set, get) => {
    let saving: Promise<unknown> = Promise.resolve();
    return {
      conversationTools: undefined,
      pendingToolset: undefined,

      toolsChanged(tools) {
        if (tools.conversationId === get().activeConversationId) set({ conversationTools: tools });
      },

      showConversationTools(conversation) {
        set({
          pendingToolset: undefined,
          conversationTools: {
            conversationId: conversation.id,
            loadedTools: conversation.loadedTools ?? [],
            pinnedTools: conversation.pinnedTools ?? [],
            ...(conversation.toolset !== undefined ? { toolset: conversation.toolset } : {}),
            ...(conversation.toolMode !== undefined ? { toolMode: conversation.toolMode } : {}),
          },
        });
      },

      async pinTool(key, pinned) {
        const id = get().conversationTools?.conversationId;
        if (id === undefined) return;
        try {
          get().toolsChanged(await api['chat:pin-tool'](id, key, pinned));
        } catch (error) {
          get().addNotice(describeError(error).message);
        }
      },

      async removeTools(keys) {
        const id = get().conversationTools?.conversationId;
        if (id === undefined || keys.length === 0) return;
        try {
          get().toolsChanged(await api['chat:remove-tools'](id, keys));
        } catch (error) {
          get().addNotice(describeError(error).message);
        }
      },

      async chooseToolset(name) {
        const id = get().conversationTools?.conversationId;
        if (id === undefined || id !== get().activeConversationId) {
          set({ pendingToolset: name });
          return;
        }
        try {
          get().toolsChanged(await api['chat:set-toolset'](id, name));
        } catch (error) {
          get().addNotice(describeError(error).message);
        }
      },

      async saveToolsets(patch) {
        try {
          const chatSettings = await api['chat:update-settings'](patch);
          set({ chatSettings });
          return undefined;
        } catch (error) {
          return describeError(error).message;
        }
      },

      editToolsets(edit) {
        const run = saving.then(() => {
          const current = get().chatSettings;
          return get().saveToolsets(edit(current?.toolsets ?? [], current?.defaultToolset));
        });
        saving = run.catch(() => undefined);
        return run;
      },
    };
  };
