// Which app the QA kit drives (docs/testing.md#the-desktop-app): headless mode in Chromium, or the desktop app.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** How the kit runs the app: in Chromium from headless mode, or as the desktop app (Electron). */
export type KitMode = 'web' | 'electron';

/**
 * The Electron binary the kit would drive: `SWITCHBOARD_KIT_ELECTRON_PATH` (a packaged build, e.g. the QA flavour),
 * else the `electron` package's binary (resolved from the current folder, then from this package) when it is
 * downloaded and the package at `packageRoot` holds the built desktop app (out/main). Undefined when there is none.
 */
export function electronBinary(
  packageRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  searchFrom: readonly string[] = [process.cwd(), packageRoot],
): { executablePath: string; main: string | undefined } | undefined {
  const packaged = env.SWITCHBOARD_KIT_ELECTRON_PATH;
  if (packaged) return { executablePath: packaged, main: undefined };
  const main = join(packageRoot, 'out', 'main', 'index.js');
  if (!existsSync(main)) return undefined;
  for (const folder of searchFrom) {
    try {
      const dir = dirname(createRequire(join(folder, 'package.json')).resolve('electron/package.json'));
      const binary = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
      if (existsSync(binary)) return { executablePath: binary, main };
    } catch {
      // not installed there, or its binary not downloaded
    }
  }
  return undefined;
}

/**
 * The mode of this run: `SWITCHBOARD_KIT_MODE` (`electron` or `web`), else `electron` where an Electron binary is
 * found ({@link electronBinary}), else `web`. Fixed when the kit is loaded: a run is all one or all the other.
 */
export function kitMode(packageRoot: string, env: NodeJS.ProcessEnv = process.env, searchFrom?: readonly string[]): KitMode {
  const asked = env.SWITCHBOARD_KIT_MODE;
  if (asked === 'electron' || asked === 'web') return asked;
  if (asked) throw new Error(`SWITCHBOARD_KIT_MODE is "${asked}": use "electron" or "web" (or leave it unset to pick Electron where it is installed).`);
  return electronBinary(packageRoot, env, searchFrom) ? 'electron' : 'web';
}
