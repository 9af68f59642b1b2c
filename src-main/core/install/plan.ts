import { serverEntrySchema, type ServerEntry } from '../../../src-shared/schemas/config';
import type { InstallInput, InstallNote, InstallPlanView } from '../../../src-shared/contract/install';
import { CoreError } from '../errors';
import { secretNamePattern, type SecretStore } from '../secrets/store';
import { installNote, notesOf } from './notes';
import type { KeyValueInput, RegistryArgument, RegistryPackage, RegistryRemote, RegistryServer } from './registry-client';
import { statusRefusal } from './registry-client';
import { isExactTag, npmNameRefusal, npmVersionRefusal, ociReferenceRefusal, parseOciReference, pypiNameRefusal, pypiVersionRefusal } from './package-ref';

/*
 * An install plan is data: the entry to add with `${install:KEY}` where a value the person gives goes, and the inputs
 * that name those keys. `fillPlan` puts the values in (secret ones into secret storage, the entry then refers to them
 * as `${secret:NAME}`), drops what an optional input left empty, and validates the result as a config entry.
 */

export const installToken = (key: string): string => `\${install:${key}}`;
const tokenPattern = /\$\{install:([^}]+)\}/g;

/** A config key from a registry or manifest name: `io.github.owner/weather` → `weather`. */
export function serverNameFrom(name: string): string {
  const last = name.split('/').pop() ?? name;
  const cleaned = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return cleaned || 'server';
}

/** The secret a value of this server's input is kept under: `<server>.<KEY>`, made a valid secret name. */
export function secretNameFor(server: string, key: string): string {
  const name = `${server}.${key}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return secretNamePattern.test(name) ? name : `_${name}`.slice(0, 128);
}

class InputCollector {
  readonly inputs: InstallInput[] = [];
  constructor(private readonly server: string) {}

  add(
    key: string,
    spec: {
      description?: string | undefined;
      isRequired?: boolean | undefined;
      isSecret?: boolean | undefined;
      default?: string | undefined;
      choices?: string[] | undefined;
      format?: string | undefined;
    },
    title = key,
  ): string {
    const existing = this.inputs.find((i) => i.key === key);
    if (existing) {
      existing.required ||= spec.isRequired === true;
      if (spec.isSecret && !existing.secret) {
        existing.secret = true;
        existing.secretName = secretNameFor(this.server, key);
      }
      return installToken(key);
    }
    const secret = spec.isSecret === true;
    this.inputs.push({
      key,
      title,
      ...(spec.description ? { description: spec.description } : {}),
      required: spec.isRequired === true,
      secret,
      ...(secret ? { secretName: secretNameFor(this.server, key) } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
      ...(spec.choices?.length ? { choices: spec.choices } : {}),
      ...(spec.format ? { format: spec.format } : {}),
    });
    return installToken(key);
  }

  /** A value with `{name}` variables: each variable becomes an input (secret when the whole value is). */
  template(
    value: string,
    variables:
      | Record<
          string,
          {
            description?: string | undefined;
            isRequired?: boolean | undefined;
            isSecret?: boolean | undefined;
            default?: string | undefined;
            choices?: string[] | undefined;
            format?: string | undefined;
          }
        >
      | undefined,
    secret: boolean,
  ): string {
    if (!variables) return value;
    return value.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
      const spec = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (!spec) return whole;
      return this.add(name, { ...spec, isSecret: spec.isSecret === true || secret, isRequired: spec.isRequired ?? true });
    });
  }

  /** An environment variable or header: its fixed value (with variables), or a value the person gives. */
  keyValue(kv: KeyValueInput): string {
    if (kv.value !== undefined) return this.template(kv.value, kv.variables, kv.isSecret === true);
    return this.add(kv.name, kv);
  }

  argument(arg: RegistryArgument): string | undefined {
    const value =
      arg.value !== undefined
        ? this.template(arg.value, arg.variables, arg.isSecret === true)
        : arg.default !== undefined && arg.isRequired !== true
          ? arg.default
          : arg.type === 'named' && arg.isRequired !== true && arg.format === undefined
            ? undefined
            : this.add(
                arg.type === 'named' ? arg.name.replace(/^-+/, '') : (arg.valueHint ?? `arg${this.inputs.length + 1}`),
                arg,
                arg.type === 'named' ? arg.name : (arg.valueHint ?? 'argument'),
              );
    if (arg.type === 'positional') return value;
    // A named argument is one `--flag=value` token (a flag without a value stands alone).
    return value === undefined ? (arg.isRequired ? arg.name : undefined) : `${arg.name}=${value}`;
  }
}

const defaultBases: Record<string, string[]> = {
  npm: ['https://registry.npmjs.org'],
  pypi: ['https://pypi.org', 'https://pypi.org/simple'],
  oci: ['https://docker.io'],
};

/** https, or http on loopback (a local registry's files); never with credentials in it (they would be shown and kept). */
export function isDownloadUrl(text: string): boolean {
  try {
    const url = new URL(text);
    if (url.username !== '' || url.password !== '') return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

/** A registry entry's MCP Bundle: downloaded, checked against its sha256, then installed as a bundle. */
export interface RegistryBundleRef {
  url: string;
  sha256: string;
  registryName: string;
  version: string;
}

/** Why this package cannot become an entry, or undefined when it can. */
export function packageRefusal(pkg: RegistryPackage): string | undefined {
  const kind = pkg.registryType;
  if (kind === 'mcpb') {
    if (!/^[0-9a-f]{64}$/i.test(pkg.fileSha256 ?? '')) return `the MCP Bundle ${pkg.identifier} lists no fileSha256 to check the download against`;
    if (!isDownloadUrl(pkg.identifier))
      return `the MCP Bundle's identifier ${JSON.stringify(pkg.identifier)} is not an https URL (plain http only on 127.0.0.1 / localhost) without a user name or password`;
    return undefined;
  }
  if (!['npm', 'pypi', 'oci'].includes(kind)) return `${kind} packages are not supported (npm, pypi and oci are)`;
  const identifier = kind === 'npm' ? npmNameRefusal(pkg.identifier) : kind === 'pypi' ? pypiNameRefusal(pkg.identifier) : ociReferenceRefusal(pkg.identifier);
  if (identifier) return identifier;
  if (pkg.registryBaseUrl !== undefined && !isDownloadUrl(pkg.registryBaseUrl)) {
    return `the ${kind} package ${pkg.identifier}'s registryBaseUrl ${JSON.stringify(pkg.registryBaseUrl)} is not an https URL (plain http only on 127.0.0.1 / localhost) without a user name or password`;
  }
  const transport = pkg.transport?.type ?? 'stdio';
  if (transport !== 'stdio') return `the ${kind} package ${pkg.identifier} serves ${transport} itself; only stdio packages can be started by Switchboard`;
  if (kind === 'npm') return npmVersionRefusal(pkg.identifier, pkg.version);
  if (kind === 'pypi') return pypiVersionRefusal(pkg.identifier, pkg.version);
  const reference = parseOciReference(pkg.identifier);
  if (reference?.digest !== undefined || isExactTag(reference?.tag)) return undefined;
  if (!isExactTag(pkg.version)) {
    return `the image ${pkg.identifier} has no exact version to pin: it names no sha256 digest or exact tag, and version ${pkg.version === undefined ? 'none' : JSON.stringify(pkg.version)} is not an exact version usable as a tag (such as 1.2.3 or v1.2.3-rc.1)`;
  }
  return undefined;
}

