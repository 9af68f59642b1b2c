import { describe, expect, it, vi } from 'vitest';
import type { AssistantMessage, UserMessage } from '../../src-shared/contract/chat';
import type { HostApi } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const fakeHost_ = (overrides: Partial<HostApi> = {}) => fakeHost(overrides, []);

const user: UserMessage = { id: 'u1', role: 'user', text: 'what is 2+3', at: 1 };
const assistant: AssistantMessage = { id: 'a1', role: 'assistant', parts: [], at: 1, model: 'openai:m', status: 'streaming' };

describe('conversations slice', () => {
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
});
