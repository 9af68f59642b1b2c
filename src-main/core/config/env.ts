import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';
import { providerIds, type ProviderId } from '../../../src-shared/contract/chat';
import { CoreError } from '../errors';

type HostEnv = Readonly<Record<string, string | undefined>>;

/** Where a variable a child receives came from. Names are shown to people; values never are. */
export type EnvSource = 'default' | 'allow-list' | 'server-env';

export interface ChildEnv {
  env: Record<string, string>;
  sources: Record<string, EnvSource>;
}

/**
 * Reads a dotenv file into a private object. It is never merged into `process.env`, so the host's own
 * secrets (LLM API keys) cannot reach a child by accident.
 */
export function readDotenvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  return parseDotenv(readFileSync(path));
}

/**
 * The host's own secrets: the LLM keys Switchboard itself uses. They never reach a server — not by `${env:NAME}`,
 * an `envFile`, the chat's stored provider keys (`${secret:provider.…}`), nor by value under any other name —
 * unless the user put the name on the allow-list on purpose (see `hostKeys` and `assertNoHostKeys`).
 */
export const hostOwnSecretNames = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] as const;
export type HostSecretName = (typeof hostOwnSecretNames)[number];

/** Environment names compare case-insensitively on Windows (`%anthropic_api_key%` is `ANTHROPIC_API_KEY` there). */
export function sameEnvName(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' ? a.toUpperCase() === b.toUpperCase() : a === b;
}

/** Whether `name` is one of the host's own LLM key names (case-insensitively on Windows). */
export function isHostSecretName(name: string, platform: NodeJS.Platform = process.platform): boolean {
  return hostOwnSecretNames.some((n) => sameEnvName(n, name, platform));
}

/** The secret the chat stores a provider's key under (`provider.anthropic.apiKey`, …). */
export const providerSecretName = (id: ProviderId): string => `provider.${id}.apiKey`;

/** The environment name of a provider's key, where it has one; allow-listing it shares that provider's key. */
export const providerKeyEnv: Partial<Record<ProviderId, HostSecretName>> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

const providerLabels: Record<ProviderId, string> = { anthropic: 'Anthropic', openai: 'OpenAI', ollama: 'Ollama', compatible: 'OpenAI-compatible endpoint' };

/** The provider whose stored key `name` is (compared case-insensitively: the name is ours, never a user's). */
function providerOfSecret(name: string): ProviderId | undefined {
  return providerIds.find((id) => providerSecretName(id).toLowerCase() === name.toLowerCase());
}

/** What `${env:…}`, `${secret:…}` and `${input:…}` resolve against. */
export interface ReferenceContext {
  /** Names the user allows every child to inherit; also unlocks the host key of that name (see `hostKeys`). */
  allowList?: () => readonly string[];
  hostEnv: HostEnv;
  /** The host's private `.env` values (the files merged, for `${env:NAME}`). */
  dotenv: Readonly<Record<string, string>>;
  /** Each `.env` file the host read, separately: a key in any of them is a host key (default: `dotenv`). */
  dotenvFiles?: ReadonlyArray<Readonly<Record<string, string>>>;
  secrets?: { get(name: string): string | undefined };
  /** For comparing names (default `process.platform`); tests pass `win32`. */
  platform?: NodeJS.Platform;
}

/** One of the host's own LLM keys: its value (never shown), and the names that allow sharing it. */
export interface HostKey {
  value: string;
  /** What it is called in messages: an environment name, or the provider's stored key. */
  label: string;
  /** Allow-listing any of these shares it; empty when it can only be refused. */
  allowNames: readonly string[];
}

/** Values this short are not keys (and would match everywhere). */
const minKeyLength = 8;

const allowListed = (names: readonly string[], context: ReferenceContext): boolean => {
  const list = context.allowList?.() ?? [];
  return names.some((name) => list.some((allowed) => sameEnvName(allowed, name, context.platform)));
};

/**
 * Every LLM key the host itself holds: ANTHROPIC_API_KEY / OPENAI_API_KEY from its environment and from each
 * `.env` it read, and the keys the chat stores as secrets (`provider.ID.apiKey`). Comparing values against these
 * catches every route a key could take to a server, whatever the name it travels under.
 */
