import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { ServerEntry, ServersConfig } from '../../../src-shared/config-schema';
import type { ConsentView, LaunchSubject } from '../../../src-shared/host-api';
import { readDotenvFile } from '../env';
import { writeFileAtomicSync } from '../data-files';
import { withFileLockSync } from '../file-lock';

/*
 * Consent before a command runs (SEP-1024, issue 12 §3). The app records, per server name, the launch a person
 * approved — command, args, cwd and the env NAMES the entry sets (values never: a changed token needs no review, a new
 * LD_PRELOAD does) — in `<dataDir>/consent.json` (0600, atomic writes). A stdio entry whose launch has no record
 * (added by import, a raw-editor paste, an external edit of the file, …) or whose record differs waits in status
 * `needs-approval` until a person approves exactly what would run. Entries saved through the app's own server form
 * are approved as they are saved.
 *
 * Approvals are kept per config file (its real path). Migration: the first time Switchboard sees a config file
 * (first run of this version, a fresh data folder, or a file the person pointed it at with `--config` /
 * `SWITCHBOARD_CONFIG`), every stdio entry in it as it is at that moment is recorded as approved — they are what this
 * person already ran, chose to run, or the bundled first-run calculator, and refusing them would break every existing
 * setup. From then on, whatever is added or changed (imports, pastes, external edits) is asked about. A damaged
 * approvals file approves nothing: every entry asks again.
 */

export type ApprovedVia = 'first-run' | 'form' | 'approval';

const subjectSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  env: z.array(z.string()),
  envFile: z.string().optional(),
  sandbox: z.unknown().optional(),
});
const recordSchema = z.object({
  hash: z.string(),
  subject: subjectSchema,
  approvedAt: z.string(),
  via: z.enum(['first-run', 'form', 'approval']),
});
const serversSchema = z.record(z.string(), recordSchema);
/** Approvals per config file (its real path): an entry's name means something only within its file. */
const fileSchema = z.object({ version: z.literal(1), configs: z.record(z.string(), serversSchema) });
type ConsentFile = z.infer<typeof fileSchema>;
export type ConsentRecord = z.infer<typeof recordSchema>;