/** The image to run: as named when a digest or an exact tag pins it, else with the package's exact version as its tag. */
function ociImage(pkg: RegistryPackage): string {
  const reference = parseOciReference(pkg.identifier);
  if (reference?.digest !== undefined || isExactTag(reference?.tag)) return pkg.identifier;
  const bare = reference?.tag !== undefined ? pkg.identifier.slice(0, -(reference.tag.length + 1)) : pkg.identifier;
  return `${bare}:${pkg.version ?? ''}`;
}

function packageEntry(pkg: RegistryPackage, inputs: InputCollector, notes: InstallNote[]): ServerEntry {
  const runtimeArgs = (pkg.runtimeArguments ?? []).map((a) => inputs.argument(a)).filter((a): a is string => a !== undefined);
  const packageArgs = (pkg.packageArguments ?? []).map((a) => inputs.argument(a)).filter((a): a is string => a !== undefined);
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) env[variable.name] = inputs.keyValue(variable);
  const base = pkg.registryBaseUrl?.replace(/\/+$/, '');
  const customBase = base !== undefined && !(defaultBases[pkg.registryType] ?? []).includes(base) ? base : undefined;
  if (customBase) notes.push(installNote('customRegistry', { base: customBase, kind: pkg.registryType }));
  let command: string;
  let args: string[];
  if (pkg.registryType === 'npm') {
    command = 'npx';
    args = ['-y', ...(customBase ? [`--registry=${customBase}`] : []), ...runtimeArgs, `${pkg.identifier}@${pkg.version ?? ''}`, ...packageArgs];
  } else if (pkg.registryType === 'pypi') {
    command = 'uvx';
    args = [...(customBase ? ['--index-url', customBase] : []), ...runtimeArgs, `${pkg.identifier}==${pkg.version ?? ''}`, ...packageArgs];
  } else {
    command = 'docker';
    // The container sees only the variables named with -e (their values come from the server's env).
    args = ['run', '-i', '--rm', ...runtimeArgs, ...Object.keys(env).flatMap((name) => ['-e', name]), ociImage(pkg), ...packageArgs];
  }
  return { command, args, ...(Object.keys(env).length ? { env } : {}) };
}

