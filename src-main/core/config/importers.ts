import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { serverEntrySchema, type ServerEntry, type ServersConfig } from '../../../src-shared/schemas/config';
import type { StatusReason } from '../../../src-shared/host-api';
import { CoreError } from '../errors';

/** The hosts we know how to import from (or any file path). */
export const importSources = ['claude', 'cursor', 'vscode', 'cline', 'windsurf', 'inspector'] as const;
export type ImportSource = (typeof importSources)[number];

type Env = Readonly<Record<string, string | undefined>>;

/** Where each host keeps its MCP config, on this platform; the first that exists wins. */
export function sourceCandidates(source: ImportSource, env: Env = process.env, platform = process.platform): string[] {
  const home = env.HOME || homedir();
  const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
  const config =
    platform === 'darwin' ? join(home, 'Library', 'Application Support') : platform === 'win32' ? appData : env.XDG_CONFIG_HOME || join(home, '.config');
  const codeUser = join(config, 'Code', 'User');
  switch (source) {
    case 'claude':
      return [join(config, 'Claude', 'claude_desktop_config.json')];
    case 'cursor':
      return [join(home, '.cursor', 'mcp.json')];
    case 'vscode':
      return [join(codeUser, 'mcp.json'), join(process.cwd(), '.vscode', 'mcp.json')];
    case 'cline':
      return [join(codeUser, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json')];
    case 'windsurf':
      return [join(home, '.codeium', 'windsurf', 'mcp_config.json')];
    case 'inspector':
      return [join(process.cwd(), 'mcp.json')];
  }
}

export function resolveSource(source: string, env: Env = process.env): string {
  if ((importSources as readonly string[]).includes(source)) {
    const candidates = sourceCandidates(source as ImportSource, env);
    const found = candidates.find((c) => existsSync(c));
    if (!found) throw new CoreError('invalid-argument', `No ${source} config found. Looked at: ${candidates.join(', ')}. Pass the file's path instead.`);
    return found;
  }
  const file = resolve(source);
  if (!existsSync(file)) throw new CoreError('invalid-argument', `Cannot import: ${file} does not exist.`);
  return file;
}

const secretish = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

export interface ImportCandidate {
  name: string;
  entry: ServerEntry;
  /** `new`: not in our config; `same`: identical there; `conflict`: a different server of that name exists. */
  status: 'new' | 'same' | 'conflict';
  /** env/header keys holding literal values that look secret (offered to move into secret storage). */
  secretKeys: string[];
  /** Why an entry of the source could not be imported (it is listed, never silently dropped). */
  invalid?: string;
  /** `invalid`'s code and data (`import-*` in the catalogues' `reasons`). */
  invalidInfo?: StatusReason;
}

/** An entry that cannot be imported: the English text, and its code and data for the UI's language. */
export class EntryProblem extends Error {
  constructor(
    message: string,
    readonly reason: StatusReason,
  ) {
    super(message);
    this.name = 'EntryProblem';
  }
}

const typeNames = new Set(['string', 'number', 'boolean', 'array', 'object']);

export interface ImportPreview {
  source: string;
  file: string;
  servers: ImportCandidate[];
}

const maxImportBytes = 5 * 1024 * 1024;

/** Reads another host's file (never modifying it) into our entry shape. Regular files up to 5 MB only. */
export function readForeignConfig(file: string): Record<string, unknown> {
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info?.isFile() || info.size > maxImportBytes) {
    throw new CoreError('invalid-argument', `Cannot import ${file}: not a readable config file (a regular JSON file up to 5 MB).`);
  }
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof data !== 'object' || data === null) {
    throw new CoreError('invalid-argument', `Cannot import ${file}: it is not valid JSON.`);
  }
  const root = data as Record<string, unknown>;
  // Claude, Cursor, Cline, Windsurf, the Inspector: `mcpServers`; VS Code: `servers` (maybe under `mcp`).
  const settings = root.settings as Record<string, unknown> | undefined;
  const block =
    root.mcpServers ??
    root.servers ??
    (root.mcp as Record<string, unknown> | undefined)?.servers ??
    (settings?.mcp as Record<string, unknown> | undefined)?.servers;
  if (typeof block !== 'object' || block === null) {
    throw new CoreError('invalid-argument', `Cannot import ${file}: it has no "mcpServers" (or VS Code "servers") object.`);
  }
  return block as Record<string, unknown>;
}

/** Maps one foreign entry to ours: Windsurf's `serverUrl` → `url`, VS Code's `type` values, and so on. */
export function normalizeEntry(raw: unknown): ServerEntry {
  if (typeof raw !== 'object' || raw === null) throw new EntryProblem('is not an object', { code: 'import-not-object' });
  const input = { ...(raw as Record<string, unknown>) };
  if (input.url === undefined && typeof input.serverUrl === 'string') {
    input.url = input.serverUrl;
    delete input.serverUrl;
  }
  if (input.type === 'streamableHttp' || input.type === 'streamable_http') input.type = 'streamable-http';
  if (input.url !== undefined && input.type === 'stdio') delete input.type;
  const parsed = serverEntrySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || 'entry';
    const text = `${path} ${issue?.message ?? 'is invalid'}`;
    // The code from what the entry has (never from the schema's English message).
    const hasCommand = input.command !== undefined;
    const hasUrl = input.url !== undefined;
    if (issue?.code === 'custom' && issue.path.length === 0 && hasCommand === hasUrl) {
      throw new EntryProblem(text, { code: hasCommand ? 'import-both-command-and-url' : 'import-needs-command-or-url' });
    }
    if (issue?.code === 'invalid_type' && typeof issue.expected === 'string' && typeNames.has(issue.expected)) {
      throw new EntryProblem(text, { code: 'import-invalid-type', data: { path, why: issue.expected } });
    }
    throw new EntryProblem(text, { code: 'import-invalid-field', data: { path, detail: issue?.message ?? 'is invalid' } });
  }
  return parsed.data;
}

