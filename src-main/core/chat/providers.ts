import type { LanguageModel } from 'ai';
import type {
  ChatRoute,
  DotenvChoice,
  ProviderConfigureRequest,
  ProviderId,
  ProvidersView,
  ProviderView,
  SettingSource,
  UnconfirmedDotenv,
} from '../../../src-shared/contract/chat';
import { providerIds } from '../../../src-shared/contract/chat';
import { CoreError } from '../errors';
import type { SecretStore } from '../secrets/store';
import type { ChatSettingsStore } from './chat-settings';
import { providerSecretName } from '../config/env';
import { DotenvChoices } from './dotenv-choices';
import { anthropicBaseURL, providerSpecs, vendorEndpoints } from './provider-specs';
import { fetchModelIds, vendorModel } from './vendor-models';

/**
 * LLM providers through the AI SDK. Settings come from the settings screen (keys in the SecretStore, base URLs
 * in the chat settings), then the host's environment, then its private `.env` files — read, never copied into
 * process.env. Key values stay in main: views say only whether a key is set and where it came from.
 *
 * A key and the base URL it is sent to come from the same place: a base URL set in the app applies to any key;
 * otherwise a key from the environment goes to the environment's base URL, a key from a `.env` file to that
 * file's, a key from the settings to the vendor's own endpoint — else the vendor's default. So a working
 * folder's `.env` (a cloned repository's) never redirects a key that came from somewhere else.
 *
 * Nor does it redirect the conversation itself without the person's word: the model (SWITCHBOARD_MODEL) and the base
 * URLs (…_BASE_URL) a working folder's `.env` sets are used only once confirmed (recorded in DotenvChoices, or for
 * one run: the CLI's --trust-dotenv). Until then that file counts, for that provider, as if it were not there (its
 * key included: a key meant for the file's endpoint is not sent to the vendor's), and the views say what waits.
 *
 * What is known of each provider is in ./provider-specs.ts; the vendors' models and model lists in ./vendor-models.ts.
 */

export interface ProviderEnv {
  /** The host's environment (`process.env` in the app). */
  env: Readonly<Record<string, string | undefined>>;
  /** The host's `.env`, read privately (the files merged, the working folder's winning). */
  dotenv: Readonly<Record<string, string>>;
  /** The two `.env` files apart (data folder, working folder); without them `dotenv` counts as one file. */
  dotenvFiles?: { data: Readonly<Record<string, string>>; working: Readonly<Record<string, string>> };
  /** Their paths (the working folder's real path keys its confirmations), for messages. */
  dotenvPaths?: { data: string; working: string };
}

/** The name of the model new conversations use, where a `.env` or the environment sets it. */
export const modelEnvName = 'SWITCHBOARD_MODEL';

/** Where a value was read: its `source` is what views show; `place` tells the two `.env` files apart. */
type Place = 'settings' | 'env' | 'dotenv-working' | 'dotenv-data' | 'dotenv';

export const secretNameFor = (id: ProviderId): string => providerSecretName(id);

/** How a person adds an LLM provider (the chat's hint and a declined sampling request both say it). */
export const addProviderHow =
  'add a key in Settings → Model providers, or set ANTHROPIC_API_KEY or OPENAI_API_KEY (OPENAI_BASE_URL for a local server such as ' +
  'Ollama or LM Studio) in .env and restart Switchboard.';

export const noProviderHint = `No LLM provider is configured, so the chat calls tools directly (e.g. /add {"a":2,"b":3}). To chat with a model, ${addProviderHow}`;

interface Setting {
  value: string;
  source: SettingSource;
  place?: Place;
}

/** `provider:model`, split at the first colon (model ids such as `llama3.2:3b` keep theirs). */
export function parseModelSpec(spec: string): { provider: string; model: string } | undefined {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) return undefined;
  return { provider: spec.slice(0, colon), model: spec.slice(colon + 1) };
}

export class Providers {
  /** The working folder's model and base URLs are used without confirmation for this run (the CLI's --trust-dotenv). */
  private trustWorkingDotenv = false;
  /** Set while asking "what would be used once confirmed" (see `unconfirmed`). */
  private assumeConfirmed = false;

  constructor(
    private readonly settings: ChatSettingsStore,
    private readonly secrets: SecretStore,
    private readonly env: ProviderEnv,
    private readonly choices: DotenvChoices = new DotenvChoices(undefined),
  ) {}

