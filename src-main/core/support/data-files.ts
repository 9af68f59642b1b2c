import { chmodSync, closeSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAlive } from './alive';

/*
 * Files in the data folder are the user's alone: era-cache.json holds whole command lines, secrets.json values,
 * conversations and the audit log what the model saw. Files are 0600, folders 0700 — created so, and tightened
 * when an older version (or a umask) left them looser. Saves go through a temp file named after the writing
 * process (`FILE.<pid>.tmp`), so a save killed with SIGKILL leaves a temp file the next start can tell is stray.
 */

export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/**
 * Creates the missing folders of `dir` (parents included) 0700 exactly: mkdir's mode passes through the umask, which
 * may take the owner's bits away (umask 277) — chmod sets them. Folders that already exist are left as they are.
 */
function makePrivateDirs(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: privateDirMode });
  if (first === undefined) return;
  // Every folder from the first one created down to `dir` is new, and so ours to set.
  for (let path = dir; ; path = dirname(path)) {
    chmodSync(path, privateDirMode);
    if (path === first || dirname(path) === path) break;
  }
}

/** Creates `dir` (and parents) 0700, and tightens it when it exists looser. */
export function ensurePrivateDir(dir: string): void {
  makePrivateDirs(dir);
  tighten(dir, privateDirMode);
}

/** Removes group/other bits beyond `mode` (never loosens, never follows a symlink). */
function tighten(path: string, mode: number): void {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o777 & ~mode) !== 0) chmodSync(path, stat.mode & mode & 0o777);
  } catch {
    // gone, or not ours to change
  }
}

/** Makes an existing file 0600 (an older version's 0644 file included). */
export function tightenFile(file: string): void {
  tighten(file, privateFileMode);
}

/** The temp file a save by this process uses for `file`. */
export const tempFileFor = (file: string, pid: number = process.pid): string => `${file}.${pid}.tmp`;

/**
 * Writes `path` atomically: a temp file of this process (`temp`, default {@link tempFileFor}), 0600 unless `mode`
 * says otherwise, flushed, renamed over the target — which so gets the temp's mode, tightening a looser one. Missing
 * folders are created 0700. The mode is set on the open file before anything is written to it, so the umask can
 * neither loosen nor narrow it and the content never sits in a file with other bits.
 */
export function writeFileAtomicSync(path: string, data: string, options: { mode?: number; fsync?: boolean; temp?: string } = {}): void {
  const mode = options.mode ?? privateFileMode;
  // A symlinked file (a config kept in a dotfiles repo) stays a symlink: the file it points at is replaced.
  let file = path;
  try {
    file = realpathSync(path);
  } catch {
    // not there yet
  }
  makePrivateDirs(dirname(file));
  const temp = options.temp ?? tempFileFor(file);
  // A temp file of ours left by an earlier failed save would keep its old mode: start from none.
  rmSync(temp, { force: true });
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      writeAllSync(fd, data);
      if (options.fsync !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** writeSync until every byte is written (one call may write fewer). */
function writeAllSync(fd: number, data: string | Uint8Array): void {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

/** Creates `path` (it must not exist) 0600 exactly and writes `data` to it; a failed write leaves no file. */
export function writePrivateFileSync(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, 'wx', privateFileMode);
  try {
    try {
      fchmodSync(fd, privateFileMode);
      writeAllSync(fd, data);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
}

/** A temp file older than this is stray whoever wrote it: a live save takes milliseconds. */
const strayAgeMs = 60_000;

/** The files Switchboard keeps in the data folder (tightened at start), and the folders (made 0700). */
const knownFiles = [
  'mcp.json',
  'mcp.json.bak',
  'config.json',
  'secrets.json',
  'secrets.keychain.json',
  'era-cache.json',
  'consent.json',
  'app-permissions.json',
  'tool-pins.json',
  'chat-settings.json',
  'dotenv-choices.json',
  'audit.jsonl',
  'audit.jsonl.1',
];
const knownDirs = ['conversations', 'logs', join('logs', 'servers'), 'run'];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Temp files a killed save can leave, per folder: `FILE.<pid>.tmp` of a known file (this module, the era cache),
 * `<conversation>.json.<pid>.tmp`, the ledger's `run/<pid>.json.tmp`, and conf's `config.json.tmp-<ms><hex>`
 * (named by time, not pid). Nothing else is touched: a user's `notes.2024.tmp` stays.
 */
const tempShapes: Array<{ dir: string; pid?: RegExp; timed?: RegExp }> = [
  { dir: '', pid: new RegExp(`^(?:${knownFiles.map(escape).join('|')})\\.(\\d{1,10})\\.tmp$`), timed: /^config\.json\.tmp-\d{10}[a-f0-9]{6}$/ },
  { dir: 'conversations', pid: /^[A-Za-z0-9-]{1,100}\.json\.(\d{1,10})\.tmp$/ },
  { dir: 'run', pid: /^(\d{1,10})\.json\.tmp$/ },
];

/**
 * Folders a killed install can leave: a bundle is unpacked into `bundles/.unpack-<hex>` before it is swapped in under
 * the config's lock. Named by no pid, so one is stray once it is older than a live unpack can be.
 */
const stagedBundle = { dir: 'bundles', name: /^\.unpack-[a-f0-9]{12}$/ };

/**
 * At host start: makes the data folder and its folders 0700, tightens the files we keep there to 0600, and removes
 * temp files that a save killed mid-way left behind — those of a process that is gone, or older than a minute;
 * never a live writer's (this process's own only when old: hosts in one process may share a folder). Returns the
 * removed paths.
 */
export function tidyDataDir(dataDir: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  try {
    ensurePrivateDir(dataDir);
    for (const dir of knownDirs) ensurePrivateDir(join(dataDir, dir));
  } catch {
    // A folder we cannot create or change (read-only, someone else's): whoever writes there next says so.
  }
  for (const file of knownFiles) tightenFile(join(dataDir, file));
  for (const shape of tempShapes) {
    const dir = join(dataDir, shape.dir);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const pidText = shape.pid?.exec(name)?.[1];
      const timed = shape.timed?.test(name) ?? false;
      if (pidText === undefined && !timed) continue;
      const path = join(dir, name);
      let mtime: number;
      try {
        const stat = lstatSync(path);
        if (!stat.isFile()) continue;
        mtime = stat.mtimeMs;
      } catch {
        continue;
      }
      const old = now - mtime > strayAgeMs;
      const pid = Number(pidText);
      const stray = pidText === undefined ? old : old || (pid !== process.pid && !isAlive(pid));
      if (!stray) continue;
      try {
        rmSync(path, { force: true });
        removed.push(path);
      } catch {
        // someone else's to clean up
      }
    }
  }
  removed.push(...removeStrayFolders(join(dataDir, stagedBundle.dir), stagedBundle.name, now));
  return removed;
}

function removeStrayFolders(dir: string, name: RegExp, now: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of names) {
    if (!name.test(entry)) continue;
    const path = join(dir, entry);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || now - stat.mtimeMs <= strayAgeMs) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // someone else's to clean up
    }
  }
  return removed;
}
