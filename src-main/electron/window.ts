import { BrowserWindow, screen, type Rectangle } from 'electron';
import type { Locations } from './locations';
import type { WindowBounds } from './settings';

export interface MainWindowOptions {
  locations: Locations;
  bounds: WindowBounds | undefined;
  saveBounds: (bounds: WindowBounds) => void;
  title: string;
}

const defaultSize = { width: 1200, height: 800 };

export interface MainWindow {
  readonly window: BrowserWindow;
  /** Persist the bounds now (`app.exit` closes windows without `close` events). */
  saveBounds(): void;
}

/**
 * The one Switchboard window: locked-down webPreferences, restored bounds, renderer loaded. Navigation and
 * window.open are locked down for every web contents in security.ts (`lockDownAllContents`).
 */
export function createMainWindow(options: MainWindowOptions): MainWindow {
  const { locations } = options;
  const restored = visibleBounds(options.bounds);
  const window = new BrowserWindow({
    ...(restored ?? defaultSize),
    minWidth: 640,
    minHeight: 420,
    title: options.title,
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: locations.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (options.bounds?.maximized) window.maximize();

  window.once('ready-to-show', () => window.show());
  window.webContents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (!isMainFrame) return;
    console.error(`[switchboard] could not load ${url}: ${description} (${code})`);
    if (!window.isVisible()) window.show();
  });
  window.webContents.on('preload-error', (_event, path, error) => {
    console.error(`[switchboard] preload ${path} failed: ${error.stack ?? error.message}`);
  });

  const saveBounds = (): void => {
    if (window.isDestroyed()) return;
    const { x, y, width, height } = window.getNormalBounds();
    options.saveBounds({ x, y, width, height, maximized: window.isMaximized() });
  };
  window.on('close', saveBounds);

  const load = locations.devServerUrl ? window.loadURL(locations.devServerUrl) : window.loadFile(locations.rendererHtml);
  load.catch((error: unknown) => console.error(`[switchboard] renderer did not load: ${String(error)}`));
  return { window, saveBounds };
}

/** Saved bounds, if they still land mostly on a connected display; otherwise let Electron center the window. */
function visibleBounds(bounds: WindowBounds | undefined): Rectangle | { width: number; height: number } | undefined {
  if (!bounds) return undefined;
  const { width, height } = bounds;
  if (bounds.x === undefined || bounds.y === undefined) return { width, height };
  const rect: Rectangle = { x: bounds.x, y: bounds.y, width, height };
  const area = screen.getDisplayMatching(rect).workArea;
  const overlapW = Math.min(rect.x + rect.width, area.x + area.width) - Math.max(rect.x, area.x);
  const overlapH = Math.min(rect.y + rect.height, area.y + area.height) - Math.max(rect.y, area.y);
  const visible = overlapW >= Math.min(200, rect.width) && overlapH >= Math.min(100, rect.height);
  return visible ? rect : { width: Math.min(width, area.width), height: Math.min(height, area.height) };
}