  /** Uses the working folder's model and base URLs for the rest of this process, unrecorded (the CLI's --trust-dotenv). */
  trustWorkingDotenvForThisRun(): void {
    this.trustWorkingDotenv = true;
  }

  /** Whether the working folder's `.env` sets `name` (a model or base URL name) to a value no one confirmed. */
  private held(name: string): boolean {
    const value = this.env.dotenvFiles?.working[name]?.trim();
    const file = this.env.dotenvPaths?.working;
    if (value === undefined || value === '' || this.trustWorkingDotenv || this.assumeConfirmed) return false;
    return file === undefined || !this.choices.confirmed(file, name, value);
  }

  /**
   * Whether the working folder's `.env` is passed over for `name`: a model or base URL it sets unconfirmed, or the
   * key of a provider whose base URL there waits (that key was meant for that endpoint, not the vendor's).
   */
  private skipsWorking(name: string): boolean {
    if (name === modelEnvName || providerIds.some((id) => providerSpecs[id].baseEnv === name)) return this.held(name);
    const owner = providerIds.find((id) => providerSpecs[id].keyEnv === name);
    const baseEnv = owner !== undefined ? providerSpecs[owner].baseEnv : undefined;
    return baseEnv !== undefined && this.held(baseEnv);
  }

  /** What `read` returns once every choice of the working folder's `.env` is confirmed. */
  private assuming<T>(read: () => T): T {
    const before = this.assumeConfirmed;
    this.assumeConfirmed = true;
    try {
      return read();
    } finally {
      this.assumeConfirmed = before;
    }
  }

  /**
   * The working folder's model and base URLs that wait for a person's confirmation and would be used once confirmed
   * (one the settings or the environment override is not asked about).
   */
  unconfirmed(): UnconfirmedDotenv | undefined {
    const file = this.env.dotenvPaths?.working;
    const working = this.env.dotenvFiles?.working;
    if (file === undefined || working === undefined) return undefined;
    const choices: DotenvChoice[] = [];
    if (this.held(modelEnvName) && this.assuming(() => this.defaultModel())?.place === 'dotenv-working') {
      choices.push({ name: modelEnvName, value: working[modelEnvName]?.trim() ?? '' });
    }
    for (const id of providerIds) {
      const name = providerSpecs[id].baseEnv;
      if (name === undefined || !this.held(name)) continue;
      if (this.assuming(() => this.baseURL(id))?.place === 'dotenv-working') choices.push({ name, value: working[name]?.trim() ?? '', provider: id });
    }
    return choices.length > 0 ? { file, choices } : undefined;
  }

  /**
   * The waiting choices a turn would use once confirmed: the model (unless `flagModel`, the CLI's --model, names
   * one) and the base URL of that model's provider.
   */
  unconfirmedFor(flagModel?: string): UnconfirmedDotenv | undefined {
    const all = this.unconfirmed();
    if (all === undefined) return undefined;
    const spec = flagModel ?? this.assuming(() => this.defaultModel())?.value;
    const provider = spec !== undefined ? parseModelSpec(spec)?.provider : undefined;
    const choices = all.choices.filter((c) => (c.provider === undefined ? flagModel === undefined : c.provider === provider));
    return choices.length > 0 ? { file: all.file, choices } : undefined;
  }

  /**
   * Records the person's confirmation of the working folder's choices they saw (`values`, name → value): only those
   * that still wait and hold exactly that value are recorded. Returns the names recorded.
   */
  confirmDotenv(values: Readonly<Record<string, string>>): string[] {
    const waiting = this.unconfirmed();
    if (waiting === undefined) return [];
    const confirmed: Record<string, string> = {};
    for (const choice of waiting.choices) if (values[choice.name] === choice.value) confirmed[choice.name] = choice.value;
    this.choices.confirm(waiting.file, confirmed);
    return Object.keys(confirmed);
  }

  /** The file a value came from (for messages), when it came from one. */
  private fileOf(place: Place | undefined): string | undefined {
    const paths = this.env.dotenvPaths;
    if (place === 'dotenv-working') return paths?.working;
    if (place === 'dotenv-data') return paths?.data;
    return undefined;
  }

