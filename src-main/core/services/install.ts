import type { z } from 'zod';
import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerEntry } from '../../../src-shared/schemas/config';
import type { InstallPlanView } from '../../../src-shared/contract/install';
import type { installSourceSchema } from '../../../src-shared/schemas/install';
import type { ConfigSnapshot, ConfigStore } from '../config/store';
import type { SecretStore } from '../secrets/store';
import { parseInstallLink, planFromLinkEntry } from '../install/deep-link';
import { Installer } from '../install/installer';
import { resolveRegistryInstall, type ResolvedRegistryInstall } from '../install/registry-install';
import { RegistryClient, registryServerView } from '../install/registry-client';
import type { HostEventBus } from './events';

export type InstallChannel = 'registry:search' | 'install:prepare' | 'install:apply' | 'install:uninstall' | 'install:pending';
type InstallSource = z.output<typeof installSourceSchema>;

export interface InstallServiceOptions {
  store: ConfigStore;
  secrets: SecretStore;
  dataDir: string;
  apply: (snapshot: ConfigSnapshot) => Promise<void>;
  events: HostEventBus;
  /** The registry used when a call names none (default the official one). */
  defaultRegistry?: string;
  fetch?: typeof fetch;
  /** Whether the app asks before starting an added entry (the consent gate). */
  needsApproval?: (name: string, entry: ServerEntry) => boolean;
}

/**
 * The catalogue and one-step installs: the registry browser, bundles dropped on the servers screen and
 * `switchboard://install` links. `install:prepare` shows what would be added; `install:apply` adds it. Entries added
 * this way are not approved: a stdio one, or a remote one that sends a secret, waits for consent (trust/consent.ts).
 */
export class InstallService {
  readonly api: Pick<HostMethods, InstallChannel>;
  private readonly installer: Installer;
  private pendingLink: string | undefined;

  constructor(private readonly options: InstallServiceOptions) {
    this.installer = new Installer({
      store: options.store,
      secrets: options.secrets,
      dataDir: options.dataDir,
      apply: options.apply,
      ...(options.needsApproval ? { needsApproval: options.needsApproval } : {}),
    });
    const client = (registry: string | undefined): RegistryClient => {
      const base = registry ?? options.defaultRegistry;
      return new RegistryClient({ ...(base !== undefined ? { registry: base } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) });
    };
    const fromRegistry = (
      registry: string | undefined,
      registryName: string,
      version: string | undefined,
      more: { name?: string; use?: string },
    ): Promise<ResolvedRegistryInstall> =>
      resolveRegistryInstall(client(registry), registryName, {
        ...more,
        ...(version !== undefined ? { version } : {}),
        dataDir: options.dataDir,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    /** A plan, and for a registry entry what was resolved (a downloaded bundle, say). */
    const resolve = async (source: InstallSource, name: string | undefined): Promise<{ plan: InstallPlanView; registry?: ResolvedRegistryInstall }> => {
      const naming = name !== undefined ? { name } : {};
      if (source.kind === 'registry') {
        const resolved = await fromRegistry(source.registry, source.name, source.version, { ...naming, ...(source.use ? { use: source.use } : {}) });
        return { plan: resolved.plan, registry: resolved };
      }
      if (source.kind === 'bundle')
        return { plan: await this.installer.planBundle(Buffer.from(source.data, 'base64'), { ...naming, fileLabel: source.fileName }) };
      const link = parseInstallLink(source.url);
      if (link.kind === 'entry') return { plan: planFromLinkEntry(link, name) };
      const resolved = await fromRegistry(link.registry, link.name, link.version, naming);
      return { plan: resolved.plan, registry: resolved };
    };
    this.api = {
      'registry:search': async ({ registry, search, cursor }) => {
        const c = client(registry);
        const page = await c.search(search, cursor);
        return { registry: c.base, servers: page.servers.map((s) => registryServerView(s)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      },
      'install:prepare': async ({ source, name }) => (await resolve(source, name)).plan,
      'install:apply': async ({ source, name, values }) => {
        if (source.kind === 'bundle')
          return this.installer.installBundle(Buffer.from(source.data, 'base64'), values ?? {}, {
            fileLabel: source.fileName,
            ...(name !== undefined ? { name } : {}),
          });
        const resolved = await resolve(source, name);
        return resolved.registry ? this.installer.addRegistry(resolved.registry, values ?? {}) : this.installer.add(resolved.plan, values ?? {});
      },
      'install:uninstall': async (name) => {
        await this.installer.uninstall(name);
      },
      'install:pending': async () => {
        const url = this.pendingLink;
        this.pendingLink = undefined;
        return url ?? null;
      },
    };
  }

  /** The OS handed the app a `switchboard://` link: the UI shows its install dialog (nothing is added yet). */
  offerLink(url: string): void {
    this.pendingLink = url;
    this.options.events.emit('install:offered', { url });
  }
}
