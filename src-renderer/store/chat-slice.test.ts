import { describe, expect, it, vi } from 'vitest';
import type { AssistantMessage, ChatEvent, ChatSendResult, ProvidersView, UserMessage } from '../../src-shared/contract/chat';
import type { HostApi } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const fakeHost_ = (overrides: Partial<HostApi> = {}) => fakeHost(overrides, []);

const providers: ProvidersView = { providers: [], model: 'openai:m', modelSource: 'env' };
const user: UserMessage = { id: 'u1', role: 'user', text: 'what is 2+3', at: 1 };
const assistant: AssistantMessage = { id: 'a1', role: 'assistant', parts: [], at: 1, model: 'openai:m', status: 'streaming' };
const base = { conversationId: 'c1', runId: 'r1' };

describe('chat slice', () => {
  it('resumes the most recent conversation on start', async () => {
    const summary = (id: string, updatedAt: number) => ({ id, title: id, createdAt: 1, updatedAt, messageCount: 2 });
    const get = vi.fn(async (id: string) => ({ ...summary(id, 2), messages: [user, { ...assistant, status: 'done' as const }] }));
    const { client } = fakeHost_({ 'chat:list': vi.fn(async () => [summary('latest', 2), summary('older', 1)]), 'chat:get': get });
    const store = createAppStore(client);
    const off = store.getState().followChat();
    await vi.waitFor(() => expect(store.getState().activeConversationId).toBe('latest'));
    expect(get).toHaveBeenCalledWith('latest');
    expect(store.getState().entries.length).toBe(2);
    off();
  });

  it('does not replace what the user already started', async () => {
    const get = vi.fn();
    const { client } = fakeHost_({ 'chat:list': vi.fn(async () => [{ id: 'c', title: 'c', createdAt: 1, updatedAt: 1, messageCount: 1 }]), 'chat:get': get });
    const store = createAppStore(client);
    store.getState().showConversation('mine', [user]);
    const off = store.getState().followChat();
    await vi.waitFor(() => expect(store.getState().conversations.length).toBe(1));
    expect(get).not.toHaveBeenCalled();
    expect(store.getState().activeConversationId).toBe('mine');
    off();
  });

  it("confirming the working folder's .env choices sends exactly the values shown and takes the new view", async () => {
    const waiting: ProvidersView = { ...providers, unconfirmed: { file: '/repo/.env', choices: [{ name: 'OLLAMA_BASE_URL', value: 'http://127.0.0.1:9/v1', provider: 'ollama' }] } };
    const after: ProvidersView = { ...providers, route: { provider: 'ollama', label: 'Ollama', model: 'm', endpoint: 'http://127.0.0.1:9/v1', modelSource: 'settings', endpointSource: 'dotenv' } };
    const confirm = vi.fn(async () => after);
    const { client } = fakeHost_({ 'providers:list': vi.fn(async () => waiting), 'chat:settings': vi.fn(), 'providers:confirm-dotenv': confirm });
    const store = createAppStore(client);
    await store.getState().refreshChat();
    expect(store.getState().providers?.unconfirmed?.choices).toHaveLength(1);
    await store.getState().confirmDotenv({ OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(confirm).toHaveBeenCalledWith({ values: { OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(store.getState().providers).toEqual(after);
  });

  it('without a provider, text gets a notice that says how to add one', async () => {
    const { client } = fakeHost_({ 'providers:list': vi.fn(async () => ({ providers: [], hint: 'No LLM provider is configured. Add one.' })), 'chat:settings': vi.fn() });
    const store = createAppStore(client);
    await store.getState().refreshChat();
    expect(store.getState().submit('hello')).toBe(true);
    const last = store.getState().entries.at(-1);
    expect(last).toMatchObject({ kind: 'notice', message: expect.stringContaining('No LLM provider is configured') });
  });

  it('streams a turn from events: the send reply and run-started in either order, text, tool cards, the end', async () => {
    let events: ChatEvent[] = [];
    const { client, fire } = fakeHost_({
      'providers:list': vi.fn(async () => providers),
      'chat:settings': vi.fn(),
      'chat:send': vi.fn(async (): Promise<ChatSendResult> => {
        // main emits run-started before it answers
        for (const e of events) fire('chat:event', e);
        events = [];
        return { ...base, userMessage: user, assistantMessage: assistant };
      }),
    });
    const store = createAppStore(client);
    store.getState().followChat();
    await store.getState().refreshChat();
    events = [{ type: 'run-started', ...base, userMessage: user, assistantMessage: assistant }];
    expect(store.getState().submit('what is 2+3')).toBe(true);
    await vi.waitFor(() => expect(store.getState().sending).toBe(false));
    expect(store.getState().entries.map((e) => (e.kind === 'message' ? e.message.id : e.kind))).toEqual(['u1', 'a1']);
    expect(store.getState().activeRunId).toBe('r1');

    const part = { type: 'tool' as const, callId: 'k1', server: 'calculator', tool: 'add', modelName: 'calculator__add', args: { a: 2, b: 3 }, status: 'awaiting-approval' as const };
    fire('chat:event', { type: 'tool', ...base, messageId: 'a1', part });
    fire('chat:event', { type: 'tool', ...base, messageId: 'a1', part: { ...part, status: 'done', result: { content: [{ type: 'text', text: '5' }] } } });
    fire('chat:event', { type: 'text', ...base, messageId: 'a1', text: 'The answer ' });
    fire('chat:event', { type: 'text', ...base, messageId: 'a1', text: 'is 5' });
    // Another conversation's events do not leak in.
    fire('chat:event', { type: 'text', conversationId: 'other', runId: 'r9', messageId: 'a1', text: 'NOPE' });
    fire('chat:event', { type: 'run-finished', ...base, messageId: 'a1', status: 'done' });
    const message = store.getState().entries[1];
    expect(message?.kind === 'message' && message.message).toMatchObject({
      status: 'done',
      parts: [
        { type: 'tool', callId: 'k1', status: 'done' },
        { type: 'text', text: 'The answer is 5' },
      ],
    });
    expect(store.getState().activeRunId).toBeUndefined();
  });
});
