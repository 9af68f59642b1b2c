import { EventEmitter } from 'node:events';
import type { ServerEntry, ServersConfig } from '../../../src-shared/schemas/config';
import type { ConsentView, ServerView } from '../../../src-shared/host-api';
import type { FeatureName } from './features/feature';
import type { SupervisorDeps } from './supervisor-deps';
import { Supervisor as Connection } from './supervisor';
import { CoreError } from '../errors';
import { removePrivateFolder } from '../process/sandbox/private-folder';
import { fingerprint, resolveServer, type ResolvedServer, type ResolveOptions } from '../config/resolve';

export interface RegistryOptions extends ResolveOptions {
  /** Supervision, era cache, ledger and per-server logs for each connection. */
  connectionDeps?: (name: string) => SupervisorDeps;
  /** Consent before a command runs or a secret is sent (trust/consent.ts): an unapproved entry waits, where the gate is enforced. */
  consent?: ConsentGate;
}

/** What the registry asks about approvals (ConsentStore implements it). */
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

export interface RegistryEvents {
  changed: [];
  /** One server's feature list was reloaded or cleared. */
  feature: [server: string, feature: FeatureName];
}

/** Owns one Connection per configured server; disposes them in reverse order of creation. */
export class Registry extends EventEmitter<RegistryEvents> {
  private readonly connections = new Map<string, Connection>();
  private applying: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly options: RegistryOptions) {
    super();
  }

  /** Creates and starts a connection for every server of the config (disabled ones stay stopped). */
  load(config: ServersConfig): void {
    void this.apply(config);
  }

  private create(resolved: ResolvedServer): Connection {
    const connection = new Connection(resolved, this.options.connectionDeps?.(resolved.name));
    connection.setConsent(this.consentOf(resolved));
    connection.on('changed', () => this.emit('changed'));
    connection.on('feature', (feature) => this.emit('feature', resolved.name, feature));
    if (resolved.entry.disabled !== true) void connection.start();
    return connection;
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
    const plan: Array<{ name: string; keep?: Connection; resolved?: ResolvedServer }> = [];
    const retired: Connection[] = [];
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const resolved = resolveServer(name, entry, this.options);
      const existing = this.connections.get(name);
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
    for (const [name, connection] of this.connections) {
      if (names.has(name)) continue;
      retired.push(connection);
      result.removed.push(name);
    }
    // The old process trees end before their replacements start (a server may hold a port or a lock).
    await Promise.all(retired.map((c) => c.dispose()));
    // A removed server's private sandbox folder (its caches) goes with it, once nothing of it runs.
    const privateRoot = this.options.sandboxFolders?.privateRoot;
    if (privateRoot !== undefined) for (const name of result.removed) removePrivateFolder(privateRoot, name);
    if (this.disposed) return result;
    this.connections.clear();
    for (const step of plan) this.connections.set(step.name, step.keep ?? this.create(step.resolved as ResolvedServer));
    this.emit('changed');
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
    const connection = this.get(name);
    const pending = connection.consent;
    if (!pending) return;
    if (pending.hash !== hash) {
      throw new CoreError('invalid-argument', `What "${name}" runs or sends changed since it was shown; review it again before approving.`, { data: { server: name } });
    }
    this.options.consent?.approve(name, connection.server.entry, 'approval');
    connection.setConsent(undefined, connection.server.entry.disabled !== true);
  }

  /** Resolves when the configs given to load()/apply() so far are applied: each new server's start has run up to its spawn. */
  applied(): Promise<void> {
    return this.applying.then(() => undefined);
  }

  get(name: string): Connection {
    const connection = this.connections.get(name);
    if (!connection) {
      const names = [...this.connections.keys()].join(', ');
      throw new CoreError('unknown-server', `There is no server named "${name}" in the config. Configured: ${names || 'none'}.`, { data: { server: name } });
    }
    return connection;
  }

  views(): ServerView[] {
    return [...this.connections.values()].map((c) => c.view());
  }

  /** Resolves when every enabled server (or the one named) is ready or failed. */
  async settled(name?: string): Promise<void> {
    await this.applying;
    const scope = name === undefined ? [...this.connections.values()] : [this.get(name)];
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
    const all = [...this.connections.values()].reverse();
    this.connections.clear();
    // Each connection closes its session before its child; servers are independent, so close them together.
    await Promise.all(all.map((c) => c.dispose()));
    this.removeAllListeners();
  }
}
