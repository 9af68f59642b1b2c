import type { ProviderId } from '../../../src-shared/chat-types';
import type { HostSecretName } from '../config/env';

/** What Switchboard knows of an LLM provider: its name, where its key and base URL are read, its models. */
export interface ProviderSpec {
  id: ProviderId;
  label: string;
  /** Must be one of the host's own secret names, which `${env:…}` never hands to a server. */
  keyEnv?: HostSecretName;
  baseEnv?: string;
  defaultBaseURL?: string;
  /** Keyless local servers are fine when they have a base URL. */
  keyRequired: (baseURL: string | undefined) => boolean;
  suggestions: string[];
}

export const providerSpecs: Record<ProviderId, ProviderSpec> = {
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    baseEnv: 'ANTHROPIC_BASE_URL',
    keyRequired: () => true,
    suggestions: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  },
  openai: {
    id: 'openai',
    label: 'OpenAI',
    keyEnv: 'OPENAI_API_KEY',
    baseEnv: 'OPENAI_BASE_URL',
    keyRequired: (baseURL) => baseURL === undefined,
    suggestions: ['gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4o-mini'],
  },
  ollama: {
    id: 'ollama',
    label: 'Ollama',
    baseEnv: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    keyRequired: () => false,
    suggestions: ['llama3.2', 'qwen2.5', 'mistral'],
  },
  compatible: {
    id: 'compatible',
    label: 'OpenAI-compatible endpoint',
    keyRequired: () => false,
    suggestions: [],
  },
};

/** The vendors' own endpoints (the SDKs' defaults), to say where a turn goes. */
export const vendorEndpoints: Partial<Record<ProviderId, string>> = { anthropic: 'https://api.anthropic.com/v1', openai: 'https://api.openai.com/v1' };

/** Anthropic's SDKs take `https://api.anthropic.com` (no /v1); the AI SDK wants the /v1. Accept both. */
export function anthropicBaseURL(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' || parsed.pathname === '' ? `${parsed.origin}/v1` : url.replace(/\/+$/, '');
}
