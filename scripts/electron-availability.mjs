// `npm start`'s memory of a failed Electron download. On a machine that cannot download Electron (no internet, a
// proxy), every start would wait on the same failed attempt; the failure is written down with the electron version
// it was for, and later starts go straight to headless mode until that version changes or a retry is asked for.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const retryFlag = '--retry-electron';
export const retryEnv = 'SWITCHBOARD_RETRY_ELECTRON';

/** Inside node_modules, so a fresh install (or `rm -rf node_modules`) forgets it too. */
export function markerFile(root) {
  return join(root, 'node_modules', '.cache', 'switchboard', 'electron-unavailable.json');
}

/** The installed electron package's version, or undefined when it is not installed. */
export function electronVersion(electronDir) {
  try {
    const version = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The remembered failure `{ version, reason, at }`, or undefined (none, or a file that is not one). */
export function readMarker(file) {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof data?.version === 'string' && typeof data.reason === 'string' && typeof data.at === 'string') return data;
  } catch {
    // missing or unreadable: nothing remembered
  }
  return undefined;
}

/**
 * Whether this start tries the download: yes unless a failure is remembered for this very electron version and no
 * retry was asked for (`--retry-electron`, SWITCHBOARD_RETRY_ELECTRON=1). `{ attempt: false, marker }` otherwise.
 */
export function downloadDecision({ marker, version, retry }) {
  if (retry || marker === undefined || version === undefined || marker.version !== version) return { attempt: true };
  return { attempt: false, marker };
}

export function rememberFailure(file, version, reason, now = new Date()) {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ version, reason, at: now.toISOString() }, null, 2)}\n`);
  } catch {
    // a read-only node_modules: the next start simply tries again
  }
}

export function forgetFailure(file) {
  if (existsSync(file)) rmSync(file, { force: true });
}

/** How to make the next start try again, for the one line `npm start` prints. */
export function retryAdvice(root, file) {
  return `To try again: npm start -- ${retryFlag} (or delete ${relative(root, file)})`;
}
