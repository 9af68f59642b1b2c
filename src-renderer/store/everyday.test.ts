import { describe, expect, it, vi } from 'vitest';
import type { AssistantMessage, ChatMessage, ProviderView, ProvidersView } from '../../src-shared/contract/chat';
import type { AppSettingsView, HostApi } from '../../src-shared/host-api';
import { HostCallError } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

/* Issue 13 "everyday use", the store's side: direct calls through chat:call, saved ones shown as call cards, a new provider's model, settings. */

const store = (overrides: Partial<HostApi>) => createAppStore(fakeHost(overrides, []).client);

describe('direct calls', () => {
  it('go to the open conversation (or start one and keep it open), with the typed command', async () => {
    const call = vi.fn(async () => ({ conversationId: 'c1', result: { content: [{ type: 'text' as const, text: '5' }] } }));
    const s = store({ 'chat:call': call });
    await s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 2, b: 3 }, '/add {"a":2,"b":3}');
    expect(call).toHaveBeenLastCalledWith(expect.objectContaining({ server: 'calc', tool: 'add', args: { a: 2, b: 3 }, command: '/add {"a":2,"b":3}' }));
    expect((call.mock.calls[0] as unknown as [Record<string, unknown>])[0]).not.toHaveProperty('conversationId');
    expect(s.getState().activeConversationId).toBe('c1');
    await s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 1, b: 1 });
    expect(call).toHaveBeenLastCalledWith(expect.objectContaining({ conversationId: 'c1' }));
    expect(s.getState().entries.map((e) => (e.kind === 'call' ? e.state : e.kind))).toEqual(['ok', 'ok']);
  });

  it('a failure the host reports keeps its code (cancelled shows as cancelled)', async () => {
    const s = store({ 'chat:call': vi.fn(async () => ({ conversationId: 'c1', failure: { code: 'cancelled' as const, message: 'Cancelled by the user' } })) });
    await s.getState().callTool({ server: 'calc', tool: 'add' }, {});
    expect(s.getState().entries[0]).toMatchObject({ kind: 'call', state: 'cancelled', failure: { code: 'cancelled' } });
  });

  it('a reopened conversation shows them as call cards again, with their command; the model’s turns as messages', () => {
    const s = store({});
    const direct: AssistantMessage = { id: 'a', role: 'assistant', parts: [{ type: 'tool', callId: 'k', server: 'calc', tool: 'add', modelName: 'calc.add', args: { a: 2, b: 3 }, status: 'done', result: { content: [{ type: 'text', text: '5' }] }, durationMs: 4 }], at: 10, model: 'direct', status: 'done', direct: true };
    const broken: AssistantMessage = { ...direct, id: 'b', parts: [{ type: 'tool', callId: 'l', server: 'calc', tool: 'div', modelName: 'calc.div', args: {}, status: 'running' }], status: 'streaming' };
    const messages: ChatMessage[] = [
      { id: 'u', role: 'user', text: '/add {"a":2,"b":3}', at: 10, direct: true },
      direct,
      { id: 'u2', role: 'user', text: 'hello', at: 11 },
      { id: 'm', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], at: 11, model: 'openai:x', status: 'done' },
      { id: 'u3', role: 'user', text: '/div {}', at: 12, direct: true },
      broken,
    ];
    s.getState().showConversation('c', messages);
    const entries = s.getState().entries;
    expect(entries.map((e) => e.kind)).toEqual(['call', 'message', 'message', 'call']);
    expect(entries[0]).toMatchObject({ kind: 'call', server: 'calc', tool: 'add', command: '/add {"a":2,"b":3}', state: 'ok', durationMs: 4, result: { content: [{ type: 'text', text: '5' }] } });
    // One that was running when the host stopped is over, and says so.
    expect(entries[3]).toMatchObject({ kind: 'call', state: 'error', failure: { message: expect.stringContaining('did not finish') } });
  });
});

describe('provider setup leads to chatting', () => {
  const view = (id: 'openai' | 'anthropic', configured: boolean): ProviderView =>
    ({ id, label: id, configured, hasKey: configured, api: 'responses', models: [`${id}-default`] }) as unknown as ProviderView;

  it('saving a key when the chosen model cannot be used switches to the new provider’s first listed model', async () => {
    let providers: ProvidersView = { providers: [view('anthropic', false), view('openai', true)], model: 'anthropic:claude', hint: 'Anthropic needs an API key.' };
    const update = vi.fn(async () => {
      providers = { providers: providers.providers, model: 'openai:gpt-x' };
      return { approval: 'ask' as const, maxSteps: 10, disabledTools: [], alwaysAllow: [] };
    });
    const s = store({
      'providers:configure': vi.fn(async () => providers),
      'providers:models': vi.fn(async () => ['gpt-x', 'gpt-y']),
      'providers:list': vi.fn(async () => providers),
      'chat:update-settings': update,
    });
    await s.getState().configureProvider({ id: 'openai', apiKey: 'sk-1' });
    expect(s.getState().providerModels.openai).toEqual(['gpt-x', 'gpt-y']);
    expect(update).toHaveBeenCalledWith({ model: 'openai:gpt-x' });
    expect(s.getState().providers?.hint).toBeUndefined();
  });

  it('a usable chosen model is left alone', async () => {
    const providers: ProvidersView = { providers: [view('openai', true)], model: 'openai:mine' };
    const update = vi.fn();
    const s = store({ 'providers:configure': vi.fn(async () => providers), 'providers:models': vi.fn(async () => ['gpt-x']), 'chat:update-settings': update });
    await s.getState().configureProvider({ id: 'openai', apiKey: 'sk-1' });
    expect(update).not.toHaveBeenCalled();
  });
});

describe('app settings', () => {
  const settings: AppSettingsView = { envAllowList: [], supervision: {}, supervisionDefaults: {}, theme: 'system', writable: true };

  it('a refused change returns the host’s reason and puts the theme back', async () => {
    const s = store({
      'settings:get': vi.fn(async () => settings),
      'settings:update': vi.fn(async () => {
        throw new HostCallError({ code: 'invalid-argument', message: 'That setting is not valid — theme: nope.' });
      }),
    });
    await s.getState().loadAppSettings();
    const refused = await s.getState().updateAppSettings({ theme: 'dark' });
    expect(refused).toBe('That setting is not valid — theme: nope.');
    expect(s.getState().appSettings?.theme).toBe('system');
  });

  it('the servers sidebar folds and unfolds', () => {
    const s = store({});
    const before = s.getState().sidebarCollapsed;
    s.getState().toggleSidebar();
    expect(s.getState().sidebarCollapsed).toBe(!before);
    s.getState().toggleSidebar();
    expect(s.getState().sidebarCollapsed).toBe(before);
  });
});