  /**
   * Where a turn with `spec` goes: provider, model, endpoint and where each came from (`flag`: the CLI's --model;
   * otherwise the default model's own source). Undefined when `spec` is not a usable model.
   */
  route(spec: string, modelFrom: 'flag' | 'default' = 'default'): ChatRoute | undefined {
    const parsed = parseModelSpec(spec);
    const id = providerIds.find((p) => p === parsed?.provider);
    if (parsed === undefined || id === undefined || !this.canUse(spec)) return undefined;
    const base = this.baseURL(id);
    const endpoint = base?.value ?? providerSpecs[id].defaultBaseURL ?? vendorEndpoints[id];
    if (endpoint === undefined) return undefined;
    const model = modelFrom === 'flag' ? undefined : this.defaultModel();
    const fromModel = model !== undefined && model.value === spec ? model : undefined;
    const endpointFile = this.fileOf(base?.place);
    const modelFile = this.fileOf(fromModel?.place);
    const endpointEnv = base?.source === 'env' || base?.source === 'dotenv' ? providerSpecs[id].baseEnv : undefined;
    return {
      provider: id,
      label: providerSpecs[id].label,
      model: parsed.model,
      endpoint: id === 'anthropic' ? anthropicBaseURL(endpoint) : endpoint.replace(/\/+$/, ''),
      modelSource: modelFrom === 'flag' ? 'flag' : (fromModel?.source ?? 'default'),
      endpointSource: base?.source ?? 'default',
      ...(modelFile !== undefined ? { modelFile } : {}),
      ...(endpointFile !== undefined ? { endpointFile } : {}),
      ...(endpointEnv !== undefined ? { endpointEnv } : {}),
    };
  }

  /** The places outside the settings, in order of precedence: environment, working folder's .env, data folder's. */
  private places(): Array<{ place: Place; source: SettingSource; values: Readonly<Record<string, string | undefined>> }> {
    const files = this.env.dotenvFiles;
    return [
      { place: 'env', source: 'env', values: this.env.env },
      ...(files
        ? [
            { place: 'dotenv-working' as const, source: 'dotenv' as const, values: files.working },
            { place: 'dotenv-data' as const, source: 'dotenv' as const, values: files.data },
          ]
        : [{ place: 'dotenv' as const, source: 'dotenv' as const, values: this.env.dotenv }]),
    ];
  }

  /** `name` from one place only (`place`), or from the first place that sets it. */
  private fromEnv(name: string | undefined, place?: Place): Setting | undefined {
    if (!name) return undefined;
    for (const candidate of this.places()) {
      if (place !== undefined && candidate.place !== place) continue;
      if (candidate.place === 'dotenv-working' && this.skipsWorking(name)) continue;
      const value = candidate.values[name];
      if (value !== undefined && value.trim() !== '') return { value: value.trim(), source: candidate.source, place: candidate.place };
    }
    return undefined;
  }

  private key(id: ProviderId): Setting | undefined {
    const stored = this.secrets.get(secretNameFor(id));
    if (stored !== undefined && stored !== '') return { value: stored, source: 'settings', place: 'settings' };
    return this.fromEnv(providerSpecs[id].keyEnv);
  }

  /**
   * The base URL the key (if any) is sent to: the app's setting, else the key's own place's (none for a key
   * from the settings: the vendor's endpoint), else — without a key — the first place that sets one.
   */
  private baseURL(id: ProviderId): Setting | undefined {
    const stored = this.settings.baseURL(id);
    if (stored !== undefined) return { value: stored, source: 'settings', place: 'settings' };
    const key = this.key(id);
    if (key === undefined) return this.fromEnv(providerSpecs[id].baseEnv);
    if (key.place === 'settings' || key.place === undefined) return undefined;
    return this.fromEnv(providerSpecs[id].baseEnv, key.place);
  }

  /** Every key value the host holds (to scrub them from messages), never for display. */
  keyValues(): string[] {
    const values = new Set<string>();
    for (const id of providerIds) {
      const stored = this.secrets.get(secretNameFor(id));
      if (stored) values.add(stored);
      const name = providerSpecs[id].keyEnv;
      if (!name) continue;
      for (const place of this.places()) {
        const value = place.values[name]?.trim();
        if (value) values.add(value);
      }
    }
    return [...values];
  }

  private isConfigured(id: ProviderId): boolean {
    const base = this.baseURL(id)?.value;
    if (id === 'ollama' || id === 'compatible') return base !== undefined;
    return this.key(id) !== undefined || !providerSpecs[id].keyRequired(base);
  }

