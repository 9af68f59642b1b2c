/** The servers config file (mcp.json): the raw editor, server edits, import and export, as the UI sees them. Zod-free. */
import type { ServerEntry } from '../schemas/config';
import type { StatusReason } from './servers';

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

export interface ConfigResults {
  'config:read': ConfigText;
  'config:save': ConfigText;
  'servers:upsert': void;
  'servers:remove': void;
  'servers:set-enabled': void;
  /** Claude-compatible JSON text. */
  'config:export': string;
  'config:import-preview': ImportPreviewView;
  'config:import-apply': ImportResultView;
}

export interface ConfigEvents {
  /** The config file changed on disk (by anyone): the editor can offer to reload. */
  'config:changed': ConfigText;
}

/** Each config channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const configChannelNames = {
  'config:read': true,
  'config:save': true,
  'servers:upsert': true,
  'servers:remove': true,
  'servers:set-enabled': true,
  'config:export': true,
  'config:import-preview': true,
  'config:import-apply': true,
} as const satisfies Record<keyof ConfigResults, true>;
export const configEventNames = { 'config:changed': true } as const satisfies Record<keyof ConfigEvents, true>;
