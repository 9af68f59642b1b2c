import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import {
  callToolRequestSchema,
  type AppInfo,
  type HostApi,
  type HostError,
  type HostEventName,
  type HostEvents,
} from '../../src-shared/host-api';
import type { ServersConfig } from '../../src-shared/config-schema';
import { ConfigError, ensureConfigFile, readServersConfig } from './config';
import type { SupervisionPolicy } from './connection';
import { readDotenvFile } from './env';
import { EraCache } from './era-cache';
import { ChildLedger } from './ledger';
import { HostLog, RotatingLog } from './log-file';
import { mergePaths, readLoginShellPath } from './login-path';
import { appDataDir, configFileName, logsDirOf } from './paths';
import { Registry } from './registry';
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
}

export interface Host {
  readonly api: HostApi;
  readonly configPath: string;
  readonly registry: Registry;
  /** Resolves when every enabled server (or the one named) is ready or failed (for the CLI). */
  settled(name?: string): Promise<void>;
  /** Closes every session, then ends every child's tree, in reverse order of creation. Idempotent. */
  dispose(): Promise<void>;
}

/** The host's private `.env` (data dir first, the working directory's wins). Never merged into process.env. */
export function readHostDotenv(dataDir: string, envDir: string): Record<string, string> {
  return { ...readDotenvFile(join(dataDir, '.env')), ...readDotenvFile(join(envDir, '.env')) };
}

export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = options.dataDir ?? appDataDir(options.hostEnv);
  const configPath = options.configPath ?? join(dataDir, configFileName);
  if (options.configPath === undefined) ensureConfigFile(configPath, options.runtime);
  const hostEnv = options.hostEnv ?? process.env;
  const logsDir = logsDirOf(dataDir);
  const log = new HostLog(new RotatingLog(join(logsDir, 'switchboard.log')), options.logToStderr ?? false);
  const ledger = new ChildLedger(join(dataDir, 'run'));
  const reaped = await ledger.reapOrphans();
  if (reaped > 0) log.warn(`ended ${reaped} server process tree(s) left running by a previous run that did not exit cleanly`);
  const eraCache = new EraCache(join(dataDir, 'era-cache.json'));
  const loginPath = options.loginShellPath ? await readLoginShellPath() : undefined;
  const registry = new Registry({
    hostEnv,
    dotenv: readHostDotenv(dataDir, options.envDir ?? process.cwd()),
    allowList: () => options.settings.envAllowList(),
    baseDir: dirname(configPath),
    ...(loginPath !== undefined ? { childPath: mergePaths(hostEnv.PATH, loginPath) } : {}),
    connectionDeps: (name) => ({
      ...(options.policy ? { policy: options.policy } : {}),
      eraCache,
      ledger,
      log: new RotatingLog(join(logsDir, 'servers', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.log`)),
    }),
  });

  let configError: HostError | undefined;
  let config: ServersConfig = { mcpServers: {} };
  try {
    config = readServersConfig(configPath);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    configError = { code: 'config-invalid', message: error.message };
    log.warn(error.message);
  }

  const listeners = new Map<HostEventName, Set<(payload: never) => void>>();
  const emit = <E extends HostEventName>(event: E, payload: HostEvents[E]): void => {
    for (const listener of listeners.get(event) ?? []) (listener as (p: HostEvents[E]) => void)(payload);
  };
  // Coalesce bursts (a chatty stderr) into at most one servers:changed per 50 ms.
  let pendingTimer: NodeJS.Timeout | undefined;
  registry.on('changed', () => {
    if (pendingTimer) return;
    pendingTimer = setTimeout(() => {
      pendingTimer = undefined;
      emit('servers:changed', registry.views());
    }, 50);
  });
  registry.load(config);
  log.info(`started (${options.mode}); config ${configPath}; ${Object.keys(config.mcpServers).length} server(s)`);

  const appInfo = (): AppInfo => ({
    version: '0.1.0',
    mode: options.mode,
    configPath,
    logsDir,
    ...(configError ? { configError } : {}),
  });

  const inFlight = new Map<string, AbortController>();
  const api: HostApi = {
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
    settled: (name) => registry.settled(name),
    dispose() {
      disposing ??= (async () => {
        if (pendingTimer) clearTimeout(pendingTimer);
        for (const controller of inFlight.values()) controller.abort(new Error('Switchboard is shutting down'));
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
