import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { ServerEntry, ServersConfig } from '../../../src-shared/schemas/config';
import type { ConsentPart, ConsentSubject, ConsentView, LaunchSubject, RemoteSubject, SamplingSubject } from '../../../src-shared/host-api';
import { readDotenvFile, referencesOf } from '../config/env';
import { writeFileAtomicSync } from '../support/data-files';
import { withFileLockSync } from '../support/file-lock';

/*
 * Consent before a command runs, or a secret is sent (SEP-1024). The app records, per server name, what a person
 * approved, in `<dataDir>/consent.json` (0600, atomic writes):
 *
 * - a stdio entry: command, args, cwd, the env NAMES it sets (values never: a rotated literal token needs no review,
 *   a new LD_PRELOAD does), envFile, sandbox; the references each env value contains (`${secret:X}`, as written:
 *   pointing API_TOKEN at `${env:AWS_SECRET_ACCESS_KEY}` is a change); and the full value of the variables that
 *   change how a program loads code (`loaderVariable` below: NODE_OPTIONS, LD_*, PYTHONPATH, …);
 * - a remote entry: its URL, the references each header value contains and its `oauth` settings when they name a
 *   secret. A remote entry that sends no secret of the host (no reference in its headers, no oauth secret) needs no
 *   approval: what it could send is in the file already;
 * - either kind: the `sampling` policy, which asks again only when it loosens (mode `allow`, a higher or no
 *   `perMinute`) relative to what was approved; tightening it applies at once.
 *
 * An entry whose subject has no record (added by import, a raw-editor paste, an install, an external edit of the
 * file, …) or whose record differs waits in status `needs-approval` until a person approves exactly what was shown.
 * Entries saved through the app's own server form are approved as they are saved.
 *
 * Approvals are kept per config file (its real path). Migration: the first time Switchboard sees a config file
 * (first run of this version, a fresh data folder, or a file the person pointed it at with `--config` /
 * `SWITCHBOARD_CONFIG`), every entry in it as it is at that moment is recorded as approved — they are what this
 * person already ran, chose to run, or the bundled first-run calculator, and refusing them would break every existing
 * setup. Approvals written before references, loader values, remote entries and sampling were covered (file version
 * 1) are migrated the same way, once per config file: a stdio record still matching its entry's command, args, cwd,
 * env names, envFile and sandbox is re-recorded with the entry's references, loader values and sampling as they are
 * then, and the remote entries present then are recorded; a record that no longer matches is left as it was, so that
 * entry asks. From then on, whatever is added or changed is asked about. A damaged approvals file approves nothing.
 */

export type ApprovedVia = 'first-run' | 'form' | 'approval';

const samplingSchema = z.object({ mode: z.enum(['ask', 'allow', 'never']), perMinute: z.number().optional() });
const referencesSchema = z.record(z.string(), z.array(z.string()));
const stdioSubjectSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  env: z.array(z.string()),
  envFile: z.string().optional(),
  sandbox: z.unknown().optional(),
  references: referencesSchema.optional(),
  loader: z.record(z.string(), z.string()).optional(),
  sampling: samplingSchema.optional(),
});
const remoteSubjectSchema = z.object({
  url: z.string(),
  references: referencesSchema.optional(),
  oauth: z.record(z.string(), z.unknown()).optional(),
  sampling: samplingSchema.optional(),
});
const recordSchema = z.object({
  hash: z.string(),
  subject: z.union([stdioSubjectSchema, remoteSubjectSchema]),
  approvedAt: z.string(),
  via: z.enum(['first-run', 'form', 'approval']),
});
const serversSchema = z.record(z.string(), recordSchema);
/** Approvals per config file (its real path): an entry's name means something only within its file. */
const fileSchemaV1 = z.object({ version: z.literal(1), configs: z.record(z.string(), serversSchema) });
/** `legacy`: the config files whose records were written by version 1 and are not migrated yet (see above). */
const fileSchema = z.object({ version: z.literal(2), configs: z.record(z.string(), serversSchema), legacy: z.array(z.string()).optional() });
type ConsentFile = z.infer<typeof fileSchema>;
export type ConsentRecord = z.infer<typeof recordSchema>;

