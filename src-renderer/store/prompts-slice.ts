import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { resourceKey, type PromptListState, type PromptResultState } from './feature-types';
import { latestLoads } from './latest-load';
import type { SliceCreator } from './types';

/** The prompt the composer's `/prompt-name` opened, with what was typed after it. */
export interface PromptFormRef {
  server: string;
  name: string;
  args: Record<string, string>;
}

/**
 * Prompt lists per server (fetched when the tab opens or when `/` is typed, again on `features:changed`), prompt
 * results, and "insert into conversation": the messages become an entry of the chat log.
 */
export interface PromptsSlice {
  promptLists: Record<string, PromptListState>;
  /** Keyed by resourceKey(server, prompt name). */
  promptResults: Record<string, PromptResultState>;
  promptForm: PromptFormRef | undefined;
  loadPrompts(server: string): Promise<void>;
  /** Loads the lists of every ready server that offers prompts and has none loaded yet. */
  loadAllPrompts(): Promise<void>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<PromptResultState>;
  /** Gets the prompt and puts its messages into the conversation (and shows the chat). */
  insertPrompt(server: string, name: string, args: Record<string, string>): Promise<boolean>;
  openPromptForm(ref: PromptFormRef | undefined): void;
}

/** Whether a server may have prompts worth asking for (ready; and, when it says what it offers, prompts). */
export const offersPrompts = (server: { status: string; disabled: boolean; capabilities?: { prompts: boolean } }): boolean =>
  server.status === 'ready' && !server.disabled && server.capabilities?.prompts !== false;

export const createPromptsSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<PromptsSlice> =>
  (set, get) => {
    const loadList = latestLoads(now);
    const getFetch = new Map<string, number>();
    let seq = 0;
    return {
      promptLists: {},
      promptResults: {},
      promptForm: undefined,

      async loadPrompts(server) {
        await loadList(
          server,
          get().promptLists[server],
          () => api['prompts:list'](server),
          (state) => set((s) => ({ promptLists: { ...s.promptLists, [server]: state } })),
        );
      },

      async loadAllPrompts() {
        const missing = get().servers.filter((s) => offersPrompts(s) && get().promptLists[s.name] === undefined);
        await Promise.all(missing.map((s) => get().loadPrompts(s.name)));
      },

      async getPrompt(server, name, args) {
        const key = resourceKey(server, name);
        const at = ++seq;
        getFetch.set(key, at);
        set((s) => ({ promptResults: { ...s.promptResults, [key]: { state: 'loading', args } } }));
        let result: PromptResultState;
        try {
          const value = await api['prompts:get']({ server, name, args });
          result = { state: 'ok', value, at: now(), args };
        } catch (error) {
          result = { state: 'error', message: describeError(error).message, args };
        }
        if (getFetch.get(key) === at) set((s) => ({ promptResults: { ...s.promptResults, [key]: result } }));
        return result;
      },

      async insertPrompt(server, name, args) {
        const result = await get().getPrompt(server, name, args);
        if (result.state !== 'ok') return false;
        get().addPromptEntry({
          server,
          prompt: name,
          args,
          ...(result.value.description ? { description: result.value.description } : {}),
          messages: result.value.messages,
        });
        set({ promptForm: undefined, serverPage: undefined, screen: 'chat' });
        return true;
      },

      openPromptForm: (promptForm) => set({ promptForm, ...(promptForm ? { selectedTool: undefined } : {}) }),
    };
  };