function remoteEntry(remote: RegistryRemote, inputs: InputCollector): ServerEntry {
  const url = inputs.template(remote.url, remote.variables, false);
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? []) headers[header.name] = inputs.keyValue(header);
  return { url, type: remote.type === 'sse' ? 'sse' : 'http', ...(Object.keys(headers).length ? { headers } : {}) };
}

/** The full command line (or URL) as it will run; inputs shown as `<KEY>`, secrets as `${secret:NAME}`. */
export function commandLineOf(entry: ServerEntry, inputs: readonly InstallInput[]): string {
  const show = (text: string): string =>
    text.replace(tokenPattern, (_whole, key: string) => {
      const input = inputs.find((i) => i.key === key);
      return input?.secret ? `\${secret:${input.secretName ?? key}}` : `<${key}>`;
    });
  const quote = (arg: string): string => (/^[A-Za-z0-9_@%+=:,./${}<>-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
  if (entry.command !== undefined) {
    const env = Object.entries(entry.env ?? {}).map(([k, v]) => `${k}=${quote(show(v))}`);
    return [...env, entry.command, ...(entry.args ?? []).map((a) => quote(show(a)))].join(' ');
  }
  const headers = Object.entries(entry.headers ?? {})
    .map(([k, v]) => ` (header ${k}: ${show(v)})`)
    .join('');
  return `${show(entry.url ?? '')}${headers}`;
}

export interface RegistryPlanOptions {
  /** npm | pypi | oci | remote: which of the entry's packages or remotes to use (default the first usable one). */
  use?: string;
  /** The config key (default: the last part of the registry name). */
  name?: string;
}

interface Candidate {
  kind: string;
  make?: (inputs: InputCollector, notes: InstallNote[]) => ServerEntry;
  bundle?: RegistryBundleRef;
}

/** The ways a registry entry can be installed, the one `use` picks (default the first), and why others cannot. */
function chooseCandidate(entry: RegistryServer, options: RegistryPlanOptions): { candidates: Candidate[]; chosen: Candidate | undefined; reasons: string[] } {
  const s = entry.server;
  const reasons: string[] = [];
  const candidates: Candidate[] = [];
  for (const pkg of s.packages ?? []) {
    const why = packageRefusal(pkg);
    if (why) reasons.push(why);
    else if (pkg.registryType === 'mcpb')
      candidates.push({
        kind: 'mcpb',
        bundle: { url: pkg.identifier, sha256: (pkg.fileSha256 ?? '').toLowerCase(), registryName: s.name, version: pkg.version ?? s.version },
      });
    else candidates.push({ kind: pkg.registryType, make: (inputs, notes) => packageEntry(pkg, inputs, notes) });
  }
  for (const remote of s.remotes ?? []) {
    if (remote.type !== 'streamable-http' && remote.type !== 'sse') reasons.push(`a remote of type ${remote.type} is not supported`);
    else candidates.push({ kind: 'remote', make: (inputs) => remoteEntry(remote, inputs) });
  }
  const chosen = options.use !== undefined ? candidates.find((c) => c.kind === options.use) : candidates[0];
  return { candidates, chosen, reasons };
}

/** The bundle to download when the chosen way to install a registry entry is its MCP Bundle (after the status check). */
export function registryBundleOf(entry: RegistryServer, options: RegistryPlanOptions = {}): RegistryBundleRef | undefined {
  const refusal = statusRefusal(entry);
  if (refusal) throw new CoreError('not-supported', refusal, { data: { reason: entry.status, server: entry.server.name } });
  return chooseCandidate(entry, options).chosen?.bundle;
}

/** A registry entry as an install plan; refused (CoreError) when deprecated, deleted, or nothing in it is usable. */
export function planFromRegistry(entry: RegistryServer, options: RegistryPlanOptions = {}): InstallPlanView {
  const refusal = statusRefusal(entry);
  if (refusal) throw new CoreError('not-supported', refusal, { data: { reason: entry.status, server: entry.server.name } });
  const s = entry.server;
  const name = options.name ?? serverNameFrom(s.name);
  const { candidates, chosen, reasons } = chooseCandidate(entry, options);
  if (chosen?.bundle) throw new CoreError('internal', `"${s.name}" is an MCP Bundle: it is installed through resolveRegistryInstall.`);
  if (!chosen?.make) {
    const offered = candidates.map((c) => c.kind).join(', ');
    throw new CoreError(
      'not-supported',
      options.use !== undefined && candidates.length > 0
        ? `"${s.name}" has no usable ${options.use} package or remote (it offers: ${offered}).`
        : `"${s.name}" ${s.version} cannot be installed: ${reasons.join('; ') || 'it lists no packages and no remotes'}.`,
      { data: { server: s.name } },
    );
  }
  const inputs = new InputCollector(name);
  const notes: InstallNote[] = [];
  const made = chosen.make(inputs, notes);
  return {
    source: 'registry',
    name,
    title: s.title ?? s.name,
    ...(s.description ? { description: s.description } : {}),
    version: s.version,
    origin: s.name,
    entry: made,
    inputs: inputs.inputs,
    commandLine: commandLineOf(made, inputs.inputs),
    ...notesOf(notes),
    alternatives: [...new Set(candidates.map((c) => c.kind))],
    uses: chosen.kind,
  };
}

/** Fills the plan's inputs; secret values go to `secrets` (only when the entry is then valid). */
export function fillPlan(
  plan: InstallPlanView,
  values: Readonly<Record<string, string>>,
  secrets: SecretStore | undefined,
): { entry: ServerEntry; secretsStored: string[] } {
  const unknown = Object.keys(values).filter((k) => !plan.inputs.some((i) => i.key === k));
  if (unknown.length)
    throw new CoreError(
      'invalid-argument',
      `${plan.name} takes no value named ${unknown.join(', ')}; it takes: ${plan.inputs.map((i) => i.key).join(', ') || 'none'}.`,
    );
  const chosen = new Map<string, string>();
  const missing: string[] = [];
  for (const input of plan.inputs) {
    const value = values[input.key] ?? input.default;
    if (value === undefined || value === '') {
      if (input.required) missing.push(input.key);
      continue;
    }
    if (input.choices?.length && !input.choices.includes(value))
      throw new CoreError('invalid-argument', `${input.key} must be one of ${input.choices.join(', ')}, got "${value}".`);
    chosen.set(input.key, value);
  }
  if (missing.length)
    throw new CoreError(
      'invalid-argument',
      `${plan.name} needs a value for ${missing.join(', ')} (give it with --set ${missing[0] ?? 'KEY'}=VALUE, or on the form).`,
      { data: { missing } },
    );
  const empty = (text: string): boolean => [...text.matchAll(tokenPattern)].some((m) => !chosen.has(m[1] ?? ''));
  const put = (text: string): string =>
    text.replace(tokenPattern, (_whole, key: string) => {
      const input = plan.inputs.find((i) => i.key === key);
      return input?.secret ? `\${secret:${input.secretName ?? key}}` : (chosen.get(key) ?? '');
    });
  const record = (rec: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!rec) return undefined;
    const outRec = Object.fromEntries(
      Object.entries(rec)
        .filter(([, v]) => !empty(v))
        .map(([k, v]) => [k, put(v)]),
    );
    return Object.keys(outRec).length ? outRec : undefined;
  };
  const entry: ServerEntry = { ...plan.entry };
  if (plan.entry.args) entry.args = plan.entry.args.filter((a) => !empty(a)).map(put);
  const env = record(plan.entry.env);
  if (env) entry.env = env;
  else delete entry.env;
  const headers = record(plan.entry.headers);
  if (headers) entry.headers = headers;
  else delete entry.headers;
  if (plan.entry.url !== undefined) {
    if (empty(plan.entry.url)) throw new CoreError('invalid-argument', `${plan.name}'s URL needs every one of its values.`);
    entry.url = put(plan.entry.url);
  }
  if (plan.entry.command !== undefined) entry.command = put(plan.entry.command);
  const parsed = serverEntrySchema.safeParse(entry);
  if (!parsed.success)
    throw new CoreError(
      'invalid-argument',
      `${plan.name} would not be a valid config entry: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'} ${i.message}`).join('; ')}.`,
    );
  const secretsStored: string[] = [];
  for (const input of plan.inputs) {
    const value = chosen.get(input.key);
    if (!input.secret || value === undefined) continue;
    if (!secrets) throw new CoreError('internal', 'No secret storage to keep the secret values in.');
    const secretName = input.secretName ?? secretNameFor(plan.name, input.key);
    secrets.set(secretName, value);
    secretsStored.push(secretName);
  }
  return { entry: parsed.data, secretsStored };
}
