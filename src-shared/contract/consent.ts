/** What a person approves before an entry runs or sends a secret (SEP-1024), as the UI and the CLI see it. Zod-free. */

/** A sampling policy as approved or asked about (`perMinute` absent: no limit). */
export interface SamplingSubject {
  mode: 'ask' | 'allow' | 'never';
  perMinute?: number;
}

/** What both kinds of entry put before a person. */
interface SubjectCommon {
  /**
   * Per env variable (stdio) or header (remote): the `${env:…}`, `${secret:…}`, `${input:…}` references its value
   * contains, as written (`${secret:github.TOKEN}`), never what they resolve to. Only names whose value has one;
   * a literal value is never part of a subject (a rotated literal token needs no approval).
   */
  references?: Record<string, string[]>;
  /** The entry's own `sampling` policy, when it has one (absent: ask each time, no limit). */
  sampling?: SamplingSubject;
}

/** What a person approves before a stdio entry may run: the exact launch, env names only (SEP-1024). */
export interface LaunchSubject extends SubjectCommon {
  command: string;
  args: string[];
  /** Absolute; null: Switchboard's own working folder. */
  cwd: string | null;
  /** Names the entry sets (its `env` block and its `envFile`), sorted; never values. */
  env: string[];
  /** The `envFile` path, when the entry names one. */
  envFile?: string;
  /** The entry's own `sandbox` value, when it has one. */
  sandbox?: unknown;
  /**
   * The full values of the variables that change how a program loads code (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, …;
   * docs/security.md lists them), from `env` or the `envFile`: these are shown, since they decide what runs.
   */
  loader?: Record<string, string>;
}

/** What a person approves before a remote entry sends a secret: where it goes and which references it sends. */
export interface RemoteSubject extends SubjectCommon {
  url: string;
  /** The entry's `oauth` settings, when they name a secret (their secrets are `${secret:…}` references, never values). */
  oauth?: Record<string, unknown>;
}

export type ConsentSubject = LaunchSubject | RemoteSubject;

/** The parts of a subject a `changed` approval differs in from what was approved before. */
export type ConsentPart = 'command' | 'args' | 'cwd' | 'env' | 'envFile' | 'sandbox' | 'references' | 'loader' | 'url' | 'oauth' | 'sampling';

export interface ConsentView {
  /** `new`: never approved under this name; `changed`: approved before with another launch (`previous`). */
  reason: 'new' | 'changed';
  subject: ConsentSubject;
  previous?: ConsentSubject;
  /** With `previous`: the parts that differ (a stdio entry that became remote lists `url`). */
  changed?: ConsentPart[];
  /** Pass back to `servers:approve`: approving a launch that changed meanwhile is refused. */
  hash: string;
  /** The app waits for approval before starting it; false in the CLI, which runs what its config says. */
  enforced: boolean;
}

export interface ConsentResults {
  /** The server starts once approved (unless disabled). */
  'servers:approve': void;
}

/** Each consent channel once, at runtime (the preload and the IPC gateway register them by name). */
export const consentChannelNames = { 'servers:approve': true } as const satisfies Record<keyof ConsentResults, true>;
