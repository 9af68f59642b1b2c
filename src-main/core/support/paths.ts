import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const appName = 'Switchboard';

/**
 * The app's own folder, the same one Electron calls userData: `~/.config/Switchboard` on Linux (honouring
 * XDG_CONFIG_HOME), `~/Library/Application Support/Switchboard` on macOS, `%APPDATA%\Switchboard` on Windows.
 * The CLI and headless mode use it too, so all faces of the app share one config.
 */
export function appDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', appName);
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), appName);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), appName);
}

export const configFileName = 'mcp.json';

/** `path` is `folder` itself or below it (both absolute; compare real paths where links matter). */
export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/** The 0600 file of `${secret:NAME}` values (the CLI's and headless mode's store; the desktop's fallback). */
export function secretsFileOf(dataDir: string): string {
  return join(dataDir, 'secrets.json');
}

export function logsDirOf(dataDir: string): string {
  return join(dataDir, 'logs');
}

/**
 * The repository / package root: the nearest folder above this file with a package.json. The file sits three
 * folders deep in the source tree (src-main/core/support/paths.ts) but two deep when bundled (out/main/, out/cli/).
 */
export function packageRoot(): string {
  let folder = fileURLToPath(new URL('.', import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json in any folder above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
  return folder;
}

export function calculatorPath(): string {
  return join(packageRoot(), 'resources', 'calculator.mjs');
}

/** The JSON Schema of the servers config (generated from the zod schema by scripts/gen-schema.ts). */
export function schemaPath(): string {
  return join(packageRoot(), 'resources', 'mcp.schema.json');
}
