import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { callToolRequestSchema } from '../../src-shared/host-schemas';
import {
  type AppInfo,
  type ConfigText,
  type HostApi,
  type HostEventName,
  type HostEvents,
  type ImportResultView,
} from '../../src-shared/host-api';
import type { ServerEntry } from '../../src-shared/config-schema';
import { ServersDiffer } from '../../src-shared/servers-delta';
import { ensureConfigFile } from './config';
import { ConfigStore, setAt, type ConfigSnapshot, type TextEdit } from './config-store';
import { CoreError } from './errors';
import { exportServers, extractSecrets, previewImport } from './importers';
import { FileSecretStore, type SecretStore } from './secrets';
import type { SupervisionPolicy } from './connection';
import { readDotenvFile } from './env';
import { EraCache } from './era-cache';
import { tidyDataDir } from './data-files';
import { ChildLedger } from './ledger';
import { HostLog, RotatingLog } from './log-file';
import { mergePaths, readLoginShellPath } from './login-path';
import { appDataDir, configFileName, logsDirOf } from './paths';
import { Registry } from './registry';
import { ChatService } from './chat/service';
import type { ChildRuntime } from './runtime';
import type { SettingsStore } from './settings';

export interface HostOptions {
  mode: 'electron' | 'headless';
  /** Explicit servers config (`--config FILE` / `SWITCHBOARD_CONFIG`); default `<dataDir>/mcp.json`. */
  configPath?: string;
  /** The app's own folder (Electron's userData); default `appDataDir()` from ./paths. */
  dataDir?: string;
  settings: SettingsStore;
  /** How to start the bundled calculator in a first-run config. */
  runtime: ChildRuntime;
  /** The host's environment, for `${env:NAME}`; default `process.env`. Never spread into a child. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Folder holding the host's `.env` besides the data dir; default the working directory. */
  envDir?: string;
  /** Read the login shell's PATH once (desktop launches miss it). */
  loginShellPath?: boolean;
  /** Supervision overrides (tests, benchmarks). */
  policy?: Partial<SupervisionPolicy>;
  /** Mirror our own log lines to stderr. */
  logToStderr?: boolean;
  /** Where `${secret:…}` values live; default a 0600 file in the data dir. */
  secrets?: SecretStore;
  /** Opens a file or folder in the OS (the desktop shell provides it; headless has none). */
  openPath?: (path: string) => Promise<boolean>;
  /** Watch the config file and apply external edits live (default true). */
  watchConfig?: boolean;
  /** Start the configured servers (default true; CLI commands that only edit the file pass false). */
  startServers?: boolean;
}

export interface Host {
  readonly api: HostApi;
  readonly configPath: string;
  readonly registry: Registry;
  readonly config: ConfigStore;
  readonly secrets: SecretStore;
  /** The LLM chat: providers, the tool loop, approvals, history, audit log. */
  readonly chat: ChatService;
  /** Resolves when every enabled server (or the one named) is ready or failed (for the CLI). */
  settled(name?: string): Promise<void>;
  /** Closes every session, then ends every child's tree, in reverse order of creation. Idempotent. */
  dispose(): Promise<void>;
}

/** The host's private `.env` (data dir first, the working directory's wins). Never merged into process.env. */
export function readHostDotenv(dataDir: string, envDir: string): Record<string, string> {
  const files = readHostDotenvFiles(dataDir, envDir);
  return { ...files.data, ...files.working };
}

/** The two `.env` files apart: a key and its base URL must come from the same one (a cloned repo's never redirects). */
export function readHostDotenvFiles(dataDir: string, envDir: string): { data: Record<string, string>; working: Record<string, string> } {
  return { data: readDotenvFile(join(dataDir, '.env')), working: readDotenvFile(join(envDir, '.env')) };
}

