/** The app itself (its version, mode and files) and the OS shell it opens things in. Zod-free. */
import type { HostError } from '../errors';
import type { ConfigProblem } from './config';

export interface AppInfo {
  version: string;
  mode: 'electron' | 'headless';
  configPath: string;
  logsDir: string;
  /** The config file's problem, if the last read failed (the app keeps the last good config). */
  configError?: HostError;
  /** The same problem, located (for the banner and the editor). */
  configProblem?: ConfigProblem;
  /**
   * Where `${secret:…}` values are kept, and a caveat to show if it is not the OS keychain. `warning`: in English;
   * `file`: the secrets file (backing `file`), for wording the warning in the UI's language.
   */
  secrets: { backing: 'keychain' | 'file' | 'memory'; warning?: string; file?: string };
}

export interface AppResults {
  'app:info': AppInfo;
  /** Opened in the OS (desktop), or not possible here (headless): the path to show either way. */
  'shell:open': { opened: boolean; path: string };
  /** Opened in the system browser (desktop, https only), or not possible here (headless): show the link. */
  'shell:open-url': { opened: boolean; url: string };
}

export interface AppEvents {
  'app:changed': AppInfo;
}

/** Each app channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const appChannelNames = { 'app:info': true, 'shell:open': true, 'shell:open-url': true } as const satisfies Record<keyof AppResults, true>;
export const appEventNames = { 'app:changed': true } as const satisfies Record<keyof AppEvents, true>;
