// `npm run package`: the desktop app's installers for this platform, in dist/ — AppImage and deb on Linux, a
// universal dmg (and the zip auto-update needs) on macOS, NSIS on Windows. electron-builder loads this file itself
// (jiti). It downloads Electron for the target platform the first time, so it needs internet access.
// `npm run package -- --publish always` (the release workflow, .github/workflows/release.yml) uploads them to a
// GitHub release; the app checks that repository's releases for updates (src-main/electron/updates.ts).
import { Arch, type AfterPackContext, type Configuration } from 'electron-builder';
import { flipAppFuses, type BuildFlavour } from './src-main/packaging/fuses';

/** Flips the Electron fuses (src-main/packaging/fuses.ts) on the packed binary, before electron-builder signs it. */
export async function afterPack(context: AfterPackContext): Promise<void> {
  await flipFusesAfterPack(context, 'release');
}

/** The QA flavour's hook (electron-builder.qa.config.ts): the same fuses but `--inspect`, which Playwright needs. */
export async function afterPackQa(context: AfterPackContext): Promise<void> {
  await flipFusesAfterPack(context, 'qa');
}

async function flipFusesAfterPack(context: AfterPackContext, flavour: BuildFlavour): Promise<void> {
  const { packager } = context;
  const productFilename = packager.appInfo.productFilename;
  const executableName: unknown = 'executableName' in packager ? packager.executableName : undefined;
  await flipAppFuses(
    {
      appOutDir: context.appOutDir,
      platform: context.electronPlatformName,
      arch: Arch[context.arch],
      productFilename,
      executableName: typeof executableName === 'string' ? executableName : productFilename,
    },
    flavour,
  );
}

/** `owner/name` (as GitHub Actions sets GITHUB_REPOSITORY) as publish options; nothing when unset. */
export function githubRepository(value: string | undefined): { owner: string; repo: string } | Record<string, never> {
  const match = /^([\w.-]+)\/([\w.-]+)$/.exec(value ?? '');
  return match?.[1] && match[2] ? { owner: match[1], repo: match[2] } : {};
}

const config: Configuration = {
  appId: 'dev.switchboard.desktop',
  productName: 'Switchboard',
  directories: { output: 'dist' },
  // The built app (out/) and its resources (the calculator, the config's JSON Schema); production dependencies
  // are added by electron-builder. Everything goes into app.asar (its integrity is checked on macOS and Windows).
  // (out/cli/ is the npm package's CLI bundle; the app does not use it.)
  files: ['out/**/*', 'resources/**/*', 'package.json', '!**/*.map', '!out/cli/**'],
  asar: true,
  // No native modules: nothing to rebuild against Electron.
  npmRebuild: false,
  afterPack,
  // switchboard://install links (issue 13): the Info.plist URL type on macOS, the .desktop MimeType on Linux, the
  // registry key on Windows. The app itself also registers at start (src-main/electron/deep-links.ts).
  protocols: [{ name: 'Switchboard install link', schemes: ['switchboard'] }],
  // Installers. Each carries app-update.yml naming the GitHub repository below; electron-updater reads it.
  linux: {
    target: ['AppImage', 'deb'],
    executableName: 'switchboard',
    category: 'Development',
    // deb wants a maintainer (package.json has no author).
    maintainer: 'Switchboard maintainers <switchboard@users.noreply.github.com>',
  },
  // Universal: one app for Intel and Apple silicon. The zip is what auto-update on macOS downloads.
  mac: {
    target: [
      { target: 'dmg', arch: ['universal'] },
      { target: 'zip', arch: ['universal'] },
    ],
    category: 'public.app-category.developer-tools',
  },
  win: { target: [{ target: 'nsis', arch: ['x64'] }] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  // GitHub releases: the workflow publishes there (GH_TOKEN), installed apps update from there. In the workflow
  // GITHUB_REPOSITORY names the repository; elsewhere electron-builder takes it from the git remote.
  publish: [{ provider: 'github', releaseType: 'release', ...githubRepository(process.env.GITHUB_REPOSITORY) }],
};

export default config;