function absolute(path: string, baseDir: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/** What a person approves for a stdio entry (undefined for a remote one). Paths relative to `baseDir` (the config's folder). */
export function launchSubject(entry: ServerEntry, baseDir: string): LaunchSubject | undefined {
  if (entry.command === undefined) return undefined;
  const names = new Set(Object.keys(entry.env ?? {}));
  let envFile: string | undefined;
  if (entry.envFile !== undefined) {
    envFile = absolute(entry.envFile, baseDir);
    try {
      for (const name of Object.keys(readDotenvFile(envFile))) names.add(name);
    } catch {
      // unreadable: the server fails to resolve with that reason anyway; the path itself is part of the subject
    }
  }
  return {
    command: entry.command,
    args: [...(entry.args ?? [])],
    cwd: entry.cwd !== undefined ? absolute(entry.cwd, baseDir) : null,
    env: [...names].sort(),
    ...(envFile !== undefined ? { envFile } : {}),
    ...(entry.sandbox !== undefined ? { sandbox: entry.sandbox } : {}),
  };
}

/** A stable hash of a subject (canonical JSON: fixed key order; env names sorted). */
export function subjectHash(subject: LaunchSubject): string {
  const canonical = JSON.stringify([subject.command, subject.args, subject.cwd, subject.env, subject.envFile ?? null, subject.sandbox ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}

export interface ConsentStoreOptions {
  /** `<dataDir>/consent.json`. */
  file: string;
  /** The servers config these approvals are for; its folder resolves relative cwd/envFile paths. */
  configPath: string;
  /** The app waits for approval (electron, `serve`); the CLI only reports. */
  enforced: boolean;
  now?: () => Date;
}

/** The approvals file. Reads it once; every approval rewrites it atomically. */
export class ConsentStore {
  private data: ConsentFile = { version: 1, configs: {} };
  private readonly key: string;
  private readonly baseDir: string;
  /** This config file had no approvals yet and was seeded from it (the migration above). */
  seeded = false;
  /** A problem reading the file (it is then treated as empty, never overwritten until an approval). */
  readonly problem: string | undefined;

  constructor(
    private readonly options: ConsentStoreOptions,
    /** The config as it is now; undefined while the file does not validate (seeded from its first valid version). */
    initial: ServersConfig | undefined,
  ) {
    let problem: string | undefined;
    this.key = realOrSame(options.configPath);
    this.baseDir = dirname(options.configPath);
    let valid = true;
    if (existsSync(options.file)) {
      try {
        this.data = fileSchema.parse(JSON.parse(readFileSync(options.file, 'utf8')));
      } catch (error) {
        valid = false;
        problem = `${options.file} is not a valid approvals file (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); every stdio server needs approval again`;
      }
    }
    this.valid = valid;
    this.problem = problem;
    if (initial) this.seedIfNew(initial);
  }

  private readonly valid: boolean;

  /**
   * The first valid version of a config file seen: its entries count as approved (the migration above). A damaged
   * approvals file is never taken for a missing one: that would approve whatever the config holds now.
   */
  seedIfNew(config: ServersConfig): boolean {
    if (!this.valid || Object.hasOwn(this.data.configs, this.key)) return false;
    return withFileLockSync(this.options.file, () => {
      this.reload();
      if (Object.hasOwn(this.data.configs, this.key)) return false;
      this.data.configs[this.key] = {};
      for (const [name, entry] of Object.entries(config.mcpServers)) this.record(name, entry, 'first-run');
      this.save();
      this.seeded = true;
      return true;
    });
  }

  get enforced(): boolean {
    return this.options.enforced;
  }

  /** The entry's approval request, or undefined when it is approved (or remote). */
  pending(name: string, entry: ServerEntry): ConsentView | undefined {
    const subject = launchSubject(entry, this.baseDir);
    if (!subject) return undefined;
    const hash = subjectHash(subject);
    const record = this.get(name);
    if (record?.hash === hash) return undefined;
    return {
      reason: record ? 'changed' : 'new',
      subject,
      ...(record ? { previous: record.subject } : {}),
      hash,
      enforced: this.options.enforced,
    };
  }

  /** Records the entry's current launch as approved (a no-op for remote entries). */
  approve(name: string, entry: ServerEntry, via: ApprovedVia): void {
    withFileLockSync(this.options.file, () => {
      this.reload();
      if (this.record(name, entry, via)) this.save();
    });
  }

  /**
   * Takes in what other hosts on this data folder (the app and a CLI, two windows' hosts) recorded since, before a
   * change is written (under the file's lock, so no other writer comes between), so that a write never drops their
   * approvals. A file that does not parse now keeps ours.
   */
  private reload(): void {
    if (!this.valid) return;
    try {
      this.data = fileSchema.parse(JSON.parse(readFileSync(this.options.file, 'utf8')));
    } catch {
      // missing or damaged meanwhile: what we hold is written back
    }
  }

  /** The record for a name (tests, doctor). */
  get(name: string): ConsentRecord | undefined {
    const servers = this.data.configs[this.key];
    return servers && Object.hasOwn(servers, name) ? servers[name] : undefined;
  }

  private record(name: string, entry: ServerEntry, via: ApprovedVia): boolean {
    const subject = launchSubject(entry, this.baseDir);
    if (!subject) return false;
    const hash = subjectHash(subject);
    if (this.get(name)?.hash === hash) return false;
    (this.data.configs[this.key] ??= {})[name] = { hash, subject, approvedAt: (this.options.now?.() ?? new Date()).toISOString(), via };
    return true;
  }

  private save(): void {
    writeFileAtomicSync(this.options.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
