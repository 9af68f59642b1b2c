import { splitCommandLine } from '../../../src-shared/command-line';
import { protocolVersionChoices, type ProtocolVersionChoice, type ServerEntry } from '../../../src-shared/schemas/config';
import { i18n } from '../../i18n';

/*
 * The add/edit form's state and its mapping to a config entry. Keys the form does not manage (envFile,
 * autoApprove, other hosts' keys) are kept as they were, so editing a server never loses what the user wrote.
 */

export interface Row {
  id: number;
  value: string;
}
export interface KeyValueRow {
  id: number;
  key: string;
  value: string;
}

export type RemoteTransport = 'auto' | 'http' | 'sse';

export interface ServerFormState {
  name: string;
  kind: 'stdio' | 'remote';
  command: string;
  args: Row[];
  env: KeyValueRow[];
  cwd: string;
  url: string;
  headers: KeyValueRow[];
  transport: RemoteTransport;
  /** Milliseconds, as typed. */
  timeout: string;
  disabled: boolean;
  /** Folders the server may work in (`roots`): paths (relative to the config file's folder) or file:// URIs. */
  roots: Row[];
  /** The server's sampling requests: asked (default), always allowed, or never. */
  samplingMode: SamplingMode;
  /** At most this many sampling requests a minute, as typed ('' = no limit). */
  samplingPerMinute: string;
  /** The protocol revision (`protocolVersion`): `auto` (negotiated, the default) or one revision pinned. */
  protocolVersion: ProtocolVersionChoice;
  /** A stdio server's sandbox (`sandbox`): the settings default (no key), off (false), on (true) or custom (an object). */
  sandboxMode: SandboxMode;
  /** Custom: paths the server may read / write besides its own (relative to the config file's folder, `~/` = home). */
  sandboxRead: Row[];
  sandboxWrite: Row[];
  /** Custom: whether the server may use the network. */
  sandboxNetwork: boolean;
}

export type SandboxMode = 'default' | 'off' | 'on' | 'custom';

export type SamplingMode = 'ask' | 'allow' | 'never';

export type FormField = 'name' | 'command' | 'url' | 'timeout' | 'env' | 'headers' | 'cwd' | 'roots' | 'sampling' | 'sandboxRead' | 'sandboxWrite';
export type FormErrors = Partial<Record<FormField, string>>;

/** The keys the form owns; everything else in an entry is carried over untouched. */
const managedKeys = [
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'type',
  'disabled',
  'timeout',
  'roots',
  'sampling',
  'sandbox',
  'protocolVersion',
] as const;

let nextRowId = 1;
export const newRowId = (): number => nextRowId++;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const stringRecord = (value: unknown): Array<[string, string]> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')
    : [];

export function emptyForm(): ServerFormState {
  return {
    name: '',
    kind: 'stdio',
    command: '',
    args: [],
    env: [],
    cwd: '',
    url: '',
    headers: [],
    transport: 'auto',
    timeout: '',
    disabled: false,
    roots: [],
    samplingMode: 'ask',
    samplingPerMinute: '',
    protocolVersion: 'auto',
    sandboxMode: 'default',
    sandboxRead: [],
    sandboxWrite: [],
    sandboxNetwork: true,
  };
}

export function formFromEntry(name: string, entry: Record<string, unknown>): ServerFormState {
  const type = entry.type;
  return {
    name,
    kind: typeof entry.url === 'string' && typeof entry.command !== 'string' ? 'remote' : 'stdio',
    command: typeof entry.command === 'string' ? entry.command : '',
    args: strings(entry.args).map((value) => ({ id: newRowId(), value })),
    env: stringRecord(entry.env).map(([key, value]) => ({ id: newRowId(), key, value })),
    cwd: typeof entry.cwd === 'string' ? entry.cwd : '',
    url: typeof entry.url === 'string' ? entry.url : '',
    headers: stringRecord(entry.headers).map(([key, value]) => ({ id: newRowId(), key, value })),
    transport: type === 'sse' ? 'sse' : type === 'http' || type === 'streamable-http' ? 'http' : 'auto',
    timeout: typeof entry.timeout === 'number' ? String(entry.timeout) : '',
    disabled: entry.disabled === true,
    roots: strings(entry.roots).map((value) => ({ id: newRowId(), value })),
    ...samplingFromEntry(entry.sampling),
    protocolVersion: protocolVersionChoices.find((choice) => choice === entry.protocolVersion) ?? 'auto',
    ...sandboxFromEntry(entry.sandbox),
  };
}

