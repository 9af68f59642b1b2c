import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { homedir } from 'node:os';
import type { SandboxSetting, ServerEntry, ServersConfig } from '../../../src-shared/schemas/config';
import type { ConsentView, ServerView } from '../../../src-shared/host-api';
import { Emitter, type Event } from '../../../src-shared/lifecycle';
import type { FeatureName } from './features/feature';
import { resolveRoots } from './features/roots';
import type { ResolvedServer, SupervisorDeps } from './policy';
import { Supervisor } from './supervisor';
import { CoreError, messageOf } from '../errors';
import { effectiveSandbox, expandPath } from '../process/sandbox/index';
import { privateFolderOf, removePrivateFolder } from '../process/sandbox/private-folder';
import { assertEnvFileNames, assertNoHostKey, buildChildEnv, hostKeys, MissingInputError, readDotenvFile, resolveRecord, type HostKey, type ReferenceContext } from '../config/env';

type HostEnv = Readonly<Record<string, string | undefined>>;

export interface ServerFleetOptions {
  hostEnv: HostEnv;
  /** The host's private `.env` values (for `${env:NAME}` only). */
  dotenv: Readonly<Record<string, string>>;
  /** Each `.env` file the host read (data folder, working folder): the LLM keys in them are refused by value. */
  dotenvFiles?: ReadonlyArray<Readonly<Record<string, string>>>;
  /** For comparing environment names (case-insensitive on Windows); default `process.platform`. */
  platform?: NodeJS.Platform;
  /** For `${secret:NAME}` and answered `${input:ID}`. */
  secrets?: { get(name: string): string | undefined };
  allowList: () => readonly string[];
  /** Folder relative `cwd`/`envFile` paths (and a relative `command` without a `cwd`) are resolved against (the config file's folder). */
  baseDir: string;
  /** PATH for children and command lookup: the host's merged with the login shell's (desktop launches). */
  childPath?: string;
  /**
   * Supervision, era cache, ledger, per-server logs and the rest each server's supervisor is given; `fleet` is this
   * fleet, for what looks at the other servers (a sampling request's `includeContext`).
   */
  supervisorDeps?: (name: string, fleet: ServerFleet) => SupervisorDeps;
  /** The settings' default `roots` for entries without their own (paths relative to `baseDir`, or file:// URIs). */
  defaultRoots?: () => readonly string[] | undefined;
  /** The settings' default `sandbox` for stdio entries without one of their own. */
  sandboxDefault?: () => SandboxSetting | undefined;
  /**
   * What sandboxes keep out (Switchboard's own folders, the host's working folders) and where each server's private
   * sandbox folder goes (`privateRoot/<name>`, removed with the entry).
   */
  sandboxFolders?: { own: string[]; workdirs: string[]; privateRoot: string };
  /** Consent before a command runs or a secret is sent (trust/consent.ts): an unapproved entry waits, where the gate is enforced. */
  consent?: ConsentGate;
  /** Told when a listener of the fleet's events throws (the other listeners still run). */
  onListenerError?: (error: unknown) => void;
}

/** What the fleet asks about approvals (ConsentStore implements it). */
export interface ConsentGate {
  /** The approval a person must give for this entry, or undefined when it is approved (or needs none). */
  pending(name: string, entry: ServerEntry): ConsentView | undefined;
  approve(name: string, entry: ServerEntry, via: 'approval'): void;
}

export interface ApplyResult {
  added: string[];
  removed: string[];
  restarted: string[];
  unchanged: string[];
}

/** One server's feature list was reloaded or cleared. */
export interface FeatureChange {
  server: string;
  feature: FeatureName;
}

/** What makes two definitions the same server: the entry and everything resolved from it. */
function fingerprint(server: ResolvedServer): string {
  return JSON.stringify([launchPart(server.entry), server.childEnv?.env ?? null, server.headers ?? null, server.problem ?? null, server.sandbox ?? null]);
}

