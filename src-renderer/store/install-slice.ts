import type { HostApi, HostArgs, HostResults, Unsubscribe } from '../../src-shared/host-api';
import type { SliceCreator } from './types';

/** Where an install comes from (the `install:prepare` source). */
export type InstallSource = HostArgs<'install:prepare'>[0]['source'];

/**
 * One-step installs: the registry catalogue, bundles dropped on the servers screen and
 * `switchboard://install` links. `installing` is the source whose install dialog is open.
 */
export interface InstallSlice {
  installing: InstallSource | undefined;
  openInstall(source: InstallSource | undefined): void;
  registrySearch(args: HostArgs<'registry:search'>[0]): Promise<HostResults['registry:search']>;
  installPrepare(args: HostArgs<'install:prepare'>[0]): Promise<HostResults['install:prepare']>;
  installApply(args: HostArgs<'install:apply'>[0]): Promise<HostResults['install:apply']>;
  installUninstall(name: string): Promise<void>;
  /** Shows links the OS hands the app (now and later) in the install dialog; returns the unsubscribe. */
  watchInstallLinks(): Unsubscribe;
}

export const createInstallSlice =
  (api: HostApi): SliceCreator<InstallSlice> =>
  (set) => ({
    installing: undefined,
    openInstall: (installing) => set({ installing }),
    registrySearch: (args) => api['registry:search'](args),
    installPrepare: (args) => api['install:prepare'](args),
    installApply: (args) => api['install:apply'](args),
    installUninstall: (name) => api['install:uninstall'](name),
    watchInstallLinks() {
      const show = (url: string): void => set({ installing: { kind: 'link', url } });
      const off = api.on('install:offered', ({ url }) => {
        // Taken so that a later start does not show it again.
        void api['install:pending']().catch(() => null);
        show(url);
      });
      void api['install:pending']().then(
        (url) => url !== null && show(url),
        () => undefined,
      );
      return off;
    },
  });