/**
 * The form with a command line in Command split into the program and its arguments (shell-style quoting, see
 * splitCommandLine), or undefined when there is nothing to split: one word as written, a blank field, an unclosed
 * quote. The words after the program go before the arguments already listed, or replace them (`replaceArgs`: a
 * whole command line pasted over the field, when it has arguments). A quoted program path with spaces stays one word, its quotes removed.
 */
export function splitCommandField(form: ServerFormState, replaceArgs = false): { form: ServerFormState; moved: number } | undefined {
  const words = splitCommandLine(form.command);
  const [program, ...rest] = words ?? [];
  if (program === undefined || (rest.length === 0 && program === form.command)) return undefined;
  const moved = rest.map((value) => ({ id: newRowId(), value }));
  return { form: { ...form, command: program, args: replaceArgs && moved.length > 0 ? moved : [...moved, ...form.args] }, moved: rest.length };
}

const plainObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function sandboxFromEntry(value: unknown): Pick<ServerFormState, 'sandboxMode' | 'sandboxRead' | 'sandboxWrite' | 'sandboxNetwork'> {
  const sandbox = plainObject(value);
  return {
    sandboxMode: value === true ? 'on' : value === false ? 'off' : sandbox ? 'custom' : 'default',
    sandboxRead: strings(sandbox?.allowRead).map((v) => ({ id: newRowId(), value: v })),
    sandboxWrite: strings(sandbox?.allowWrite).map((v) => ({ id: newRowId(), value: v })),
    sandboxNetwork: sandbox?.network !== false,
  };
}

/** Why a sandbox path is not one, or undefined when it is (a URL or an empty row is not a path). */
export function sandboxPathProblem(path: string): string | undefined {
  if (path.trim() === '') return i18n.t('entryForm.givePath');
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path.trim())) return i18n.t('entryForm.pathIsUrl', { path: path.trim() });
  return undefined;
}

/**
 * The entry's `sandbox` key from the form: the default writes none, off false, on true, custom an object. Keys of
 * the original object the form leaves alone (an explicit `network: true`, empty lists) are written back as they were.
 */
function sandboxFromForm(form: ServerFormState, original: unknown, errors: FormErrors): unknown {
  if (form.sandboxMode === 'default') return undefined;
  if (form.sandboxMode === 'off') return false;
  if (form.sandboxMode === 'on') return true;
  const before = plainObject(original) ?? {};
  const sandbox: Record<string, unknown> = { ...before };
  for (const [key, rows, field] of [
    ['allowRead', form.sandboxRead, 'sandboxRead'],
    ['allowWrite', form.sandboxWrite, 'sandboxWrite'],
  ] as const) {
    const problem = rows.map((r) => sandboxPathProblem(r.value)).find((p) => p !== undefined);
    if (problem) errors[field] = problem;
    const paths = rows.map((r) => r.value.trim());
    if (paths.length > 0 || Array.isArray(before[key])) sandbox[key] = paths;
    else delete sandbox[key];
  }
  if (!form.sandboxNetwork || typeof before.network === 'boolean') sandbox.network = form.sandboxNetwork;
  return sandbox;
}

function samplingFromEntry(value: unknown): Pick<ServerFormState, 'samplingMode' | 'samplingPerMinute'> {
  const sampling = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const mode = sampling.mode === 'allow' || sampling.mode === 'never' ? sampling.mode : 'ask';
  return { samplingMode: mode, samplingPerMinute: typeof sampling.perMinute === 'number' ? String(sampling.perMinute) : '' };
}

/** Why a root is not a folder path or a file:// URI, or undefined when it is one. */
export function rootProblem(root: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(root)?.[1];
  // A Windows drive letter (C:\work) is a path, not a scheme.
  if (scheme === undefined || /^[A-Za-z]:[\\/]/.test(root)) return undefined;
  if (scheme.toLowerCase() !== 'file') return i18n.t('entryForm.rootNotFolder', { root });
  try {
    new URL(root);
    return undefined;
  } catch {
    return i18n.t('entryForm.badFileUri', { root });
  }
}

function collectPairs(rows: KeyValueRow[], what: 'variable' | 'header'): { record: Record<string, string> | undefined; error?: string } {
  const record: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '' && row.value === '') continue;
    if (key === '') return { record: undefined, error: i18n.t('entryForm.pairNeedsName', { what: i18n.t(`entryForm.${what}`) }) };
    if (Object.hasOwn(record, key)) return { record: undefined, error: `"${key}" is listed twice.` };
    record[key] = row.value;
  }
  return { record: Object.keys(record).length > 0 ? record : undefined };
}

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export type FormResult = { ok: true; name: string; entry: ServerEntry } | { ok: false; errors: FormErrors };

