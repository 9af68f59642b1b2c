import type { HostArgs, HostResults } from '../../../src-shared/host-api';
import type { InstallChannel, InstallService, InstallServiceOptions } from './install';

/** What the host offers of InstallService (the HostApi channels, the desktop shell's links), and when it is loaded. */
export type LazyInstallService = Pick<InstallService, 'api' | 'offerLink'> & { readonly ready: Promise<void> };

/**
 * InstallService, its module loaded once `after` settles: the CLI passes the servers' first start, up to their
 * spawns (the installer, the registry client, semver and node:tls are on no server's start, so a short command's
 * servers are spawned before they are read); the app passes a settled promise and awaits `ready` before any
 * server starts. Every method waits for the service, in the order of the calls; once it is loaded, offerLink
 * announces the link at once, as InstallService does.
 */
export function lazyInstallService(options: InstallServiceOptions, after: Promise<unknown>): LazyInstallService {
  let loaded: InstallService | undefined;
  const service = after
    .then(
      () => undefined,
      () => undefined,
    )
    .then(async () => (loaded = new (await import('./install')).InstallService(options)));
  // A failure to load is the first call's to report (and ready's); not an unhandled rejection meanwhile.
  service.catch(() => undefined);
  const ready = service.then(() => undefined);
  ready.catch(() => undefined);
  const forward =
    <C extends InstallChannel>(channel: C) =>
    async (...args: HostArgs<C>): Promise<HostResults[C]> => {
      const method: (...a: HostArgs<C>) => Promise<HostResults[C]> = (await service).api[channel];
      return method(...args);
    };
  return {
    api: {
      'registry:search': forward('registry:search'),
      'install:prepare': forward('install:prepare'),
      'install:apply': forward('install:apply'),
      'install:uninstall': forward('install:uninstall'),
      'install:pending': forward('install:pending'),
    },
    offerLink(url) {
      if (loaded) loaded.offerLink(url);
      else void service.then((s) => s.offerLink(url));
    },
    ready,
  };
}