function parseFile(text: string): ConsentFile {
  const json: unknown = JSON.parse(text);
  const old = fileSchemaV1.safeParse(json);
  if (old.success) return { version: 2, configs: old.data.configs, legacy: Object.keys(old.data.configs) };
  return fileSchema.parse(json);
}

function absolute(path: string, baseDir: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/**
 * Variables whose value changes how a program (or the shell, linker, interpreter or package manager behind it)
 * loads code, so that their full value is part of what a person approves. Matched without regard to case. The
 * docs/security.md ("Consent and sandbox") lists them; keep the two together.
 */
export const loaderVariables = {
  exact: [
    'PATH',
    'HOME',
    'XDG_CONFIG_HOME',
    'NODE_OPTIONS',
    'NODE_PATH',
    'NODE_REPL_EXTERNAL_MODULE',
    'BASH_ENV',
    'ENV',
    'ZDOTDIR',
    'PROMPT_COMMAND',
    'SHELLOPTS',
    'BASHOPTS',
    'GLIBC_TUNABLES',
    'GCONV_PATH',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'JDK_JAVA_OPTIONS',
    'CLASSPATH',
    'JAVA_HOME',
    'GEM_HOME',
    'GEM_PATH',
    'BUNDLE_GEMFILE',
    'PHPRC',
    'PHP_INI_SCAN_DIR',
    'DOTNET_STARTUP_HOOKS',
    'DOTNET_ADDITIONAL_DEPS',
    'GOFLAGS',
    'GIT_SSH',
    'GIT_SSH_COMMAND',
    'GIT_EXEC_PATH',
    'GIT_ASKPASS',
    'SSH_ASKPASS',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
  ],
  prefixes: [
    'LD_',
    'DYLD_',
    'PYTHON',
    'PERL',
    'RUBY',
    'LUA_',
    'NPM_CONFIG_',
    'YARN_',
    'BUN_CONFIG_',
    'PIP_',
    'UV_',
    'BASH_FUNC_',
    'GIT_CONFIG_',
    'CORECLR_',
    'COR_',
  ],
} as const;

const loaderExact = new Set<string>(loaderVariables.exact);

export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return loaderExact.has(upper) || loaderVariables.prefixes.some((prefix) => upper.startsWith(prefix));
}

/** Sorted keys, so that a record's JSON (and so its hash) does not depend on the order the file lists them in. */
function sorted<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The references in each value that has some (names sorted); undefined when none has. */
function referencesIn(values: Readonly<Record<string, string>> | undefined): Record<string, string[]> | undefined {
  const found: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    const refs = referencesOf(value);
    if (refs.length > 0) found[name] = refs;
  }
  return Object.keys(found).length > 0 ? sorted(found) : undefined;
}

function samplingOf(entry: ServerEntry): SamplingSubject | undefined {
  const sampling = entry.sampling;
  if (sampling === undefined) return undefined;
  return { mode: sampling.mode ?? 'ask', ...(sampling.perMinute !== undefined ? { perMinute: sampling.perMinute } : {}) };
}

/** The `oauth` settings when they name a secret the host would send (to the authorization server or the IdP). */
function oauthWithSecret(entry: ServerEntry): Record<string, unknown> | undefined {
  const oauth = entry.oauth;
  if (oauth === undefined) return undefined;
  const secret = oauth.clientSecret ?? oauth.privateKey ?? oauth.idp?.clientSecret ?? oauth.idp?.idToken;
  return secret !== undefined ? canonical(oauth) : undefined;
}

/** A JSON value with every object's keys sorted (a stable hash input). */
function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonical) as T;
  if (typeof value === 'object' && value !== null) return sorted(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v)]))) as T;
  return value;
}