/**
 * Resolves one entry's references and builds its child environment. Problems become the server's error — among
 * them any value that would hand the server one of the host's own LLM keys (by name or by value, whatever the
 * route), unless the user allow-listed that key's name.
 */
export function resolveServer(name: string, entry: ServerEntry, options: ServerFleetOptions): ResolvedServer {
  const resolved = resolveLaunch(name, entry, options);
  if (resolved.problem !== undefined) return resolved;
  try {
    return { ...resolved, roots: resolveRoots(entry.roots ?? options.defaultRoots?.() ?? [], options.baseDir) };
  } catch (error) {
    return { ...resolved, problem: `mcpServers.${name}.${messageOf(error)}` };
  }
}

/** The entry without what changes nothing about its launch (roots, sampling policy): those apply without a restart. */
function launchPart(entry: ServerEntry): ServerEntry {
  const { roots, sampling, ...launch } = entry;
  void roots;
  void sampling;
  return launch;
}

function resolveLaunch(name: string, entry: ServerEntry, options: ServerFleetOptions): ResolvedServer {
  const where = `mcpServers.${name}`;
  try {
    const keys = hostKeys(options);
    if (entry.command !== undefined) {
      const envFile = entry.envFile !== undefined ? absolute(entry.envFile, options.baseDir) : undefined;
      const fileEnv = envFile !== undefined ? readEnvFile(envFile, where, options) : {};
      const serverEnv = { ...fileEnv, ...resolveRecord(entry.env, `${where}.env`, options) };
      const cwd = entry.cwd !== undefined ? absolute(entry.cwd, options.baseDir) : undefined;
      const hostEnv = options.childPath !== undefined ? { ...options.hostEnv, PATH: options.childPath } : options.hostEnv;
      const childEnv = buildChildEnv({ hostEnv, allowList: options.allowList(), serverEnv });
      for (const [variable, value] of Object.entries(childEnv.env)) {
        const raw = entry.env?.[variable];
        const at =
          childEnv.sources[variable] !== 'server-env'
            ? `${where}: ${variable} (${childEnv.sources[variable] === 'allow-list' ? 'on the allow-list' : 'inherited'})`
            : raw !== undefined || envFile === undefined
              ? `${where}.env.${variable}`
              : `${where}.envFile ${envFile}: ${variable}`;
        assertNoHostKey(value, at, raw, keys, options);
      }
      assertNoKeyInLine(entry.command, entry.args ?? [], where, keys, options);
      const sandbox = effectiveSandbox(entry.sandbox, options.sandboxDefault?.());
      const home = options.hostEnv.HOME ?? homedir();
      const absoluteIn = (paths: string[]): string[] => paths.map((p) => expandPath(p, home, options.baseDir));
      const around = options.sandboxFolders;
      const folders = around ? { folders: { own: around.own, workdirs: around.workdirs, private: privateFolderOf(around.privateRoot, name) } } : {};
      return {
        name,
        entry: { ...entry, ...(cwd !== undefined ? { cwd } : {}) },
        commandBase: cwd ?? options.baseDir,
        childEnv,
        ...(sandbox ? { sandbox: { ...sandbox, allowRead: absoluteIn(sandbox.allowRead), allowWrite: absoluteIn(sandbox.allowWrite), ...folders } } : {}),
      };
    }
    const headers = resolveRecord(entry.headers, `${where}.headers`, options);
    for (const [header, value] of Object.entries(headers)) assertNoHostKey(value, `${where}.headers.${header}`, entry.headers?.[header], keys, options);
    if (entry.url !== undefined) assertNoHostKey(entry.url, `${where}.url`, undefined, keys, options);
    return { name, entry, headers };
  } catch (error) {
    return {
      name,
      entry,
      problem: messageOf(error),
      ...(error instanceof CoreError && error.data !== undefined ? { problemData: error.data } : {}),
      ...(error instanceof MissingInputError ? { needsInput: error.inputId } : {}),
    };
  }
}