export function hostKeys(context: ReferenceContext): HostKey[] {
  const keys: HostKey[] = [];
  const add = (value: string | undefined, label: string, allowNames: readonly string[]): void => {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < minKeyLength) return;
    if (!keys.some((k) => k.value === trimmed && k.label === label)) keys.push({ value: trimmed, label, allowNames });
  };
  const sources: Array<Readonly<Record<string, string | undefined>>> = [context.hostEnv, ...(context.dotenvFiles ?? [context.dotenv])];
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) {
      const hostName = hostOwnSecretNames.find((n) => sameEnvName(n, name, context.platform));
      if (hostName) add(value, hostName, [hostName]);
    }
  }
  for (const id of providerIds) {
    const env = providerKeyEnv[id];
    add(context.secrets?.get(providerSecretName(id)), env ?? providerSecretName(id), env ? [env] : []);
  }
  return keys;
}

const howToAllow = (key: Pick<HostKey, 'allowNames'>): string => {
  const name = key.allowNames[0];
  return name !== undefined
    ? `Give the server its own key (e.g. \${secret:NAME}), or put ${name} on the allow-list (envAllowList in settings) if you really mean to share it.`
    : 'Give the server its own key (e.g. ${secret:NAME}): a key the chat keeps for this provider is not shared with servers, not even through the allow-list (envAllowList in settings).';
};

const reference = /\$\{(env|secret|input):([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/** The `${env:…}`, `${secret:…}` and `${input:…}` references in a raw config value, as written (never resolved), in order, once each. */
export function referencesOf(value: string): string[] {
  return [...new Set(value.match(reference) ?? [])];
}

/** howToAllow as data (`allow`: named, with the name to allow-list, or none), for the UI and CLI to word it. */
const allowData = (key: Pick<HostKey, 'allowNames'>): { allow: 'named' | 'none'; allowName: string } => {
  const name = key.allowNames[0];
  return name !== undefined ? { allow: 'named', allowName: name } : { allow: 'none', allowName: '' };
};

/** The references a raw config value contains (names only, never values), for messages. */
function referencesIn(raw: string | undefined): string {
  const found = raw?.match(reference) ?? [];
  return found.length > 0 ? ` (from ${found.join(', ')})` : '';
}

function hostKeyValueData(where: string, raw: string | undefined, key: HostKey): Record<string, unknown> {
  const refs = (raw?.match(reference) ?? []).join(', ');
  return { reason: refs !== '' ? 'host-key-value-from' : 'host-key-value', where, key: key.label, ...(refs !== '' ? { refs } : {}), ...allowData(key) };
}

/**
 * Refuses a value a server would receive when it contains one of the host's own keys that the user did not
 * allow-list: whatever the route (another variable, an `${input:…}`, a literal, a copy in some file).
 */
export function assertNoHostKey(value: string, where: string, raw: string | undefined, keys: readonly HostKey[], context: ReferenceContext): void {
  for (const key of keys) {
    if (!value.includes(key.value) || allowListed(key.allowNames, context)) continue;
    throw new CoreError(
      'config-invalid',
      `${where}${referencesIn(raw)} would receive the value of Switchboard's own LLM key ${key.label}: it is never passed to servers. ${howToAllow(key)}`,
      { data: hostKeyValueData(where, raw, key) },
    );
  }
}

/** An `envFile`'s names: the host's own key names are refused (case-insensitively on Windows) unless allow-listed. */
export function assertEnvFileNames(values: Readonly<Record<string, string>>, where: string, file: string, context: ReferenceContext): void {
  for (const name of Object.keys(values)) {
    const hostName = hostOwnSecretNames.find((n) => sameEnvName(n, name, context.platform));
    if (hostName === undefined || allowListed([name], context)) continue;
    throw new CoreError(
      'config-invalid',
      `${where} ${file} sets ${name}, Switchboard's own LLM key name: it is never passed to servers from a file (an envFile pointing at Switchboard's own .env would hand over its key). Remove it from that file and give the server its own key (e.g. \${secret:NAME}), or put ${hostName} on the allow-list (envAllowList in settings) if you really mean to share it.`,
      { data: { reason: 'host-key-in-env-file', where, file, name, hostName } },
    );
  }
}

/** A `${input:ID}` the user has not answered yet: the server waits for it (prompted in the UI). */
export class MissingInputError extends CoreError {
  constructor(
    readonly inputId: string,
    where: string,
  ) {
    super('config-invalid', `${where} needs the input "${inputId}". Enter it when asked; it is then kept as a secret.`, {
      data: { reason: 'missing-input', where, inputId },
    });
  }
}

/** The secret name an answered `${input:ID}` is stored under. */
export const inputSecretName = (id: string): string => `input.${id}`;

/**
 * Resolves references in one value. `${env:NAME}`: the host environment first, then the host's `.env`.
 * `${secret:NAME}`: the secret store. `${input:ID}`: an answered prompt, kept as the secret `input.ID`.
 * Anything unresolved is an error naming the place, the reference and what to do.
 */
export function resolveReferences(value: string, where: string, context: ReferenceContext): string {
  return value.replace(reference, (_match, kind: string, name: string) => {
    if (kind === 'env') {
      if (isHostSecretName(name, context.platform) && !allowListed([name], context)) {
        const hostName = hostOwnSecretNames.find((n) => sameEnvName(n, name, context.platform)) ?? name;
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${env:${name}}, which is Switchboard's own LLM key: it is never passed to servers. ${howToAllow({ allowNames: [hostName] })}`,
          { data: { reason: 'host-key-env-ref', where, name, ...allowData({ allowNames: [hostName] }) } },
        );
      }
      const resolved = context.hostEnv[name] ?? context.dotenv[name];
      if (resolved === undefined) {
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${env:${name}}, but ${name} is set neither in the environment Switchboard was started with nor in its .env file. Set ${name} there, or write the value directly.`,
          { data: { reason: 'missing-env', where, name } },
        );
      }
      return resolved;
    }
    if (kind === 'secret') {
      const provider = providerOfSecret(name);
      const env = provider !== undefined ? providerKeyEnv[provider] : undefined;
      if (provider !== undefined && !allowListed(env ? [env] : [], context)) {
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${secret:${name}}, where the chat keeps Switchboard's own ${providerLabels[provider]} key: it is never passed to servers. ${howToAllow({ allowNames: env ? [env] : [] })}`,
          { data: { reason: 'host-key-secret-ref', where, name, provider, ...allowData({ allowNames: env ? [env] : [] }) } },
        );
      }
      const resolved = context.secrets?.get(name);
      if (resolved === undefined) {
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${secret:${name}}, but there is no secret named ${name}. Add it under Settings → Secrets (or \`switchboard secret set ${name}\`).`,
          {
            data: { reason: 'missing-secret', where, name },
          },
        );
      }
      return resolved;
    }
    const answered = context.secrets?.get(inputSecretName(name));
    if (answered === undefined) throw new MissingInputError(name, where);
    return answered;
  });
}

/** Compatibility: `${env:NAME}` only. */
export function resolveEnvReferences(value: string, where: string, hostEnv: HostEnv, dotenv: Readonly<Record<string, string>>): string {
  return resolveReferences(value, where, { hostEnv, dotenv });
}

export function resolveRecord(record: Readonly<Record<string, string>> | undefined, where: string, context: ReferenceContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) {
    out[key] = resolveReferences(value, `${where}.${key}`, context);
  }
  return out;
}

