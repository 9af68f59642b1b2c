import type { ServerEntry, ServersConfig } from '../../../src-shared/schemas/config';
import type { ConsentView, ServerView } from '../../../src-shared/host-api';
import { Emitter, type Event } from '../../../src-shared/lifecycle';
import type { FeatureName } from './features/feature';
import type { SupervisorDeps } from './supervisor-deps';
import { Supervisor } from './supervisor';
import { CoreError } from '../errors';
import { removePrivateFolder } from '../process/sandbox/private-folder';
import { fingerprint, resolveServer, type ResolvedServer, type ResolveOptions } from '../config/resolve';

export interface ServerFleetOptions extends ResolveOptions {
  /**
   * Supervision, era cache, ledger, per-server logs and the rest each server's supervisor is given; `fleet` is this
   * fleet, for what looks at the other servers (a sampling request's `includeContext`).
   */
  supervisorDeps?: (name: string, fleet: ServerFleet) => SupervisorDeps;
  /** Consent before a command runs or a secret is sent (trust/consent.ts): an unapproved entry waits, where the gate is enforced. */
  consent?: ConsentGate;
  /** Told when a listener of the fleet's events throws (the other listeners still run). */
  onListenerError?: (error: unknown) => void;
  /** Only these servers start (the rest are known, and stay stopped); default every enabled one. */
  startOnly?: ReadonlySet<string>;
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

  /** Creates and starts a supervisor for every server of the config (disabled ones, and those not selected, stay stopped). */
  load(config: ServersConfig): void {
    void this.apply(config);
  }

  private create(resolved: ResolvedServer): Supervisor {
    const supervisor = new Supervisor(resolved, this.options.supervisorDeps?.(resolved.name, this));
    supervisor.setConsent(this.consentOf(resolved));
    // The supervisor's emitters go with it (its dispose), and these subscriptions with them.
    supervisor.onChanged(() => this.changed.fire());
    supervisor.onFeature((feature) => this.featureChanged.fire({ server: resolved.name, feature }));
    const selected = this.options.startOnly?.has(resolved.name) ?? true;
    if (resolved.entry.disabled !== true && selected) void supervisor.start();
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
      throw new CoreError('invalid-argument', `What "${name}" runs or sends changed since it was shown; review it again before approving.`, {
        data: { server: name },
      });
    }
    this.options.consent?.approve(name, supervisor.server.entry, 'approval');
    supervisor.setConsent(undefined, supervisor.server.entry.disabled !== true);
  }

  /** Resolves when the configs given to load()/apply() so far are applied: each new server's start has run up to its spawn. */
  applied(): Promise<void> {
    return this.applying.then(() => undefined);
  }

  /** Whether the named server is configured and ready now (its status as it is, not as last told to the UI). */
  isReady(name: string): boolean {
    return this.supervisors.get(name)?.currentStatus === 'ready';
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

  /** A use of every ready server's tools (a chat turn about to offer them): lists past their ttl are fetched again first. */
  async freshenTools(): Promise<void> {
    const ready = [...this.supervisors.values()].filter((c) => c.currentStatus === 'ready');
    await Promise.all(ready.map((c) => c.features.tools.freshen().catch(() => undefined)));
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