/** What a person approves for an entry. Paths relative to `baseDir` (the config's folder). */
export function consentSubject(entry: ServerEntry, baseDir: string): ConsentSubject | undefined {
  const sampling = samplingOf(entry);
  if (entry.command === undefined) {
    if (entry.url === undefined) return undefined;
    const references = referencesIn(entry.headers);
    const oauth = oauthWithSecret(entry);
    return { url: entry.url, ...(references ? { references } : {}), ...(oauth ? { oauth } : {}), ...(sampling ? { sampling } : {}) };
  }
  const names = new Set(Object.keys(entry.env ?? {}));
  let envFile: string | undefined;
  const loader: Record<string, string> = {};
  if (entry.envFile !== undefined) {
    envFile = absolute(entry.envFile, baseDir);
    try {
      for (const [name, value] of Object.entries(readDotenvFile(envFile))) {
        names.add(name);
        if (isLoaderVariable(name)) loader[name] = value;
      }
    } catch {
      // unreadable: the server fails to resolve with that reason anyway; the path itself is part of the subject
    }
  }
  // The env block wins over the file, as it does for the child.
  for (const [name, value] of Object.entries(entry.env ?? {})) if (isLoaderVariable(name)) loader[name] = value;
  const references = referencesIn(entry.env);
  return {
    command: entry.command,
    args: [...(entry.args ?? [])],
    cwd: entry.cwd !== undefined ? absolute(entry.cwd, baseDir) : null,
    env: [...names].sort(),
    ...(envFile !== undefined ? { envFile } : {}),
    ...(entry.sandbox !== undefined ? { sandbox: entry.sandbox } : {}),
    ...(references ? { references } : {}),
    ...(Object.keys(loader).length > 0 ? { loader: sorted(loader) } : {}),
    ...(sampling ? { sampling } : {}),
  };
}

/** A stdio entry's subject (undefined for a remote one). */
export function launchSubject(entry: ServerEntry, baseDir: string): LaunchSubject | undefined {
  const subject = consentSubject(entry, baseDir);
  return subject && isLaunch(subject) ? subject : undefined;
}

