/** The app, the servers config file, import and export, as the UI sees them. Zod-free. */
import type { ServerEntry } from '../schemas/config';
import type { HostError } from '../errors';
import type { StatusReason } from './servers';

export interface AppInfo {
  version: string;
  mode: 'electron' | 'headless';
  configPath: string;
  logsDir: string;
  /** The config file's problem, if the last read failed (the app keeps the last good config). */
  configError?: HostError;
  /** The same problem, located (for the banner and the editor). */
  configProblem?: ConfigProblem;
  /** Where `${secret:…}` values are kept, and a caveat to show if it is not the OS keychain. */
  /** `warning`: in English; `file`: the secrets file (backing `file`), for wording the warning in the UI's language. */
  secrets: { backing: 'keychain' | 'file' | 'memory'; warning?: string; file?: string };
}

/** A config file problem at a place in the file. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  /** What is wrong, without the location prefix. */
  message: string;
  /** The same as a reason code and its data (src-main/core/config/parse.ts ConfigDetailInfo), for wording it in the UI's language. */
  info?: { reason: string; [key: string]: string | number };
}

/** The config file as text, for the raw editor. */
export interface ConfigText {
  path: string;
  text: string;
  /** Pass back to `config:save`: a save is refused if the file changed on disk since. */
  hash: string;
  problem?: ConfigProblem;
  backupPath: string;
}

export interface ImportCandidateView {
  name: string;
  entry: ServerEntry;
  status: 'new' | 'same' | 'conflict';
  secretKeys: string[];
  /** Why the entry cannot be imported (English), and its code and data for the UI's language. */
  invalid?: string;
  invalidInfo?: StatusReason;
}
export interface ImportPreviewView {
  source: string;
  file: string;
  servers: ImportCandidateView[];
}
export interface ImportResultView {
  added: string[];
  replaced: string[];
  /** `reasonInfo`: the reason's code and data, for the UI's language. */
  skipped: Array<{ name: string; reason: string; reasonInfo?: StatusReason }>;
  secretsStored: string[];
}

/** The secret names (never values; Switchboard's own sign-in records left out, as in `secrets:list`) after a change. */
export interface SecretsChangedEvent {
  names: string[];
}
