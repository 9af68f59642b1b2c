import { rmSync } from 'node:fs';
import type { InstallPlanView, InstallResultView } from '../../../src-shared/contract/install';
import type { ServerEntry } from '../../../src-shared/schemas/config';
import { setAt, type ConfigSnapshot, type ConfigStore } from '../config/store';
import { CoreError } from '../errors';
import type { SecretStore } from '../secrets/store';
import {
  findInstalledBundle,
  placeBundle,
  planFromBundle,
  removeBundleFiles,
  restoreBundleRecord,
  stageBundle,
  type BundleEnvironment,
  type BundleInstallRecord,
} from './bundle';
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
    throw new CoreError('invalid-argument', `A server named "${name}" is already in the config; pick another name (--name NAME, or the name field).`, {
      data: { server: name, reason: 'name-taken' },
    });
  }

  /**
   * Runs `fn` holding the config file's lock, on the file as it is now: whatever another process (another install,
   * the app) added before is seen — its name is taken, its entry stays — and nothing comes between the check and the
   * write.
   */
  private locked<T>(fn: () => T): Promise<T> {
    return this.deps.store.locked(() => {
      this.deps.store.refresh();
      return fn();
    });
  }

  /** Drops the secrets an install stored, unless the name's entry (an earlier install it was to replace) uses them. */
  private dropSecrets(name: string, secretsStored: readonly string[]): void {
    if (this.taken(name)) return;
    for (const secret of secretsStored) this.deps.secrets.delete(secret);
  }

  /** Adds a registry or link plan with the person's values. */
  async add(plan: InstallPlanView, values: Readonly<Record<string, string>>): Promise<InstallResultView> {
    this.assertFree(plan.name, false);
    const { entry, snapshot, secretsStored } = await this.locked(() => {
      this.assertFree(plan.name, false);
      const { entry, secretsStored } = fillPlan(plan, values, this.deps.secrets);
      try {
        return { entry, secretsStored, snapshot: this.deps.store.updateSync(setAt(['mcpServers', plan.name], entry), `add server "${plan.name}"`) };
      } catch (error) {
        // Nothing was added: the secrets stored for it go too.
        this.dropSecrets(plan.name, secretsStored);
        throw error;
      }
    });
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

  /**
   * Unpacks a bundle and adds its entry (replacing the same bundle installed under that name before). The files are
   * unpacked first, aside; then, under the config's lock, they are swapped in and the entry written — and when the
   * entry cannot be written, the files go again (unless an entry still uses the folder): a bundle folder is never left
   * without an entry, however many installs run at once.
   */
  async installBundle(
    bytes: Uint8Array,
    values: Readonly<Record<string, string>>,
    options: { name?: string; fileLabel?: string; env?: BundleEnvironment } = {},
  ): Promise<InstallResultView> {
    const { dataDir } = this.deps;
    const planned = await planFromBundle(bytes, { dataDir, ...options });
    const name = planned.plan.name;
    this.assertFree(name, true);
    const staged = stageBundle(dataDir, planned);
    let result: { snapshot: ConfigSnapshot; secretsStored: string[] };
    try {
      result = await this.locked(() => {
        this.assertFree(name, true);
        const { entry, secretsStored } = fillPlan(planned.plan, values, this.deps.secrets);
        let replaced: BundleInstallRecord | undefined;
        let placed = false;
        try {
          replaced = placeBundle(dataDir, planned, staged, secretsStored);
          placed = true;
          return { secretsStored, snapshot: this.deps.store.updateSync(setAt(['mcpServers', name], entry), `install bundle "${name}"`) };
        } catch (error) {
          // Not installed: its secrets go, and the files it put in place — unless an entry (an earlier install of
          // this bundle) still uses the folder, whose record then comes back.
          this.dropSecrets(name, secretsStored);
          if (placed) {
            if (replaced !== undefined && this.taken(replaced.server)) restoreBundleRecord(dataDir, planned, replaced);
            else {
              const found = findInstalledBundle(dataDir, name);
              if (found) removeBundleFiles(found);
            }
          }
          throw error;
        }
      });
    } finally {
      // Swapped in by now, or not wanted.
      rmSync(staged, { recursive: true, force: true });
    }
    await this.deps.apply?.(result.snapshot);
    return { name, secretsStored: result.secretsStored, needsApproval: true, installedAt: planned.folder };
  }

  /** Removes a server: its config entry, and for a bundle its unpacked files and the secrets it stored. */
  async uninstall(name: string): Promise<{ removedFiles?: string; secretsDeleted: string[] }> {
    if (!this.taken(name) && !findInstalledBundle(this.deps.dataDir, name))
      throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`, { data: { server: name } });
    const { snapshot, found } = await this.locked(() => {
      const found = findInstalledBundle(this.deps.dataDir, name);
      if (!this.taken(name) && !found) throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`, { data: { server: name } });
      const snapshot = this.taken(name) ? this.deps.store.updateSync(setAt(['mcpServers', name], undefined), `remove server "${name}"`) : undefined;
      if (found) removeBundleFiles(found);
      return { snapshot, found };
    });
    if (snapshot) await this.deps.apply?.(snapshot);
    if (!found) return { secretsDeleted: [] };
    const secretsDeleted = found.record.secrets.filter((s) => this.deps.secrets.delete(s));
    return { removedFiles: found.folder, secretsDeleted };
  }
}
