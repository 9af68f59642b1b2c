import type { LanguageModel } from 'ai';
import type { ProviderId } from '../../../src-shared/contract/chat';
import { CoreError } from '../errors';
import { anthropicBaseURL, providerSpecs } from './provider-specs';

/*
 * The vendors' side of a provider: the AI SDK model for a provider, model, key and base URL (the vendor's package
 * loaded on the model's first call), and the model list an endpoint offers.
 */

type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** The vendors' AI SDK packages, loaded on a model's first use (a CLI command that never chats never loads them). */
let vendorSdks:
  | Promise<{
      createAnthropic: typeof import('@ai-sdk/anthropic').createAnthropic;
      createOpenAI: typeof import('@ai-sdk/openai').createOpenAI;
      createOpenAICompatible: typeof import('@ai-sdk/openai-compatible').createOpenAICompatible;
    }>
  | undefined;
function loadVendorSdks(): NonNullable<typeof vendorSdks> {
  vendorSdks ??= Promise.all([import('@ai-sdk/anthropic'), import('@ai-sdk/openai'), import('@ai-sdk/openai-compatible')]).then(([a, o, c]) => ({
    createAnthropic: a.createAnthropic,
    createOpenAI: o.createOpenAI,
    createOpenAICompatible: c.createOpenAICompatible,
  }));
  return vendorSdks;
}

/** A model that builds the vendor's on first use: the same calls, with the vendor package loaded by then. */
function deferredModel(provider: string, modelId: string, build: (sdk: Awaited<ReturnType<typeof loadVendorSdks>>) => ModelV3): ModelV3 {
  let real: Promise<ModelV3> | undefined;
  const get = (): Promise<ModelV3> => (real ??= loadVendorSdks().then(build));
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return get().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await get()).doGenerate(options),
    doStream: async (options) => (await get()).doStream(options),
  };
}

/**
 * The AI SDK model `name` of provider `id`, sent to `base` with `key`, or a CoreError that says what is missing (at
 * once: the checks are here; the vendor's package loads on the model's first call).
 */
export function vendorModel(id: ProviderId, name: string, key: string | undefined, base: string | undefined): LanguageModel {
  switch (id) {
    case 'anthropic':
      if (key === undefined)
        throw new CoreError('not-configured', 'Anthropic needs an API key: set ANTHROPIC_API_KEY in .env, or add it in Settings → Model providers.', {
          data: { reason: 'anthropic-key' },
        });
      return deferredModel('anthropic.messages', name, (sdk) =>
        sdk.createAnthropic({ apiKey: key, ...(base ? { baseURL: anthropicBaseURL(base) } : {}) })(name),
      );
    case 'openai':
      if (base !== undefined)
        return deferredModel('openai.chat', name, (sdk) =>
          sdk.createOpenAICompatible({ name: 'openai', baseURL: base, ...(key ? { apiKey: key } : {}), includeUsage: true }).chatModel(name),
        );
      if (key === undefined)
        throw new CoreError(
          'not-configured',
          'OpenAI needs an API key: set OPENAI_API_KEY in .env (or OPENAI_BASE_URL for a compatible server), or add it in Settings → Model providers.',
          { data: { reason: 'openai-key' } },
        );
      return deferredModel('openai.responses', name, (sdk) => sdk.createOpenAI({ apiKey: key })(name));
    case 'ollama':
      return deferredModel('ollama.chat', name, (sdk) =>
        sdk
          .createOpenAICompatible({ name: 'ollama', baseURL: base ?? providerSpecs.ollama.defaultBaseURL ?? '', ...(key ? { apiKey: key } : {}) })
          .chatModel(name),
      );
    case 'compatible':
      if (base === undefined)
        throw new CoreError(
          'not-configured',
          'The OpenAI-compatible endpoint has no base URL: set one in Settings → Model providers (e.g. http://127.0.0.1:1234/v1 for LM Studio).',
          {
            data: { reason: 'compatible-base-url' },
          },
        );
      return deferredModel('compatible.chat', name, (sdk) =>
        sdk.createOpenAICompatible({ name: 'compatible', baseURL: base, ...(key ? { apiKey: key } : {}), includeUsage: true }).chatModel(name),
      );
  }
}

/** The model ids `GET {base}/models` lists, sorted; undefined when it lists none or cannot be read. */
export async function fetchModelIds(id: ProviderId, base: string, key: string | undefined, signal?: AbortSignal): Promise<string[] | undefined> {
  const url = `${id === 'anthropic' ? anthropicBaseURL(base) : base.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> =
    id === 'anthropic' ? { 'x-api-key': key ?? '', 'anthropic-version': '2023-06-01' } : key ? { authorization: `Bearer ${key}` } : {};
  try {
    const timeout = AbortSignal.timeout(5000);
    const response = await fetch(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const ids = (body.data ?? []).map((m) => m.id).filter((m): m is string => typeof m === 'string');
    return ids.length > 0 ? ids.sort() : undefined;
  } catch {
    return undefined;
  }
}