export function isLaunch(subject: ConsentSubject): subject is LaunchSubject {
  return 'command' in subject;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The hash of what a subject approves, sampling apart (it is compared by how loose it is). A stdio subject without
 * references or loader values hashes exactly as approvals of version 1 did, so those keep approving it.
 */
export function subjectHash(subject: ConsentSubject): string {
  if (!isLaunch(subject)) return sha256(JSON.stringify(['remote', subject.url, subject.references ?? {}, subject.oauth ?? null]));
  const launch: unknown[] = [subject.command, subject.args, subject.cwd, subject.env, subject.envFile ?? null, subject.sandbox ?? null];
  if (subject.references !== undefined || subject.loader !== undefined) launch.push({ references: subject.references ?? {}, loader: subject.loader ?? {} });
  return sha256(JSON.stringify(launch));
}

/** The hash of version 1 approvals: the launch without references and loader values (migration only). */
function legacyHash(subject: LaunchSubject): string {
  const { references, loader, ...launch } = subject;
  void references;
  void loader;
  return subjectHash(launch);
}

/** The hash a consent view carries: everything shown, sampling included, so that approving what changed since is refused. */
function viewHash(subject: ConsentSubject): string {
  const hash = subjectHash(subject);
  return subject.sampling === undefined ? hash : sha256(JSON.stringify([hash, subject.sampling.mode, subject.sampling.perMinute ?? null]));
}

const modeRank = { never: 0, ask: 1, allow: 2 } as const;
const askEachTime: SamplingSubject = { mode: 'ask' };

/** Whether `now` lets a server sample more than `approved` did: a laxer mode, or a higher (or no) limit per minute. */
export function samplingLooser(now: SamplingSubject | undefined, approved: SamplingSubject | undefined): boolean {
  const a = now ?? askEachTime;
  const b = approved ?? askEachTime;
  if (modeRank[a.mode] !== modeRank[b.mode]) return modeRank[a.mode] > modeRank[b.mode];
  if (a.mode === 'never') return false;
  return (a.perMinute ?? Infinity) > (b.perMinute ?? Infinity);
}

/** A remote subject the host sends one of its secrets for (a header reference, an oauth secret). */
function sendsSecret(subject: RemoteSubject): boolean {
  return subject.references !== undefined || subject.oauth !== undefined;
}

/** The parts in which `now` differs from `before`. */
export function changedParts(now: ConsentSubject, before: ConsentSubject): ConsentPart[] {
  const parts: ConsentPart[] = ['command', 'args', 'cwd', 'env', 'envFile', 'sandbox', 'references', 'loader', 'url', 'oauth', 'sampling'];
  const value = (subject: ConsentSubject, part: ConsentPart): string => JSON.stringify((subject as unknown as Record<string, unknown>)[part] ?? null);
  return parts.filter((part) => value(now, part) !== value(before, part));
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
  private data: ConsentFile = { version: 2, configs: {} };
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
        this.data = parseFile(readFileSync(options.file, 'utf8'));
      } catch (error) {
        valid = false;
        problem = `${options.file} is not a valid approvals file (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); every server needs approval again`;
      }
    }
    this.valid = valid;
    this.problem = problem;
    if (initial) this.seedIfNew(initial);
  }

  private readonly valid: boolean;

  /**
   * The first valid version of a config file seen: its entries count as approved (the migration above); for a
   * config file with version 1 approvals, those are migrated. A damaged approvals file is never taken for a missing
   * one: that would approve whatever the config holds now. True when the file was seeded (not when migrated).
   */
  seedIfNew(config: ServersConfig): boolean {
    if (!this.valid) return false;
    if (Object.hasOwn(this.data.configs, this.key) && !this.isLegacy()) return false;
    return withFileLockSync(this.options.file, () => {
      this.reload();
      if (this.isLegacy()) {
        this.migrate(config);
        this.save();
        return false;
      }
      if (Object.hasOwn(this.data.configs, this.key)) return false;
      this.data.configs[this.key] = {};
      for (const [name, entry] of Object.entries(config.mcpServers)) this.record(name, entry, 'first-run');
      this.save();
      this.seeded = true;
      return true;
    });
  }

  private isLegacy(): boolean {
    return this.data.legacy?.includes(this.key) === true;
  }

  /** Version 1 records of this config file that still match their entry take in what is covered now (see above). */
  private migrate(config: ServersConfig): void {
    const servers = (this.data.configs[this.key] ??= {});
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const subject = consentSubject(entry, this.baseDir);
      if (!subject) continue;
      const record = Object.hasOwn(servers, name) ? servers[name] : undefined;
      if (isLaunch(subject)) {
        if (record && isLaunch(record.subject) && record.hash === legacyHash(subject)) servers[name] = { ...record, hash: subjectHash(subject), subject };
      } else if (!record) this.record(name, entry, 'first-run');
    }
    const legacy = (this.data.legacy ?? []).filter((key) => key !== this.key);
    if (legacy.length > 0) this.data.legacy = legacy;
    else delete this.data.legacy;
  }

  get enforced(): boolean {
    return this.options.enforced;
  }

  /** The entry's approval request, or undefined when it is approved (or needs none). */
  pending(name: string, entry: ServerEntry): ConsentView | undefined {
    const subject = consentSubject(entry, this.baseDir);
    if (!subject) return undefined;
    const hash = subjectHash(subject);
    const record = this.get(name);
    const sameLaunch = record?.hash === hash;
    const launchApproved = sameLaunch || (!isLaunch(subject) && !sendsSecret(subject));
    // A sampling policy is measured against the one approved with this launch; otherwise against the default.
    if (launchApproved && !samplingLooser(subject.sampling, sameLaunch ? record.subject.sampling : undefined)) return undefined;
    return {
      reason: record ? 'changed' : 'new',
      subject,
      ...(record ? { previous: record.subject, changed: changedParts(subject, record.subject) } : {}),
      hash: viewHash(subject),
      enforced: this.options.enforced,
    };
  }

  /** Records the entry's current subject as approved. */
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
      this.data = parseFile(readFileSync(this.options.file, 'utf8'));
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
    const subject = consentSubject(entry, this.baseDir);
    if (!subject) return false;
    const hash = subjectHash(subject);
    const existing = this.get(name);
    if (existing?.hash === hash && JSON.stringify(existing.subject.sampling ?? null) === JSON.stringify(subject.sampling ?? null)) return false;
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
