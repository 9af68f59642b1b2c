import type { HostApi } from '../../src-shared/host-api';
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
}

export interface Host {
  readonly api: HostApi;
  /** Resolves when every enabled server is ready or failed (for the CLI). */
  settled(): Promise<void>;
  /** Closes every session, then ends every child, in reverse order of creation. Idempotent. */
  dispose(): Promise<void>;
}

export async function createHost(_options: HostOptions): Promise<Host> {
  throw new Error('not yet implemented');
}