function literalSecrets(entry: ServerEntry): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(entry.env ?? {})) if (secretish.test(key) && value !== '' && !value.includes('${')) keys.push(`env.${key}`);
  for (const [key, value] of Object.entries(entry.headers ?? {}))
    if (/authorization|token|key|secret/i.test(key) && value !== '' && !value.includes('${')) keys.push(`headers.${key}`);
  return keys;
}

/**
 * The VS Code workspace folders a file belongs to: a `.vscode/mcp.json` is its workspace folder's; a
 * `.code-workspace` file lists its `folders` (paths relative to the file). VS Code gives these to servers as their
 * roots, so imported entries get them as `roots`. Undefined for files of no workspace (the user's own mcp.json).
 */
export function vscodeWorkspaceFolders(file: string): string[] | undefined {
  if (basename(dirname(file)) === '.vscode') return [dirname(dirname(file))];
  if (!file.endsWith('.code-workspace')) return undefined;
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
  const folders = typeof data === 'object' && data !== null ? (data as { folders?: unknown }).folders : undefined;
  if (!Array.isArray(folders)) return undefined;
  const paths = folders.flatMap((f: unknown) =>
    typeof f === 'object' && f !== null && typeof (f as { path?: unknown }).path === 'string' ? [resolve(dirname(file), (f as { path: string }).path)] : [],
  );
  return paths.length > 0 ? paths : undefined;
}

/** `${workspaceFolder}` in a VS Code entry's command, args and cwd, filled in with the (first) workspace folder. */
function withWorkspace(raw: unknown, folder: string | undefined): unknown {
  if (folder === undefined || typeof raw !== 'object' || raw === null) return raw;
  const input = { ...(raw as Record<string, unknown>) };
  const fill = (value: unknown): unknown => (typeof value === 'string' ? value.split('${workspaceFolder}').join(folder) : value);
  if (input.command !== undefined) input.command = fill(input.command);
  if (input.cwd !== undefined) input.cwd = fill(input.cwd);
  if (Array.isArray(input.args)) input.args = input.args.map(fill);
  return input;
}

export function previewImport(source: string, current: ServersConfig, env: Env = process.env): ImportPreview {
  const file = resolveSource(source, env);
  const block = readForeignConfig(file);
  const folders = vscodeWorkspaceFolders(file);
  const servers: ImportCandidate[] = [];
  for (const [name, raw] of Object.entries(block)) {
    let entry: ServerEntry;
    try {
      entry = normalizeEntry(withWorkspace(raw, folders?.[0]));
      if (folders && entry.roots === undefined) entry = { ...entry, roots: [...folders] };
    } catch (error) {
      const invalidInfo = error instanceof EntryProblem ? { invalidInfo: error.reason } : {};
      servers.push({ name, entry: {} as ServerEntry, status: 'new', secretKeys: [], invalid: (error as Error).message, ...invalidInfo });
      continue;
    }
    const existing = current.mcpServers[name];
    const status = existing === undefined ? 'new' : JSON.stringify(existing) === JSON.stringify(entry) ? 'same' : 'conflict';
    servers.push({ name, entry, status, secretKeys: literalSecrets(entry) });
  }
  return { source, file, servers };
}

/** The secret name an imported literal moves to: `<server>_<KEY>`, sanitised. */
export function importedSecretName(server: string, key: string): string {
  return `${server}_${key}`
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^([^A-Za-z_])/, '_$1')
    .slice(0, 128);
}

/** Replaces literal secret-looking values with `${secret:…}` references; returns the values to store. */
export function extractSecrets(name: string, entry: ServerEntry): { entry: ServerEntry; secrets: Record<string, string> } {
  const secrets: Record<string, string> = {};
  const next: ServerEntry = { ...entry };
  for (const path of literalSecrets(entry)) {
    const [block, key = ''] = path.split(/\.(.*)/s) as ['env' | 'headers', string];
    const record = { ...(next[block] ?? {}) };
    const value = record[key] ?? '';
    const secretName = importedSecretName(name, key);
    secrets[secretName] = value;
    // Keep a prefix such as "Bearer " in the config; move only the credential.
    const bearer = /^(Bearer|Basic|Token)\s+(.+)$/i.exec(value);
    if (bearer) {
      secrets[secretName] = bearer[2] ?? '';
      record[key] = `${bearer[1]} \${secret:${secretName}}`;
    } else record[key] = `\${secret:${secretName}}`;
    next[block] = record;
  }
  return { entry: next, secrets };
}

/** Claude-compatible JSON for some or all servers (what other hosts can paste). */
export function exportServers(config: ServersConfig, names?: string[]): string {
  const pick = names ?? Object.keys(config.mcpServers);
  const out: Record<string, ServerEntry> = {};
  for (const name of pick) {
    const entry = config.mcpServers[name];
    if (!entry) throw new CoreError('unknown-server', `There is no server named "${name}" to export.`);
    out[name] = entry;
  }
  return `${JSON.stringify({ mcpServers: out }, null, 2)}\n`;
}