/** The names the SDK's stdio transport always passes on (HOME LOGNAME PATH SHELL TERM USER on POSIX). */
export const defaultInheritedNames: readonly string[] = DEFAULT_INHERITED_ENV_VARS;

/**
 * The whitelist rule (DESIGN §3): a child's environment is exactly the SDK's default inherited names, the
 * names on the user's allow-list, and the server's own (already resolved) `env`. Nothing else of the host's
 * environment is copied, and `process.env` is never spread.
 */
export function buildChildEnv(options: { hostEnv: HostEnv; allowList: readonly string[]; serverEnv: Readonly<Record<string, string>> }): ChildEnv {
  const env: Record<string, string> = {};
  const sources: Record<string, EnvSource> = {};
  // The SDK's default names (values that look like shell functions are skipped, as the SDK does).
  const defaults = pickDefaults(options.hostEnv);
  for (const [name, value] of Object.entries(defaults)) {
    env[name] = value;
    sources[name] = 'default';
  }
  for (const name of options.allowList) {
    const value = options.hostEnv[name];
    if (value === undefined) continue;
    env[name] = value;
    sources[name] = 'allow-list';
  }
  for (const [name, value] of Object.entries(options.serverEnv)) {
    env[name] = value;
    sources[name] = 'server-env';
  }
  return { env, sources };
}

function pickDefaults(hostEnv: HostEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of defaultInheritedNames) {
    const value = hostEnv[name];
    if (value === undefined || value.startsWith('()')) continue;
    out[name] = value;
  }
  return out;
}
