import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the built pieces live, relative to the built main file (out/main/index.js). */
export interface Locations {
  preload: string;
  rendererHtml: string;
  /** The Vite dev server's URL under `electron-vite dev`; undefined when loading the built files. */
  devServerUrl: string | undefined;
  /** Whether `url` is our renderer: the built index.html (any hash/query), or a page of the dev server. */
  isRendererUrl(url: string): boolean;
}

export function resolveLocations(mainFileUrl: string, devServerUrl: string | undefined): Locations {
  const mainDir = dirname(fileURLToPath(mainFileUrl));
  const preload = join(mainDir, '../preload/index.cjs');
  const rendererHtml = join(mainDir, '../renderer/index.html');
  const rendererHref = pathToFileURL(rendererHtml).href;
  const devOrigin = devServerUrl ? parseUrl(devServerUrl)?.origin : undefined;

  return {
    preload,
    rendererHtml,
    devServerUrl: devOrigin ? devServerUrl : undefined,
    isRendererUrl(url: string): boolean {
      const parsed = parseUrl(url);
      if (!parsed) return false;
      if (devOrigin) return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === devOrigin;
      if (parsed.protocol !== 'file:') return false;
      parsed.hash = '';
      parsed.search = '';
      return parsed.href === rendererHref;
    },
  };
}

/** `--config=FILE` or `--config FILE` from argv, made absolute against the current directory. */
export function configPathFromArgv(argv: readonly string[], cwd: string): string | undefined {
  return pathOption(argv, cwd, 'config');
}

/**
 * `--data-dir=DIR` or `--data-dir DIR` from argv, made absolute: the app's data folder (settings, secrets, approvals,
 * logs) instead of `<appData>/Switchboard`, as the CLI's `--data-dir` — for tests, and QA driving the app.
 */
export function dataDirFromArgv(argv: readonly string[], cwd: string): string | undefined {
  return pathOption(argv, cwd, 'data-dir');
}

function pathOption(argv: readonly string[], cwd: string, name: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === undefined) continue;
    let value: string | undefined;
    if (arg.startsWith(`--${name}=`)) value = arg.slice(`--${name}=`.length);
    else if (arg === `--${name}`) value = argv[i + 1];
    if (value) return isAbsolute(value) ? value : resolve(cwd, value);
  }
  return undefined;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
