import { app } from 'electron';
import { createRequire } from 'node:module';

/** How often a running app looks for a newer release after the check at start. */
const checkEveryMs = 6 * 60 * 60 * 1000;

export interface UpdateChecks {
  dispose(): void;
}

/**
 * Auto-update from the GitHub releases the release workflow publishes (electron-updater, reading the app-update.yml
 * electron-builder packs beside the app): checked at start and every six hours; a newer version downloads in the
 * background and installs when the app quits, with the OS notification electron-updater shows. Only a packaged
 * app checks — `npm start`, an unpackaged build and tests never do — and SWITCHBOARD_NO_UPDATES=1 turns it off.
 * On Linux electron-updater updates the AppImage and the deb (the tarball-less targets we build).
 */
export function startUpdateChecks(log: (line: string) => void, env: Readonly<Record<string, string | undefined>> = process.env): UpdateChecks {
  if (!app.isPackaged || env.SWITCHBOARD_NO_UPDATES === '1') return { dispose: () => undefined };
  // A CommonJS package whose `autoUpdater` is a lazy getter (one updater per platform and package type): required,
  // not imported, and only here, so a dev run never loads it.
  const { autoUpdater } = createRequire(import.meta.url)('electron-updater') as typeof import('electron-updater');
  autoUpdater.logger = {
    info: (m: unknown) => log(`update: ${String(m)}`),
    warn: (m: unknown) => log(`update: ${String(m)}`),
    error: (m: unknown) => log(`update failed: ${String(m)}`),
    debug: () => undefined,
  };
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  const check = (): void => {
    autoUpdater.checkForUpdatesAndNotify().catch((error: unknown) => log(`update check failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  check();
  const timer = setInterval(check, checkEveryMs);
  timer.unref();
  return { dispose: () => clearInterval(timer) };
}
