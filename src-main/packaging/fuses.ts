import { join } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion, type FuseV1Config } from '@electron/fuses';

/**
 * Electron fuses for the packaged app, flipped in electron-builder's afterPack hook (electron-builder.config.ts),
 * before signing. Build-time code: it runs under the packager, never in the app.
 *
 * - RunAsNode off: `ELECTRON_RUN_AS_NODE=1` no longer turns the app's binary into a general Node runtime. The app
 *   starts its bundled calculator with `--switchboard-run-script` instead (src-main/core/process/run-script.ts).
 * - NODE_OPTIONS and `--inspect`-style arguments off: nobody attaches a debugger or preloads code into the app.
 * - Cookie encryption on (with the OS keychain, like Chromium).
 * - Where Electron can check it (macOS, Windows; electron-builder writes the hashes there), the app.asar's
 *   embedded integrity is validated, and the app loads only from app.asar.
 * - File protocol privileges stay: the window loads its page from file:// and its ES module scripts need them.
 *
 * The `qa` flavour (`npm run package:qa`, electron-builder.qa.config.ts) differs in one fuse: `--inspect`-style
 * arguments stay on, because Playwright's `_electron.launch` starts the app with `--inspect=0` to drive it.
 */
export type BuildFlavour = 'release' | 'qa';

export function fuseConfigFor(platform: string, arch: string, flavour: BuildFlavour = 'release'): FuseV1Config {
  const asarIntegrity = platform === 'darwin' || platform === 'mas' || platform === 'win32';
  return {
    version: FuseVersion.V1,
    // Flipping a fuse changes the binary, which invalidates the ad-hoc signature an arm64 Mac insists on (a
    // universal binary has an arm64 slice too).
    resetAdHocDarwinSignature: platform === 'darwin' && (arch === 'arm64' || arch === 'universal'),
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: flavour === 'qa',
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: asarIntegrity,
    [FuseV1Options.OnlyLoadAppFromAsar]: asarIntegrity,
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: true,
  };
}

/** What the afterPack hook knows about the app it packed. */
export interface PackedApp {
  /** The folder holding the app: the executable (Linux, Windows) or the .app bundle (macOS). */
  appOutDir: string;
  /** Electron's name for the platform: darwin, mas, win32, linux. */
  platform: string;
  /** x64, arm64, … */
  arch: string;
  /** The product's file name (`Switchboard`): the .app bundle and the Windows .exe. */
  productFilename: string;
  /** The Linux executable's name. */
  executableName: string;
}

/** The file @electron/fuses patches: the executable, or (macOS) the .app bundle, which it resolves to the framework. */
export function electronBinaryPath(app: PackedApp): string {
  switch (app.platform) {
    case 'darwin':
    case 'mas':
      return join(app.appOutDir, `${app.productFilename}.app`);
    case 'win32':
      return join(app.appOutDir, `${app.productFilename}.exe`);
    default:
      return join(app.appOutDir, app.executableName);
  }
}

/** Flips the packaged app's fuses; rejects (failing the build) when the binary has no fuse wire. */
export async function flipAppFuses(app: PackedApp, flavour: BuildFlavour = 'release'): Promise<void> {
  await flipFuses(electronBinaryPath(app), fuseConfigFor(app.platform, app.arch, flavour));
}
