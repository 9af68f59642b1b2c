// First import, for its side effect: app name and userData folder are set before anything reads them.
import './app-identity';
import { app, dialog, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAuthorizationUrl } from '../core/auth/browser';
import { createHost, type Host } from '../core/host';
import { configFileName } from '../core/support/paths';
import { upgradeLegacyLaunches } from '../core/config/migrate';
import { electronRuntime } from '../core/config/runtime';
import { appName } from './app-identity';
import { IpcGateway } from './ipc';
import { configPathFromArgv, resolveLocations } from './locations';
import { openSecretStore, type DesktopSecretStore } from './secrets';
import { lockDownAllContents, secureSession } from './security';
import { electronSandboxOrigin, registerAppSchemePrivileges, serveAppScheme } from './app-scheme';
import { ElectronSettings } from './settings';
import { startUpdateChecks, type UpdateChecks } from './updates';
import { registerDeepLinks } from './deep-links';
import { createMainWindow, type MainWindow } from './window';

/** How long a quit waits for servers to close before exiting anyway (dispose escalates to SIGKILL itself). */
const disposeTimeoutMs = 10_000;

function log(line: string): void {
  console.error(`[switchboard] ${line}`);
}

/**
 * The desktop app proper, started by entry.ts (which handles `--switchboard-run-script` first). `entryUrl` is the
 * built entry's (out/main/index.js): the preload and renderer are found beside it, and an unpackaged app's binary
 * needs it as its first argument to start a bundled script.
 */
export function runApp(entryUrl: string): void {
  if (!app.requestSingleInstanceLock()) {
    // Another Switchboard owns this userData folder; it focuses its window on 'second-instance'.
    app.quit();
  } else {
    start(entryUrl);
  }
}

