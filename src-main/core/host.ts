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
import { readDotenvFile } from './env';
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
}

export interface Host {
  readonly api: HostApi;
  readonly configPath: string;
  /** Resolves when every enabled server (or the one named) is ready or failed (for the CLI). */
  settled(name?: string): Promise<void>;
  /** Closes every session, then ends every child, in reverse order of creation. Idempotent. */
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
  const registry = new Registry({
    hostEnv,
    dotenv: readHostDotenv(dataDir, options.envDir ?? process.cwd()),
    allowList: () => options.settings.envAllowList(),
    baseDir: dirname(configPath),
  });

  let configError: HostError | undefined;
  let config: ServersConfig = { mcpServers: {} };
  try {
    config = readServersConfig(configPath);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    configError = { code: 'config-invalid', message: error.message };
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

  const appInfo = (): AppInfo => ({
    version: '0.1.0',
    mode: options.mode,
    configPath,
    logsDir: logsDirOf(dataDir),
    ...(configError ? { configError } : {}),
  });

  const api: HostApi = {
    'app:info': async () => appInfo(),
    'servers:list': async () => registry.views(),
    'servers:restart': async (name) => {
      await registry.get(name).restart();
    },
    'tools:call': async (request) => {
      const { server, tool, args } = callToolRequestSchema.parse(request);
      return registry.get(server).callTool(tool, args);
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
    settled: (name) => registry.settled(name),
    dispose() {
      disposing ??= (async () => {
        if (pendingTimer) clearTimeout(pendingTimer);
        await registry.dispose();
        listeners.clear();
      })();
      return disposing;
    },
  };
}