export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = options.dataDir ?? appDataDir(options.hostEnv);
  // The data folder is this user's alone (0700, files 0600); temp files of saves a SIGKILL interrupted are removed.
  const strays = tidyDataDir(dataDir);
  const configPath = options.configPath ?? join(dataDir, configFileName);
  if (options.configPath === undefined) ensureConfigFile(configPath, options.runtime);
  const hostEnv = options.hostEnv ?? process.env;
  const logsDir = logsDirOf(dataDir);
  const log = new HostLog(new RotatingLog(join(logsDir, 'switchboard.log')), options.logToStderr ?? false);
  if (strays.length > 0) log.info(`removed ${strays.length} temp file(s) left by a save that did not finish`);
  const ledger = new ChildLedger(join(dataDir, 'run'));
  const reaped = await ledger.reapOrphans();
  if (reaped > 0) log.warn(`ended ${reaped} server process tree(s) left running by a previous run that did not exit cleanly`);
  const eraCache = new EraCache(join(dataDir, 'era-cache.json'));
  const loginPath = options.loginShellPath ? await readLoginShellPath() : undefined;
  const secrets = options.secrets ?? new FileSecretStore(join(dataDir, 'secrets.json'));
  const dotenvFiles = readHostDotenvFiles(dataDir, options.envDir ?? process.cwd());
  const hostDotenv = { ...dotenvFiles.data, ...dotenvFiles.working };
  const registry = new Registry({
    hostEnv,
    dotenv: hostDotenv,
    dotenvFiles: [dotenvFiles.data, dotenvFiles.working],
    secrets,
    allowList: () => options.settings.envAllowList(),
    baseDir: dirname(configPath),
    ...(loginPath !== undefined ? { childPath: mergePaths(hostEnv.PATH, loginPath) } : {}),
    connectionDeps: (name) => ({
      // The user's settings, then explicit overrides (tests, benchmarks).
      policy: { ...options.settings.supervision?.(), ...options.policy },
      eraCache,
      ledger,
      log: new RotatingLog(join(logsDir, 'servers', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.log`)),
    }),
  });

  const store = new ConfigStore(configPath);
  const initial = store.snapshot();
  if (initial.error) log.warn(initial.error.message);

  const listeners = new Map<HostEventName, Set<(payload: never) => void>>();
  const emit = <E extends HostEventName>(event: E, payload: HostEvents[E]): void => {
    for (const listener of listeners.get(event) ?? []) (listener as (p: HostEvents[E]) => void)(payload);
  };
  // Coalesce bursts (a chatty stderr) into at most one servers:changed per 50 ms, carrying only what changed
  // per server (a stderr line must not resend 10,000 tools to every tab).
  let pendingTimer: NodeJS.Timeout | undefined;
  const differ = new ServersDiffer();
  registry.on('changed', () => {
    if (pendingTimer) return;
    pendingTimer = setTimeout(() => {
      pendingTimer = undefined;
      const delta = differ.next(registry.views());
      if (delta) emit('servers:changed', delta);
    }, 50);
  });
  if (options.startServers !== false) registry.load(initial.config);
  log.info(`started (${options.mode}); config ${configPath}; ${Object.keys(initial.config.mcpServers).length} server(s)`);

  const configText = (snapshot: ConfigSnapshot = store.snapshot()): ConfigText => ({
    path: configPath,
    text: snapshot.text,
    hash: snapshot.hash,
    backupPath: store.backupFile,
    ...(snapshot.error ? { problem: { file: snapshot.error.file, line: snapshot.error.line, column: snapshot.error.column, message: snapshot.error.detail } } : {}),
  });
  const appInfo = (): AppInfo => {
    const error = store.snapshot().error;
    return {
      version: '0.1.0',
      mode: options.mode,
      configPath,
      logsDir,
      ...(error ? { configError: { code: 'config-invalid', message: error.message } } : {}),
      ...(error ? { configProblem: { file: error.file, line: error.line, column: error.column, message: error.detail } } : {}),
      secrets: { backing: secrets.backing, ...(secrets.warning ? { warning: secrets.warning } : {}) },
    };
  };

  // Every change of the file (ours or external): apply what changed, tell the UI.
  store.on('changed', (snapshot) => {
    if (snapshot.error) log.warn(`config not applied, keeping the last good one: ${snapshot.error.message}`);
    else if (running) void registry.apply(snapshot.config).then((r) => log.info(`config reloaded: +${r.added.length} −${r.removed.length} ↻${r.restarted.length}`));
    emit('app:changed', appInfo());
    emit('config:changed', configText(snapshot));
  });
  if (options.watchConfig !== false) store.watch();

  const requireServer = (name: string): ServerEntry => {
    const entry = store.snapshot().config.mcpServers[name];
    if (!entry) throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`);
    return entry;
  };
  const running = options.startServers !== false;
  const edit = async (change: TextEdit, what: string): Promise<void> => {
    const snapshot = await store.update(change, what);
    // Apply now rather than waiting for the watcher, so the caller sees the result.
    if (running) await registry.apply(snapshot.config);
  };

  const chat = new ChatService({
    tools: {
      views: () => registry.views(),
      callTool: (ref, args, signal) => registry.get(ref.server).callTool(ref.tool, args, { signal }),
    },
    secrets,
    env: { env: hostEnv, dotenv: hostDotenv, dotenvFiles },
    dataDir,
    emit: (event) => emit('chat:event', event),
    log: (line) => log.warn(line),
  });

  const inFlight = new Map<string, AbortController>();
  const api: HostApi = {
    ...chat.api,
    'app:info': async () => appInfo(),
    'servers:list': async () => registry.views(),
    'servers:restart': async (name) => {
      await registry.get(name).restart();
    },
    'tools:call': async (request) => {
      const { server, tool, args, callId = randomUUID() } = callToolRequestSchema.parse(request);
      const connection = registry.get(server);
      const controller = new AbortController();
      inFlight.set(callId, controller);
      try {
        return await connection.callTool(tool, args, { signal: controller.signal });
      } finally {
        if (inFlight.get(callId) === controller) inFlight.delete(callId);
      }
    },
    'tools:cancel': async (callId) => {
      const controller = inFlight.get(callId);
      if (!controller) return false;
      controller.abort(new Error('Cancelled by the user'));
      inFlight.delete(callId);
      return true;
    },
    'config:read': async () => configText(store.refresh()),
    'config:save': async ({ text, baseHash }) => {
      const snapshot = await store.saveText(text, baseHash);
      if (running) await registry.apply(snapshot.config);
      return configText(snapshot);
    },
    'servers:upsert': async ({ name, entry, previousName }) => {
      if (previousName !== undefined && previousName !== name) {
        requireServer(previousName);
        if (store.snapshot().config.mcpServers[name]) throw new CoreError('invalid-argument', `A server named "${name}" already exists; pick another name.`);
        await edit((text) => setAt(['mcpServers', name], entry)(setAt(['mcpServers', previousName], undefined)(text)), `rename "${previousName}" to "${name}"`);
        return;
      }
      await edit(setAt(['mcpServers', name], entry), `save server "${name}"`);
    },
    'servers:remove': async (name) => {
      requireServer(name);
      await edit(setAt(['mcpServers', name], undefined), `remove server "${name}"`);
    },
    'servers:set-enabled': async (name, enabled) => {
      requireServer(name);
      await edit(setAt(['mcpServers', name, 'disabled'], enabled ? undefined : true), `${enabled ? 'enable' : 'disable'} server "${name}"`);
    },
    'config:export': async ({ names }) => exportServers(store.snapshot().config, names),
    'config:import-preview': async ({ source }) => previewImport(source, store.snapshot().config, hostEnv),
    'config:import-apply': async ({ source, names, overwrite = [], moveSecrets = false }) => {
      const preview = previewImport(source, store.snapshot().config, hostEnv);
      const result: ImportResultView = { added: [], replaced: [], skipped: [], secretsStored: [] };
      const edits: TextEdit[] = [];
      for (const name of names) {
        const candidate = preview.servers.find((c) => c.name === name);
        if (!candidate) result.skipped.push({ name, reason: `not in ${preview.file}` });
        else if (candidate.invalid) result.skipped.push({ name, reason: `invalid in the source: ${candidate.invalid}` });
        else if (candidate.status === 'same') result.skipped.push({ name, reason: 'already in your config, identical' });
        else if (candidate.status === 'conflict' && !overwrite.includes(name)) result.skipped.push({ name, reason: 'a different server of that name exists (not overwritten)' });
        else {
          let entry = candidate.entry;
          if (moveSecrets && candidate.secretKeys.length > 0) {
            const moved = extractSecrets(name, entry);
            for (const [secretName, value] of Object.entries(moved.secrets)) {
              secrets.set(secretName, value);
              result.secretsStored.push(secretName);
            }
            entry = moved.entry;
          }
          edits.push(setAt(['mcpServers', name], entry));
          (candidate.status === 'conflict' ? result.replaced : result.added).push(name);
        }
      }
      if (edits.length > 0) await edit((text) => edits.reduce((t, e) => e(t), text), `import from ${preview.file}`);
      return result;
    },
    'secrets:list': async () => secrets.list(),
    'secrets:set': async (name, value) => {
      try {
        secrets.set(name, value);
      } catch (error) {
        throw new CoreError('invalid-argument', (error as Error).message);
      }
      // Servers waiting on this secret (or input) get another chance.
      if (running) await registry.apply(store.snapshot().config);
    },
    'secrets:delete': async (name) => secrets.delete(name),
    'shell:open': async (target) => {
      const path = target === 'config' ? configPath : logsDir;
      const opened = options.openPath ? await options.openPath(path) : false;
      return { opened, path };
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };

  let disposing: Promise<void> | undefined;
  return {
    api,
    configPath,
    registry,
    config: store,
    secrets,
    chat,
    settled: (name) => registry.settled(name),
    dispose() {
      disposing ??= (async () => {
        if (pendingTimer) clearTimeout(pendingTimer);
        for (const controller of inFlight.values()) controller.abort(new Error('Switchboard is shutting down'));
        await chat.dispose();
        await store.dispose();
        await registry.dispose();
        ledger.dispose();
        log.info('stopped; every server session closed and every process tree ended');
        log.dispose();
        listeners.clear();
      })();
      return disposing;
    },
  };
}
