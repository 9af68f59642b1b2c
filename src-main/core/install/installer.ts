import type { InstallPlanView, InstallResultView } from '../../../src-shared/contract/install';
import type { ServerEntry } from '../../../src-shared/config-schema';
import { setAt, type ConfigSnapshot, type ConfigStore } from '../config-store';
import { CoreError } from '../errors';
import type { SecretStore } from '../secrets';
import { findInstalledBundle, planFromBundle, removeBundleFiles, unpackBundle, type BundleEnvironment } from './bundle';
import { fillPlan } from './plan';
import type { ResolvedRegistryInstall } from './registry-install';

/*
 * Applies install plans to the servers config. An installed entry is never recorded as approved: like an import,
 * the app shows its exact command (or, for a remote entry that sends a secret, its URL and header references) and
 * waits for consent before it starts it (trust/consent.ts).
 */

export interface InstallerDeps {
  store: ConfigStore;
  secrets: SecretStore;
  dataDir: string;
  /** Apply the file's config to the running servers now (a no-op when servers are not run). */
  apply?: (snapshot: ConfigSnapshot) => Promise<void>;
  /** Whether the app asks before starting this entry (the consent gate); default: stdio entries do. */
  needsApproval?: (name: string, entry: ServerEntry) => boolean;
}

export class Installer {
  constructor(private readonly deps: InstallerDeps) {}

  private taken(name: string): boolean {
    return Object.hasOwn(this.deps.store.snapshot().config.mcpServers, name);
  }

  private assertFree(name: string, allowBundleReplace: boolean): void {
    if (!this.taken(name)) return;
    if (allowBundleReplace && findInstalledBundle(this.deps.dataDir, name)) return;
    throw new CoreError('invalid-argument', `A server named "${name}" is already in the config; pick another name (--name NAME, or the name field).`, { data: { server: name, reason: 'name-taken' } });
  }

  /** Adds a registry or link plan with the person's values. */
  async add(plan: InstallPlanView, values: Readonly<Record<string, string>>): Promise<InstallResultView> {
    this.assertFree(plan.name, false);
    const { entry, secretsStored } = fillPlan(plan, values, this.deps.secrets);
    let snapshot: ConfigSnapshot;
    try {
      snapshot = await this.deps.store.update(setAt(['mcpServers', plan.name], entry), `add server "${plan.name}"`);
    } catch (error) {
      // Nothing was added: the secrets stored for it go too.
      for (const name of secretsStored) this.deps.secrets.delete(name);
      throw error;
    }
    await this.deps.apply?.(snapshot);
    return { name: plan.name, secretsStored, needsApproval: this.deps.needsApproval?.(plan.name, entry) ?? entry.command !== undefined };
  }

  /** Adds a resolved registry install: its package/remote entry, or the bundle it downloaded. */
  addRegistry(resolved: ResolvedRegistryInstall, values: Readonly<Record<string, string>>): Promise<InstallResultView> {
    return resolved.bundle ? this.installBundle(resolved.bundle, values, { name: resolved.plan.name }) : this.add(resolved.plan, values);
  }

  /** Plans a bundle install (nothing written). */
  async planBundle(bytes: Uint8Array, options: { name?: string; fileLabel?: string; env?: BundleEnvironment } = {}): Promise<InstallPlanView> {
    return (await planFromBundle(bytes, { dataDir: this.deps.dataDir, ...options })).plan;
  }

  /** Unpacks a bundle and adds its entry (replacing the same bundle installed under that name before). */
  async installBundle(bytes: Uint8Array, values: Readonly<Record<string, string>>, options: { name?: string; fileLabel?: string; env?: BundleEnvironment } = {}): Promise<InstallResultView> {
    const planned = await planFromBundle(bytes, { dataDir: this.deps.dataDir, ...options });
    this.assertFree(planned.plan.name, true);
    const { entry, secretsStored } = fillPlan(planned.plan, values, this.deps.secrets);
    let snapshot: ConfigSnapshot;
    try {
      unpackBundle(this.deps.dataDir, planned, secretsStored);
      snapshot = await this.deps.store.update(setAt(['mcpServers', planned.plan.name], entry), `install bundle "${planned.plan.name}"`);
    } catch (error) {
      // Not installed: its secrets go; files already unpacked stay only if an earlier install of it owns them.
      for (const name of secretsStored) this.deps.secrets.delete(name);
      const found = findInstalledBundle(this.deps.dataDir, planned.plan.name);
      if (found && !this.taken(planned.plan.name)) removeBundleFiles(found);
      throw error;
    }
    await this.deps.apply?.(snapshot);
    return { name: planned.plan.name, secretsStored, needsApproval: true, installedAt: planned.folder };
  }

  /** Removes a server: its config entry, and for a bundle its unpacked files and the secrets it stored. */
  async uninstall(name: string): Promise<{ removedFiles?: string; secretsDeleted: string[] }> {
    const found = findInstalledBundle(this.deps.dataDir, name);
    if (!this.taken(name) && !found) throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`, { data: { server: name } });
    if (this.taken(name)) {
      const snapshot = await this.deps.store.update(setAt(['mcpServers', name], undefined), `remove server "${name}"`);
      await this.deps.apply?.(snapshot);
    }
    if (!found) return { secretsDeleted: [] };
    const secrets = removeBundleFiles(found);
    const secretsDeleted = secrets.filter((s) => this.deps.secrets.delete(s));
    return { removedFiles: found.folder, secretsDeleted };
  }
}