/**
 * Builds the entry to save. `original` is the entry as it is in the file (for the keys the form does not
 * manage); `takenNames` are the other servers' names.
 */
export function entryFromForm(form: ServerFormState, original: Record<string, unknown> | undefined, takenNames: readonly string[]): FormResult {
  const errors: FormErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = i18n.t('entryForm.giveName');
  else if (name.length > 200) errors.name = i18n.t('entryForm.nameTooLong');
  else if (takenNames.includes(name)) errors.name = i18n.t('entryForm.nameTaken', { name });

  const entry: Record<string, unknown> = {};
  if (form.kind === 'stdio') {
    const command = form.command.trim();
    if (command === '') errors.command = i18n.t('entryForm.command');
    entry.command = command;
    const args = form.args.map((a) => a.value).filter((a) => a !== '');
    if (args.length > 0) entry.args = args;
    const env = collectPairs(form.env, 'variable');
    if (env.error) errors.env = env.error;
    if (env.record) entry.env = env.record;
    if (form.cwd.trim() !== '') entry.cwd = form.cwd.trim();
    if (original?.type === 'stdio') entry.type = 'stdio';
    const sandbox = sandboxFromForm(form, original?.sandbox, errors);
    if (sandbox !== undefined) entry.sandbox = sandbox;
  } else {
    const url = form.url.trim();
    if (!isHttpUrl(url)) errors.url = i18n.t('entryForm.url');
    entry.url = url;
    const headers = collectPairs(form.headers, 'header');
    if (headers.error) errors.headers = headers.error;
    if (headers.record) entry.headers = headers.record;
    if (form.transport === 'sse') entry.type = 'sse';
    else if (form.transport === 'http') entry.type = original?.type === 'streamable-http' ? 'streamable-http' : 'http';
  }
  const timeout = form.timeout.trim();
  if (timeout !== '') {
    const ms = Number(timeout);
    if (!Number.isInteger(ms) || ms <= 0) errors.timeout = i18n.t('entryForm.timeout');
    else entry.timeout = ms;
  }
  if (form.disabled) entry.disabled = true;
  const roots = form.roots.map((r) => r.value.trim()).filter((r) => r !== '');
  const rootError = roots.map(rootProblem).find((p) => p !== undefined);
  if (rootError) errors.roots = rootError;
  if (roots.length > 0) entry.roots = roots;
  // Keys of `sampling` the form does not show are kept; the key goes when nothing is left in it.
  const originalSampling =
    typeof original?.sampling === 'object' && original.sampling !== null && !Array.isArray(original.sampling)
      ? (original.sampling as Record<string, unknown>)
      : {};
  const sampling: Record<string, unknown> = { ...originalSampling };
  delete sampling.mode;
  delete sampling.perMinute;
  if (form.samplingMode !== 'ask' || originalSampling.mode === 'ask') sampling.mode = form.samplingMode;
  const perMinute = form.samplingPerMinute.trim();
  if (perMinute !== '') {
    const n = Number(perMinute);
    if (!Number.isInteger(n) || n <= 0) errors.sampling = i18n.t('entryForm.sampling');
    else sampling.perMinute = n;
  }
  if (Object.keys(sampling).length > 0) entry.sampling = sampling;
  // `auto` is the default: written only where the file already said it.
  if (form.protocolVersion !== 'auto' || original?.protocolVersion === 'auto') entry.protocolVersion = form.protocolVersion;

  for (const [key, value] of Object.entries(original ?? {})) {
    if (!(managedKeys as readonly string[]).includes(key)) entry[key] = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, name, entry: entry as ServerEntry };
}

const secretKeyPattern = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** A literal value that looks like a credential (offered to move into secret storage). */
export function looksSecret(key: string, value: string): boolean {
  return secretKeyPattern.test(key) && value.trim() !== '' && !value.includes('${');
}

export const secretNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** A secret name for a server's key, as the importer names them: `<server>_<KEY>`, sanitised. */
export function suggestSecretName(server: string, key: string): string {
  return `${server || 'server'}_${key}`
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^([^A-Za-z_])/, '_$1')
    .slice(0, 128);
}

/** The config value that replaces a literal once it is stored as a secret (a `Bearer ` prefix stays visible). */
export function secretReference(value: string, secretName: string): { reference: string; secret: string } {
  const bearer = /^(Bearer|Basic|Token)\s+(.+)$/i.exec(value);
  if (bearer) return { reference: `${bearer[1]} \${secret:${secretName}}`, secret: bearer[2] ?? '' };
  return { reference: `\${secret:${secretName}}`, secret: value };
}