function absolute(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/** A command line is seen by every process on the machine (`ps`): no host key in it, literal or not. */
function assertNoKeyInLine(command: string, args: readonly string[], where: string, keys: readonly HostKey[], context: ReferenceContext): void {
  assertNoHostKey(command, `${where}.command`, undefined, keys, context);
  args.forEach((arg, index) => assertNoHostKey(arg, `${where}.args[${index}]`, undefined, keys, context));
}

function readEnvFile(file: string, where: string, context: ReferenceContext): Record<string, string> {
  // Unlike the host's optional .env, a server's envFile was named on purpose: a missing one is an error.
  if (!existsSync(file)) throw new CoreError('config-invalid', `${where}.envFile: ${file} does not exist. Create it, or fix the path (relative paths start at the config file's folder).`);
  let values: Record<string, string>;
  try {
    values = readDotenvFile(file);
  } catch (error) {
    throw new CoreError('config-invalid', `${where}.envFile: cannot read ${file} (${messageOf(error)})`);
  }
  // The host's own .env (or any file with its key names) never hands an LLM key over.
  assertEnvFileNames(values, `${where}.envFile`, file, context);
  return values;
}

/**
 * The set of supervisors, one per configured server: applies each new config to them (only what changed restarts)
 * and answers for them by name.
 */
export class ServerFleet {
  private readonly supervisors = new Map<string, Supervisor>();
  private applying: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private readonly changed: Emitter<void>;
  private readonly featureChanged: Emitter<FeatureChange>;
  /** A server was added or removed, or one's view changed (status, stderr, a list). */
  readonly onChanged: Event<void>;
  /** One server's feature list was reloaded or cleared. */
  readonly onFeature: Event<FeatureChange>;

  constructor(private readonly options: ServerFleetOptions) {
    this.changed = new Emitter<void>(options.onListenerError);
    this.featureChanged = new Emitter<FeatureChange>(options.onListenerError);
    this.onChanged = this.changed.event;
    this.onFeature = this.featureChanged.event;
  }

  /** Creates and starts a supervisor for every server of the config (disabled ones stay stopped). */
  load(config: ServersConfig): void {
    void this.apply(config);
  }

  private create(resolved: ResolvedServer): Supervisor {
    const supervisor = new Supervisor(resolved, this.options.supervisorDeps?.(resolved.name, this));
    supervisor.setConsent(this.consentOf(resolved));
    // The supervisor's emitters go with it (its dispose), and these subscriptions with them.
    supervisor.onChanged(() => this.changed.fire());
    supervisor.onFeature((feature) => this.featureChanged.fire({ server: resolved.name, feature }));
    if (resolved.entry.disabled !== true) void supervisor.start();
    return supervisor;
  }

  /**
   * Applies a new config: only servers whose effective definition changed restart, added ones start, removed
   * ones stop with their whole tree; the rest are not touched (same process, same session).
   */
  apply(config: ServersConfig): Promise<ApplyResult> {
    const run = this.applying.then(() => this.applyNow(config));
    this.applying = run.catch(() => undefined);
    return run;
  }

  private async applyNow(config: ServersConfig): Promise<ApplyResult> {
    const result: ApplyResult = { added: [], removed: [], restarted: [], unchanged: [] };
    if (this.disposed) return result;
    const plan: Array<{ name: string; keep?: Supervisor; resolved?: ResolvedServer }> = [];
    const retired: Supervisor[] = [];
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const resolved = resolveServer(name, entry, this.options);
      const existing = this.supervisors.get(name);
      const pending = existing && fingerprint(existing.server) === fingerprint(resolved) ? this.consentOf(resolved) : undefined;
      // A loosened sampling policy on a running server: it stops (below) and waits, its old policy kept till then.
      const holdNow = existing !== undefined && pending?.enforced === true && existing.consent === undefined;
      if (existing && fingerprint(existing.server) === fingerprint(resolved) && !holdNow) {
        // Same launch; an approval given meanwhile (the server form saving it unchanged) lets it start; a waiting
        // one shows what it waits for now (the hash a person approves must be of what they see).
        if (pending) existing.setConsent(pending);
        else if (existing.consent) existing.setConsent(undefined, existing.server.entry.disabled !== true);
        // Roots or the sampling policy may have changed: applied to the running session (roots announced to it).
        existing.update(resolved);
        plan.push({ name, keep: existing });
        result.unchanged.push(name);
        continue;
      }
      if (existing) {
        retired.push(existing);
        result.restarted.push(name);
      } else result.added.push(name);
      plan.push({ name, resolved });
    }
    const names = new Set(plan.map((p) => p.name));
    for (const [name, supervisor] of this.supervisors) {
      if (names.has(name)) continue;
      retired.push(supervisor);
      result.removed.push(name);
    }
    // The old process trees end before their replacements start (a server may hold a port or a lock).
    await Promise.all(retired.map((c) => c.dispose()));
    // A removed server's private sandbox folder (its caches) goes with it, once nothing of it runs.
    const privateRoot = this.options.sandboxFolders?.privateRoot;
    if (privateRoot !== undefined) for (const name of result.removed) removePrivateFolder(privateRoot, name);
    if (this.disposed) return result;
    this.supervisors.clear();
    for (const step of plan) this.supervisors.set(step.name, step.keep ?? this.create(step.resolved as ResolvedServer));
    this.changed.fire();
    return result;
  }

  /** A problem-free entry's pending approval (a server with a problem fails with it first). */
  private consentOf(resolved: ResolvedServer): ConsentView | undefined {
    if (resolved.problem !== undefined) return undefined;
    return this.options.consent?.pending(resolved.name, resolved.entry);
  }

  /**
   * A person approved the launch they were shown (`hash` from its ConsentView): recorded, and the server starts
   * (unless disabled). Refused when the entry changed since they looked.
   */
  async approve(name: string, hash: string): Promise<void> {
    await this.applying;
    const supervisor = this.get(name);
    const pending = supervisor.consent;
    if (!pending) return;
    if (pending.hash !== hash) {
      throw new CoreError('invalid-argument', `What "${name}" runs or sends changed since it was shown; review it again before approving.`, { data: { server: name } });
    }
    this.options.consent?.approve(name, supervisor.server.entry, 'approval');
    supervisor.setConsent(undefined, supervisor.server.entry.disabled !== true);
  }

  /** Resolves when the configs given to load()/apply() so far are applied: each new server's start has run up to its spawn. */
  applied(): Promise<void> {
    return this.applying.then(() => undefined);
  }

  get(name: string): Supervisor {
    const supervisor = this.supervisors.get(name);
    if (!supervisor) {
      const names = [...this.supervisors.keys()].join(', ');
      throw new CoreError('unknown-server', `There is no server named "${name}" in the config. Configured: ${names || 'none'}.`, { data: { server: name } });
    }
    return supervisor;
  }

  views(): ServerView[] {
    return [...this.supervisors.values()].map((c) => c.view());
  }

  /** Resolves when every enabled server (or the one named) is ready or failed. */
  async settled(name?: string): Promise<void> {
    await this.applying;
    const scope = name === undefined ? [...this.supervisors.values()] : [this.get(name)];
    // Waits for starts in progress; never starts a server someone stopped.
    for (;;) {
      const pending = scope.filter((c) => c.currentStatus === 'starting');
      if (pending.length === 0) return;
      await Promise.all(pending.map((c) => c.start()));
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.supervisors.values()].reverse();
    this.supervisors.clear();
    // Each supervisor closes its session before its child; servers are independent, so close them together.
    await Promise.all(all.map((c) => c.dispose()));
    this.changed.dispose();
    this.featureChanged.dispose();
  }
}