function start(entryUrl: string): void {
  // Before ready: the scheme MCP Apps' frames are loaded from (an origin per frame, never the renderer's).
  registerAppSchemePrivileges();
  const locations = resolveLocations(entryUrl, app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL);
  const settings = new ElectronSettings();
  let mainWindow: MainWindow | null = null;
  let gateway: IpcGateway | null = null;
  let shuttingDown: Promise<void> | null = null;
  let updates: UpdateChecks | null = null;

  const dataDir = app.getPath('userData');
  let secrets: DesktopSecretStore | undefined;

  const configPath = process.env.SWITCHBOARD_CONFIG || configPathFromArgv(process.argv, process.cwd()) || undefined;
  // Bundled scripts (the calculator) run in a process of this binary through the run-script flag (entry.ts):
  // the packaged app has the RunAsNode fuse off, so ELECTRON_RUN_AS_NODE no longer makes the binary Node.
  const runtime = electronRuntime(process.execPath, app.isPackaged ? undefined : fileURLToPath(entryUrl));

  // After `ready`: safeStorage (the keychain) is only usable from then on.
  const hostPromise: Promise<Host> = app.whenReady().then(async () => {
    secrets = await openSecretStore(dataDir, log);
    // Configs written before the fuses start the calculator with ELECTRON_RUN_AS_NODE=1: rewrite those entries once.
    await upgradeLegacyLaunches(configPath ?? join(dataDir, configFileName), runtime, log);
    return createHost({
      mode: 'electron',
      dataDir,
      configPath,
      settings,
      runtime,
      // Launched from a dock or menu, the app lacks the user's shell PATH (npx, uvx, …).
      loginShellPath: true,
      // Our own log goes to logs/switchboard.log and, for whoever started the app from a terminal, stderr.
      logToStderr: true,
      secrets,
      sandboxOrigin: electronSandboxOrigin,
      ...(process.env.SWITCHBOARD_REGISTRY ? { registryUrl: process.env.SWITCHBOARD_REGISTRY } : {}),
      openPath: async (path) => {
        const failure = await shell.openPath(path);
        if (failure) log(`could not open ${path}: ${failure}`);
        return failure === '';
      },
      // An OAuth sign-in the person started: checked (https, or http on loopback; no shell metacharacters), then
      // handed to the OS as a URL — never to a shell.
      openAuthorizationUrl: async (url) => {
        try {
          await shell.openExternal(checkAuthorizationUrl(url).href);
          return true;
        } catch (error) {
          log(`could not open the sign-in page: ${errorText(error)}`);
          return false;
        }
      },
      // A URL elicitation the person consented to: https only (checked again here, next to the shell).
      openExternal: async (url) => {
        try {
          if (new URL(url).protocol !== 'https:') return false;
          await shell.openExternal(url);
          return true;
        } catch (error) {
          log(`could not open ${url}: ${errorText(error)}`);
          return false;
        }
      },
    });
  });
  // Observed here so a failure is not an unhandled rejection; reported below.
  hostPromise.catch(() => {});

  lockDownAllContents(locations.isRendererUrl);

  const openWindow = (): void => {
    if (mainWindow || shuttingDown) return;
    settings.applyNativeTheme();
    const created = createMainWindow({
      locations,
      title: appName,
      bounds: settings.windowBounds(),
      saveBounds: (bounds) => settings.setWindowBounds(bounds),
    });
    created.window.on('closed', () => {
      if (mainWindow === created) mainWindow = null;
    });
    mainWindow = created;
  };

  /** The one way out: dispose the host (sessions, then children), then exit. Idempotent. */
  const shutdown = (exitCode: number): Promise<void> => {
    shuttingDown ??= (async () => {
      mainWindow?.saveBounds();
      updates?.dispose();
      gateway?.dispose();
      try {
        const host = await hostPromise.catch(() => undefined);
        if (host) await withTimeout(host.dispose(), disposeTimeoutMs, 'closing the servers');
      } catch (error) {
        log(`shutdown: ${errorText(error)}`);
      }
      await secrets?.flush(); // never rejects: write errors are logged where they happen
      app.exit(exitCode);
    })();
    return shuttingDown;
  };

  app.on('second-instance', () => {
    const window = mainWindow?.window;
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  // switchboard://install links: offered to the UI's install dialog once the host is up (the full command is shown
  // there; nothing is added before the person confirms), and the window is brought forward.
  registerDeepLinks(app, (url) => {
    void hostPromise.then(
      (host) => {
        host.install.offerLink(url);
        mainWindow?.window.show();
      },
      () => undefined,
    );
  });
  // Closing the window quits on every platform: the servers it supervises should not outlive what shows them.
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (app.isReady() && gateway) openWindow();
  });
  app.on('before-quit', (event) => {
    // `app.exit` (used once disposal is done) does not emit before-quit, so this never loops.
    event.preventDefault();
    void shutdown(0);
  });
  // `process.on`, not `once`: electron-store's `conf` pulls in when-exit, which catches each signal once and
  // re-raises it; with no listener left, that second delivery would kill us before the servers are closed.
  // SIGHUP (terminal closed) too, for the same reason.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (!shuttingDown) log(`${signal}: shutting down`);
      void shutdown(0);
    });
  }

  hostPromise.then(
    (host) => {
      if (shuttingDown) return;
      secureSession(session.defaultSession, locations.devServerUrl, (frameId) => host.apps.frameGrants(frameId));
      serveAppScheme(session.defaultSession, (frameId) => host.apps.proxyResponse(frameId));
      gateway = new IpcGateway({
        api: host.api,
        window: () => mainWindow?.window ?? null,
        isRendererUrl: locations.isRendererUrl,
      });
      gateway.register();
      openWindow();
      // Packaged apps only (a dev run skips it): GitHub releases, downloaded in the background, installed on quit.
      updates = startUpdateChecks(log);
    },
    async (error: unknown) => {
      log(`could not start: ${errorText(error)}`);
      await app.whenReady();
      dialog.showErrorBox(`${appName} could not start`, errorText(error));
      void shutdown(1);
    },
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms; exiting anyway`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
