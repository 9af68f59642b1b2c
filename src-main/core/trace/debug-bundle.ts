import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { release } from 'node:os';
import { dirname, join } from 'node:path';
import type { ServersConfig } from '../../../src-shared/schemas/config';
import type { DebugBundleView, TraceEntry } from '../../../src-shared/contract/trace';
import type { ServerView } from '../../../src-shared/host-api';
import { createRedactor, isSensitiveName, redactArgs, redactedText, redactUrl, type Redactor } from './redact';

export interface DebugBundleVersions {
  app: string;
  sdk?: string;
  node?: string;
  electron?: string;
  platform?: string;
  [name: string]: string | undefined;
}

export interface DebugBundleInput {
  /** The folder the bundle goes in: `<dataDir>/debug` (see {@link debugDir}); created 0700. */
  dir: string;
  /** The servers config as parsed (references unresolved, or resolved: values are redacted either way). */
  config: ServersConfig;
  views: readonly ServerView[];
  /** Each server's trace, oldest first (e.g. `ring.list(name, { limit: traceLimit })`). */
  traces: Readonly<Record<string, readonly TraceEntry[]>>;
  versions: DebugBundleVersions;
  /** Known secret values (secret store, host keys, resolved references): replaced wherever they occur. */
  secretValues?: () => Iterable<string>;
  /** Keep the last this many trace entries per server. Default 500. */
  traceLimit?: number;
  /** Only these servers (default: all). */
  servers?: readonly string[];
  /** For the file name; default now. */
  now?: Date;
}

export function debugDir(dataDir: string): string {
  return join(dataDir, 'debug');
}

/**
 * "Export debug bundle": one JSON file for a bug report — the config with every env and header value redacted
 * (names kept, and the `${…}` references a value used), secret-looking arguments and URL query values redacted;
 * app / SDK / Node / platform versions; each server's status, launch info (env names only), stderr tail and the
 * last trace entries (each request with its W3C trace id, its response too). Every known secret value is then replaced wherever it still occurs, so the file holds none.
 * Written 0600 in a 0700 folder.
 */
export function writeDebugBundle(input: DebugBundleInput): DebugBundleView {
  const redactor = createRedactor(input.secretValues ? { secretValues: input.secretValues } : {});
  const only = input.servers ? new Set(input.servers) : undefined;
  const keep = (name: string): boolean => !only || only.has(name);
  const limit = input.traceLimit ?? 500;
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(input.config.mcpServers)) if (keep(name)) servers[name] = redactEntry(entry, redactor);
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.config)) if (key !== 'mcpServers') rest[key] = redactor.value(value);
  const traces: Record<string, TraceEntry[]> = {};
  for (const [name, entries] of Object.entries(input.traces)) if (keep(name)) traces[name] = entries.slice(-limit).map((e) => redactor.value(e));
  const bundle = {
    kind: 'switchboard-debug-bundle',
    version: 1,
    createdAt: (input.now ?? new Date()).toISOString(),
    versions: { node: process.version, platform: `${process.platform} ${release()} ${process.arch}`, ...input.versions },
    config: { ...rest, mcpServers: servers },
    servers: input.views.filter((v) => keep(v.name)).map((v) => redactView(v, redactor)),
    traces,
  };
  // Belt and braces: whatever path a value took into the bundle, a known secret leaves as <redacted>.
  const text = redactor.text(`${JSON.stringify(bundle, null, 2)}\n`);
  mkdirSync(input.dir, { recursive: true, mode: 0o700 });
  chmodSync(input.dir, 0o700);
  const stamp = (input.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const path = join(input.dir, `switchboard-debug-${stamp}${n === 0 ? '' : `-${n}`}.json`);
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw error;
    }
    try {
      const buffer = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
      return { path, bytes: buffer.length };
    } finally {
      closeSync(fd);
    }
  }
}

const references = /\$\{(?:env|secret|input):[^}]*\}/g;

/** `"<redacted>"`, or `"<redacted; ${secret:X}>"` when the value was built from references (which are names, not secrets). */
function redactValue(value: string): string {
  const refs = value.match(references);
  return refs ? `${redactedText.slice(0, -1)}; ${refs.join(' ')}>` : redactedText;
}

function redactRecord(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) out[name] = typeof value === 'string' ? redactValue(value) : redactedText;
  return out;
}

const keptAsIs = new Set(['command', 'cwd', 'type', 'disabled', 'timeout', 'envFile', 'autoApprove', 'logLevel']);

function redactEntry(entry: Record<string, unknown>, redactor: Redactor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'env' || key === 'headers') out[key] = redactRecord(value);
    else if (key === 'args' && Array.isArray(value)) out[key] = redactArgs(value.map(String), redactor);
    else if (key === 'url' && typeof value === 'string') out[key] = redactUrl(redactor.text(value));
    else if (keptAsIs.has(key)) out[key] = redactor.value(value);
    // Keys other hosts use: by name, then a string value is hidden anyway (an unknown key may hold anything).
    else if (isSensitiveName(key) || typeof value === 'string') out[key] = redactedText;
    else out[key] = redactor.value(value);
  }
  return out;
}

function redactView(view: ServerView, redactor: Redactor): Record<string, unknown> {
  const launch = view.launch
    ? {
        command: view.launch.command,
        args: redactArgs(view.launch.args, redactor),
        cwd: view.launch.cwd,
        env: view.launch.env,
        ...(view.launch.containment ? { containment: view.launch.containment } : {}),
      }
    : undefined;
  const target = view.launch ? `${view.launch.command} ${redactArgs(view.launch.args, redactor).join(' ')}` : redactUrl(redactor.text(view.target));
  return redactor.value({
    name: view.name,
    transport: view.transport,
    status: view.status,
    ...(view.error !== undefined ? { error: view.error } : {}),
    ...(view.protocolVersion !== undefined ? { protocolVersion: view.protocolVersion } : {}),
    ...(view.era !== undefined ? { era: view.era } : {}),
    ...(view.serverInfo !== undefined ? { serverInfo: view.serverInfo } : {}),
    disabled: view.disabled,
    target,
    ...(launch ? { launch } : {}),
    ...(view.pid !== undefined ? { pid: view.pid } : {}),
    ...(view.readyMs !== undefined ? { readyMs: view.readyMs } : {}),
    restarts: view.restarts,
    ...(view.needsInput !== undefined ? { needsInput: view.needsInput } : {}),
    tools: view.tools.map((t) => t.name),
    stderrTail: view.stderrTail.map((line) => redactor.text(line)),
  });
}

/** The installed version of an npm package (`@modelcontextprotocol/client` for the SDK), or undefined. */
export function packageVersion(name: string): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    // The package's exports may hide package.json: find it above the entry point.
    let dir = dirname(require.resolve(name));
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === name && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not here
      }
      dir = dirname(dir);
    }
  } catch {
    // not installed
  }
  return undefined;
}
