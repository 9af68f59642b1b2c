import { describe, expect, it, vi } from 'vitest';
import type { ProviderView, ProvidersView } from '../../src-shared/contract/chat';
import type { HostApi } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const fakeHost_ = (overrides: Partial<HostApi> = {}) => fakeHost(overrides, []);
const store = (overrides: Partial<HostApi>) => createAppStore(fakeHost_(overrides).client);

const providers: ProvidersView = { providers: [], model: 'openai:m', modelSource: 'env' };

describe('providers slice', () => {
  it("confirming the working folder's .env choices sends exactly the values shown and takes the new view", async () => {
    const waiting: ProvidersView = {
      ...providers,
      unconfirmed: { file: '/repo/.env', choices: [{ name: 'OLLAMA_BASE_URL', value: 'http://127.0.0.1:9/v1', provider: 'ollama' }] },
    };
    const after: ProvidersView = {
      ...providers,
      route: { provider: 'ollama', label: 'Ollama', model: 'm', endpoint: 'http://127.0.0.1:9/v1', modelSource: 'settings', endpointSource: 'dotenv' },
    };
    const confirm = vi.fn(async () => after);
    const { client } = fakeHost_({ 'providers:list': vi.fn(async () => waiting), 'chat:settings': vi.fn(), 'providers:confirm-dotenv': confirm });
    const store = createAppStore(client);
    await store.getState().refreshChat();
    expect(store.getState().providers?.unconfirmed?.choices).toHaveLength(1);
    await store.getState().confirmDotenv({ OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(confirm).toHaveBeenCalledWith({ values: { OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(store.getState().providers).toEqual(after);
  });
});

describe('provider setup leads to chatting', () => {
  const view = (id: 'openai' | 'anthropic', configured: boolean): ProviderView =>
    ({ id, label: id, configured, hasKey: configured, api: 'responses', models: [`${id}-default`] }) as unknown as ProviderView;

  it('saving a key when the chosen model cannot be used switches to the new provider’s first listed model', async () => {
    let providers: ProvidersView = {
      providers: [view('anthropic', false), view('openai', true)],
      model: 'anthropic:claude',
      hint: 'Anthropic needs an API key.',
    };
    const update = vi.fn(async () => {
      providers = { providers: providers.providers, model: 'openai:gpt-x' };
      return { approval: 'ask' as const, maxSteps: 10, disabledTools: [], alwaysAllow: [], toolLoading: 'auto' as const, toolsets: [] };
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