  view(id: ProviderId): ProviderView {
    const spec = providerSpecs[id];
    const key = this.key(id);
    const base = this.baseURL(id);
    const api: ProviderView['api'] = id === 'anthropic' ? 'messages' : id === 'openai' && base === undefined ? 'responses' : 'chat';
    return {
      id,
      label: spec.label,
      configured: this.isConfigured(id),
      hasKey: key !== undefined,
      ...(key ? { keySource: key.source } : {}),
      ...(spec.keyEnv ? { keyEnv: spec.keyEnv } : {}),
      ...(base
        ? { baseURL: base.value, baseURLSource: base.source }
        : spec.defaultBaseURL
          ? { baseURL: spec.defaultBaseURL, baseURLSource: 'default' as const }
          : {}),
      api,
      models: spec.suggestions,
    };
  }

  /** The model new turns use: the picker's choice, else SWITCHBOARD_MODEL, else the first configured provider's first model. */
  defaultModel(): Setting | undefined {
    const picked = this.settings.view().model;
    if (picked !== undefined) return { value: picked, source: 'settings', place: 'settings' };
    const fromEnv = this.fromEnv(modelEnvName);
    if (fromEnv) return fromEnv;
    for (const id of providerIds) {
      const first = providerSpecs[id].suggestions[0];
      if (this.isConfigured(id) && first !== undefined) return { value: `${id}:${first}`, source: 'default' };
    }
    return undefined;
  }

  list(): ProvidersView {
    const providers = providerIds.map((id) => this.view(id));
    const model = this.defaultModel();
    const usable = model !== undefined && this.canUse(model.value);
    const route = usable ? this.route(model.value) : undefined;
    const unconfirmed = this.unconfirmed();
    return {
      providers,
      ...(model ? { model: model.value, modelSource: model.source } : {}),
      ...(route ? { route } : {}),
      ...(unconfirmed ? { unconfirmed } : {}),
      ...(usable ? {} : { hint: model ? `${this.unusableReason(model.value)} ${noProviderHint}` : noProviderHint }),
    };
  }

  private canUse(spec: string): boolean {
    try {
      this.model(spec);
      return true;
    } catch {
      return false;
    }
  }

  private unusableReason(spec: string): string {
    try {
      this.model(spec);
      return '';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  configure(request: ProviderConfigureRequest): ProvidersView {
    if (request.apiKey === null) this.secrets.delete(secretNameFor(request.id));
    else if (request.apiKey !== undefined) this.secrets.set(secretNameFor(request.id), request.apiKey);
    if (request.baseURL === null) this.settings.setBaseURL(request.id, undefined);
    else if (request.baseURL !== undefined) this.settings.setBaseURL(request.id, request.baseURL);
    return this.list();
  }

  /**
   * The AI SDK model for `provider:model`, or a CoreError that says what is missing (at once: the checks are here
   * and in vendorModel; the vendor's package loads on the model's first call).
   */
  model(spec: string): LanguageModel {
    const parsed = parseModelSpec(spec);
    if (!parsed)
      throw new CoreError('invalid-argument', `"${spec}" is not a model: write provider:model, e.g. anthropic:claude-sonnet-4-5 or ollama:llama3.2.`, {
        data: { reason: 'not-a-model', spec },
      });
    const id = providerIds.find((p) => p === parsed.provider);
    if (!id)
      throw new CoreError('invalid-argument', `Unknown provider "${parsed.provider}" in "${spec}". Use one of: ${providerIds.join(', ')}.`, {
        data: { reason: 'unknown-provider', provider: parsed.provider, spec, providers: [...providerIds] },
      });
    const key = this.key(id)?.value;
    const base = this.baseURL(id)?.value;
    return vendorModel(id, parsed.model, key, base);
  }

  /** The provider's own model list (`GET {base}/models`), else its suggestions. */
  async models(id: ProviderId, signal?: AbortSignal): Promise<string[]> {
    const view = this.view(id);
    const key = this.key(id)?.value;
    const base = view.baseURL ?? vendorEndpoints[id];
    if (base === undefined || (!view.configured && id !== 'ollama')) return view.models;
    const ids = await fetchModelIds(id, base, key, signal);
    return ids ?? view.models;
  }
}
