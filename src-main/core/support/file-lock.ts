import { mkdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { privateDirMode } from './data-files';
import { CoreError } from '../errors';

/*
 * Files in the data folder (secrets, approvals, pins, chat and app settings) and the servers config are shared by
 * every Switchboard process on this account: the app or `serve`, and any number of CLI commands run at the same time.
 * Each read-modify-write of one of them happens under a lock on that file (proper-lockfile: a `FILE.lock` folder,
 * made with mkdir, which is atomic): the file is read again under the lock, changed, written atomically, and only
 * then is the lock released — so two writers never start from the same old text and one of them never loses its
 * change.
 *
 * Every hold is synchronous and short (a read and an atomic write of a small file). A lock folder older than
 * `lockStaleMs` belongs to a holder that died (SIGKILL, a power cut) and is taken over. A writer that cannot get the
 * lock within `lockWaitMs` fails with FileLockBusyError and writes nothing. Holds nest within one process (a bundle
 * install holds the config's lock around the config store's own edit).
 */

/** A lock folder not touched for this long is a dead holder's: a live hold lasts milliseconds. */
export const lockStaleMs = 4_000;
/** How long a writer waits for another process's hold before it gives up; longer than lockStaleMs, so a dead holder's lock is taken over in time. */
export const lockWaitMs = 6_000;

/** The path a lock is keyed on: the file's real path (a symlinked file is locked where its text lives). */
function canonical(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // not there yet: its folder's real path
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return resolve(file);
    }
  }
}

/** The lock folder of `file`. */
export function lockPathOf(file: string): string {
  return `${canonical(file)}.lock`;
}

/** A change not made because another process held the file's lock for longer than lockWaitMs. */
export class FileLockBusyError extends CoreError {
  constructor(
    readonly file: string,
    readonly lock: string,
    waitedMs: number,
  ) {
    const seconds = Math.round(waitedMs / 1000);
    super(
      'internal',
      `Not saved: another Switchboard process is changing ${file} and did not finish within ${seconds} s (it holds ${lock}). Nothing was written. Try again in a moment; if this keeps happening, end the switchboard process that is stuck.`,
      { data: { reason: 'file-locked', file, lock, seconds } },
    );
    this.name = 'FileLockBusyError';
  }
}

/** A FileLockBusyError, or the HostError it became on its way through the bridge. */
export function isFileLockBusy(error: unknown): boolean {
  if (error instanceof FileLockBusyError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, data } = error as { code?: unknown; data?: unknown };
  return code === 'internal' && typeof data === 'object' && data !== null && (data as { reason?: unknown }).reason === 'file-locked';
}

type Lockfile = typeof import('proper-lockfile');
let lockfileModule: Lockfile | undefined;

/**
 * proper-lockfile, loaded at the first lock: what it brings (graceful-fs, signal-exit and Node's `assert`) costs a
 * command that writes nothing tens of milliseconds of start-up. Synchronously, as the holds are: in the CLI's bundle
 * (CommonJS) `require` is the bundle's own and finds the copy bundled in; under ES modules (tsx, the desktop app's
 * main) a require made for this file finds it in node_modules.
 */
function lockfile(): Lockfile {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy, synchronous load (see above)
  lockfileModule ??= (typeof require === 'function' ? require('proper-lockfile') : createRequire(import.meta.url)('proper-lockfile')) as Lockfile;
  return lockfileModule;
}

/** Locks this process holds, by canonical path, with how deeply each is nested. */
const held = new Map<string, number>();

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The pause before the next try: short and jittered at first (holds are short), longer later. */
function pause(attempt: number): number {
  return Math.min(100, 5 + attempt * 5) * (0.5 + Math.random());
}

/** One try: the lock's release function, or undefined while another process holds it. */
function tryLock(path: string): (() => void) | undefined {
  const options = {
    realpath: false,
    stale: lockStaleMs,
    // A hold is synchronous: its refresh timer never runs before the release cancels it.
    onCompromised: () => undefined,
  };
  try {
    return lockfile().lockSync(path, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') return undefined;
    if (code !== 'ENOENT') throw error;
  }
  // The file's folder does not exist yet (a first write creates it): make it, as the write would.
  mkdirSync(dirname(path), { recursive: true, mode: privateDirMode });
  try {
    return lockfile().lockSync(path, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

function enter(path: string): boolean {
  const depth = held.get(path);
  if (depth === undefined) return false;
  held.set(path, depth + 1);
  return true;
}

function run<T>(path: string, release: (() => void) | undefined, fn: () => T): T {
  if (release !== undefined) held.set(path, 1);
  try {
    return fn();
  } finally {
    const depth = held.get(path) ?? 1;
    if (depth > 1) held.set(path, depth - 1);
    else {
      held.delete(path);
      try {
        release?.();
      } catch {
        // already gone (taken over as stale): nothing of ours is left to remove
      }
    }
  }
}

/**
 * One try at `path`'s lock, `started` being when the first try was made: the release when it was had, else how long
 * to wait before the next try. Throws FileLockBusyError once the wait has run out.
 */
function attemptLock(file: string, path: string, started: number, attempt: number): { release: () => void } | { waitMs: number } {
  const release = tryLock(path);
  if (release !== undefined) return { release };
  const waited = Date.now() - started;
  if (waited >= lockWaitMs) throw new FileLockBusyError(file, `${path}.lock`, waited);
  return { waitMs: Math.min(pause(attempt), lockWaitMs - waited) };
}

/**
 * Runs `fn` (a read-modify-write of `file`, synchronous) holding `file`'s lock, waiting for another process's hold up
 * to lockWaitMs (blocking this thread: holds last milliseconds). Throws FileLockBusyError when the wait runs out.
 */
export function withFileLockSync<T>(file: string, fn: () => T): T {
  const path = canonical(file);
  if (enter(path)) return run(path, undefined, fn);
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const step = attemptLock(file, path, started, attempt);
    if ('release' in step) return run(path, step.release, fn);
    sleepSync(step.waitMs);
  }
}

/**
 * The same, for callers that may wait: the waiting between tries does not block the event loop. `fn` still runs
 * synchronously once the lock is had, so nothing else in this process interleaves with the hold.
 */
export async function withFileLock<T>(file: string, fn: () => T): Promise<T> {
  const path = canonical(file);
  if (enter(path)) return run(path, undefined, fn);
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const step = attemptLock(file, path, started, attempt);
    if ('release' in step) return run(path, step.release, fn);
    await new Promise((done) => setTimeout(done, step.waitMs));
  }
}
