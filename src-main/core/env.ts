import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';
import { CoreError } from './errors';

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
 * The host's own secrets: the LLM keys Switchboard itself uses. `${env:NAME}` never resolves them for a server
 * (unless the user put the name on the allow-list on purpose), so they cannot reach a server by a config line —
 * an imported one included.
 */
export const hostOwnSecretNames = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] as const;
export type HostSecretName = (typeof hostOwnSecretNames)[number];

/** What `${env:…}`, `${secret:…}` and `${input:…}` resolve against. */
export interface ReferenceContext {
  /** Names the user allows every child to inherit; also unlocks `${env:…}` of a host secret name. */
  allowList?: () => readonly string[];
  hostEnv: HostEnv;
  /** The host's private `.env` values. */
  dotenv: Readonly<Record<string, string>>;
  secrets?: { get(name: string): string | undefined };
}

/** A `${input:ID}` the user has not answered yet: the server waits for it (prompted in the UI). */
export class MissingInputError extends CoreError {
  constructor(
    readonly inputId: string,
    where: string,
  ) {
    super('config-invalid', `${where} needs the input "${inputId}". Enter it when asked; it is then kept as a secret.`);
  }
}

const reference = /\$\{(env|secret|input):([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

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
      if ((hostOwnSecretNames as readonly string[]).includes(name) && !(context.allowList?.() ?? []).includes(name)) {
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${env:${name}}, which is Switchboard's own LLM key: it is never passed to servers. Give the server its own key (e.g. \${secret:NAME}), or put ${name} on the allow-list if you really mean to share it.`,
        );
      }
      const resolved = context.hostEnv[name] ?? context.dotenv[name];
      if (resolved === undefined) {
        throw new CoreError(
          'config-invalid',
          `${where} refers to \${env:${name}}, but ${name} is set neither in the environment Switchboard was started with nor in its .env file. Set ${name} there, or write the value directly.`,
        );
      }
      return resolved;
    }
    if (kind === 'secret') {
      const resolved = context.secrets?.get(name);
      if (resolved === undefined) {
        throw new CoreError('config-invalid', `${where} refers to \${secret:${name}}, but there is no secret named ${name}. Add it under Settings → Secrets (or \`switchboard secret set ${name}\`).`);
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

export function resolveRecord(
  record: Readonly<Record<string, string>> | undefined,
  where: string,
  context: ReferenceContext,
): Record<string, string> {
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
export function buildChildEnv(options: {
  hostEnv: HostEnv;
  allowList: readonly string[];
  serverEnv: Readonly<Record<string, string>>;
}): ChildEnv {
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
