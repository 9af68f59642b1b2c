import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/*
 * The web project's hosts serve the renderer bundle from a copy of out/renderer taken once, here, for the whole run
 * (SWITCHBOARD_UI_DIR, which the workers and so the hosts inherit). Serving out/renderer itself would race with
 * anyone rebuilding the same checkout meanwhile (electron-vite empties out/renderer and writes new hashed files): a
 * page loaded mid-build gets no index.html, or an index.html whose scripts are already gone.
 */

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');

/** The files a built page names (index.html's script and style, the chunks the scripts import), relative to `dir`. */
function referencedFiles(dir: string): string[] {
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const names = new Set<string>();
  for (const match of index.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)) if (match[1]) names.add(match[1]);
  const assets = join(dir, 'assets');
  for (const file of existsSync(assets) ? readdirSync(assets) : []) {
    if (!file.endsWith('.js')) continue;
    for (const match of readFileSync(join(assets, file), 'utf8').matchAll(/["'`]\.\/([\w.-]+\.(?:js|css))["'`]/g)) {
      if (match[1]) names.add(`assets/${match[1]}`);
    }
  }
  return [...names];
}

/** A copy is whole when it has an index.html and every file that page names. */
function isWhole(dir: string): boolean {
  try {
    return referencedFiles(dir).every((file) => existsSync(join(dir, file)));
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<() => void> {
  if (process.env.SWITCHBOARD_UI_DIR) return () => undefined;
  const copy = mkdtempSync(join(tmpdir(), 'switchboard-e2e-ui-'));
  // A build that is being written right now finishes within seconds; wait for a whole one, then keep that.
  for (let attempt = 1; ; attempt++) {
    rmSync(copy, { recursive: true, force: true });
    try {
      cpSync(built, copy, { recursive: true });
    } catch {
      // a file went away mid-copy (a rebuild): try again
    }
    if (isWhole(copy)) break;
    if (attempt >= 60) {
      rmSync(copy, { recursive: true, force: true });
      throw new Error(`${built} has no complete build (index.html and the files it names): run "npm run build" first.`);
    }
    await delay(500);
  }
  process.env.SWITCHBOARD_UI_DIR = copy;
  return () => rmSync(copy, { recursive: true, force: true });
}
