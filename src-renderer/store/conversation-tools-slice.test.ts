import { describe, expect, it, vi } from 'vitest';
import type {
  AssistantMessage,
  ChatSendRequest,
  ChatSettingsPatch,
  ConversationTools,
  ProvidersView,
  Toolset,
  UserMessage,
} from '../../src-shared/contract/chat';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const user: UserMessage = { id: 'u1', role: 'user', text: 'hi', at: 1 };
const assistant: AssistantMessage = { id: 'a1', role: 'assistant', parts: [], at: 1, model: 'openai:m', status: 'streaming' };
const tools = (conversationId: string, loadedTools: string[] = []): ConversationTools => ({ conversationId, loadedTools, pinnedTools: [], toolMode: 'search' });

describe('conversation tools slice', () => {
  it('the toolset chosen before the first message goes with it; then changes go to chat:set-toolset', async () => {
    const sent: ChatSendRequest[] = [];
    const setToolset = vi.fn(async (id: string, name: string | null) => ({ ...tools(id), toolset: name }));
    const { client } = fakeHost({
      'chat:send': vi.fn(async (request: ChatSendRequest) => {
        sent.push(request);
        return { conversationId: 'c1', runId: 'r1', userMessage: user, assistantMessage: assistant };
      }),
      'chat:set-toolset': setToolset,
    });
    const store = createAppStore(client);
    await store.getState().chooseToolset('math');
    expect(setToolset).not.toHaveBeenCalled();
    await store.getState().sendChat('hi');
    expect(sent[0]).toMatchObject({ text: 'hi', toolset: 'math' });
    expect(store.getState().pendingToolset).toBeUndefined();

    // The host says what the conversation's tools are; another conversation's news is not this one's.
    store.getState().applyChatEvent({ type: 'tools-changed', conversationId: 'c1', tools: { ...tools('c1', ['dev/a']), toolset: 'math' } });
    store.getState().applyChatEvent({ type: 'tools-changed', conversationId: 'other', tools: tools('other', ['dev/b']) });
    expect(store.getState().conversationTools).toMatchObject({ conversationId: 'c1', loadedTools: ['dev/a'], toolset: 'math' });

    await store.getState().chooseToolset(null);
    expect(setToolset).toHaveBeenCalledWith('c1', null);
    expect(store.getState().conversationTools?.toolset).toBeNull();
    store.getState().clearChat();
    expect(store.getState().conversationTools).toBeUndefined();
  });

  it('quick toolset edits each build on the one saved before (two clicks in a row keep both)', async () => {
    const patches: unknown[] = [];
    const { client } = fakeHost({
      'chat:update-settings': vi.fn(async (patch: { toolsets?: unknown[] }) => {
        patches.push(patch);
        await new Promise((r) => setTimeout(r, 20));
        return {
          approval: 'ask' as const,
          maxSteps: 10,
          disabledTools: [],
          alwaysAllow: [],
          toolLoading: 'auto' as const,
          toolsets: (patch.toolsets ?? []) as [],
        };
      }),
    });
    const store = createAppStore(client);
    const add = (name: string) => store.getState().editToolsets((sets) => ({ toolsets: [...sets, { name }] }));
    const [first, second] = await Promise.all([add('a'), add('b')]);
    expect([first, second]).toEqual([undefined, undefined]);
    expect(patches).toEqual([{ toolsets: [{ name: 'a' }] }, { toolsets: [{ name: 'a' }, { name: 'b' }] }]);
    expect(store.getState().chatSettings?.toolsets).toEqual([{ name: 'a' }, { name: 'b' }]);
  });
  it('a toolset added while another setting is still being saved is kept (the older reply does not undo it)', async () => {
    let listProviders: (() => void) | undefined;
    let saved: Toolset[] = [];
    const { client } = fakeHost({
      'chat:update-settings': vi.fn(async (patch: { toolsets?: unknown[]; toolLoading?: ChatSettingsPatch['toolLoading'] }) => {
        if (patch.toolsets) saved = patch.toolsets as Toolset[];
        return { approval: 'ask' as const, maxSteps: 10, disabledTools: [], alwaysAllow: [], toolLoading: patch.toolLoading ?? 'auto', toolsets: saved };
      }),
      'providers:list': vi.fn(() => new Promise<ProvidersView>((resolve) => (listProviders = () => resolve({ providers: [] })))),
    });
    const store = createAppStore(client);
    const loading = store.getState().updateChatSettings({ toolLoading: 'all' });
    await vi.waitFor(() => expect(listProviders).toBeDefined());
    await store.getState().editToolsets((sets) => ({ toolsets: [...sets, { name: 'math' }] }));
    listProviders?.();
    await loading;
    expect(store.getState().chatSettings?.toolsets).toEqual([{ name: 'math' }]);
  });
});
