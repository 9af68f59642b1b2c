// `npm run package`: the desktop app for this platform, in dist/. electron-builder loads this file itself (jiti).
// It downloads Electron for the target platform the first time, so it needs internet access.
import { Arch, type AfterPackContext, type Configuration } from 'electron-builder';
import { flipAppFuses } from './src-main/packaging/fuses';

/** Flips the Electron fuses (src-main/packaging/fuses.ts) on the packed binary, before electron-builder signs it. */
export async function afterPack(context: AfterPackContext): Promise<void> {
  const { packager } = context;
  const productFilename = packager.appInfo.productFilename;
  const executableName: unknown = 'executableName' in packager ? packager.executableName : undefined;
  await flipAppFuses({
    appOutDir: context.appOutDir,
    platform: context.electronPlatformName,
    arch: Arch[context.arch],
    productFilename,
    executableName: typeof executableName === 'string' ? executableName : productFilename,
  });
}

const config: Configuration = {
  appId: 'dev.switchboard.desktop',
  productName: 'Switchboard',
  directories: { output: 'dist' },
  // The built app (out/) and its resources (the calculator, the config's JSON Schema); production dependencies
  // are added by electron-builder. Everything goes into app.asar (its integrity is checked on macOS and Windows).
  files: ['out/**/*', 'resources/**/*', 'package.json', '!**/*.map'],
  asar: true,
  // No native modules: nothing to rebuild against Electron.
  npmRebuild: false,
  afterPack,
  // Archives, not installers: the app runs from wherever it is unpacked, and installers' tools are more downloads.
  linux: { target: ['tar.gz'], executableName: 'switchboard', category: 'Development' },
  mac: { target: ['zip'], category: 'public.app-category.developer-tools' },
  win: { target: ['zip'] },
};

export default config;
