import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, type Dirent, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SandboxSetting } from '../../../../src-shared/schemas/config';
import type { SandboxInfo, StatusReason } from '../../../../src-shared/host-api';
import { appDataDir, appName, isInside } from '../../support/paths';
import { seatbeltProfile } from './seatbelt';

/*
 * A sandbox per stdio server (issue 12 §4). The effective setting is the entry's `sandbox` key, else the settings
 * default. Linux: bubblewrap — the system read-only, the user's home (and /home, /root) hidden behind empty tmpfs,
 * a private /tmp, the server's own package folder and cwd read-only, the allowed paths, no network (and no socket
 * folder: /run, $XDG_RUNTIME_DIR) with `network: false`, its own pid namespace (when bwrap ends, every process inside
 * ends with it), no capabilities (so not even root inside can remount what it sees). What it must never see is masked
 * over whatever exposes it: Switchboard's own folders, the host's working folder (unless allowRead lists it), `.env`
 * files outside its own package. Its package caches are private, per server, in the data folder: nothing it writes
 * is ever run by something outside its sandbox. macOS: sandbox-exec with an equivalent profile (./seatbelt.ts).
 * Where no sandbox can be had, the server does not start and says why: never silently unsandboxed.
 *
 * The sandbox wraps the server inside the cgroup wrapper (containment.ts): cgroup shell → bwrap → server, so the
 * cgroup still holds the whole tree and the process group is still bwrap's.
 */

/** Where a sandbox stands among the host's own folders (registry.ts fills it in from the host's options). */
export interface SandboxFolders {
  /** Switchboard's own folders and files (data, config, cache, logs, the host's `.env` files): never shown. */
  own: string[];
  /** The host's working folders: hidden unless allowRead (or the entry's `cwd`) lists them. */
  workdirs: string[];
  /** This server's private folder in the data folder (its caches; on macOS its working folder too). */
  private: string;
}

export interface SandboxRequest {
  allowRead: string[];
  allowWrite: string[];
  network: boolean;
  folders?: SandboxFolders;
}

/** The effective sandbox of an entry: its own key wins (false turns a default off), else the settings default. */
export function effectiveSandbox(entry: SandboxSetting | undefined, fallback: SandboxSetting | undefined): SandboxRequest | undefined {
  const setting = entry ?? fallback;
  if (setting === undefined || setting === false) return undefined;
  if (setting === true) return { allowRead: [], allowWrite: [], network: true };
  return { allowRead: setting.allowRead ?? [], allowWrite: setting.allowWrite ?? [], network: setting.network ?? true };
}

export interface SandboxContext {
  /** The absolute command (resolveCommand). */
  command: string;
  args: readonly string[];
  /** The entry's working folder (absolute); without one the server runs in an empty private folder. */
  cwd?: string;
  /** The home folder the server's HOME names. */
  home: string;
  /** Relative allowRead/allowWrite paths start here (the config file's folder). */
  baseDir: string;
  platform?: NodeJS.Platform;
  /** Where to look for bwrap (the child's PATH). */
  path?: string;
  /** The child's XDG_RUNTIME_DIR (a socket folder, hidden with the network off). */
  runtimeDir?: string;
}

/** What start() runs instead of the command, and what doctor shows. */
export interface SandboxPlan {
  info: SandboxInfo;
  /** Absent when the sandbox is unavailable (`info.reason` says why). */
  wrap?: (command: string, args: readonly string[]) => SandboxLaunch;
  /** Folders hidden from the server (for the denied-access hint). */
  hidden: string[];
  /** The server's working folder as it sees it. */
  cwd: string;
}

/** What runs instead of the command: in `cwd` when given (else the entry's), with `env` added. */
export interface SandboxLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** The working folder of a sandboxed server without a `cwd` of its own (Linux): empty, on its private /tmp. */
export const privateCwd = '/tmp/switchboard-cwd';

/** `~/x` → home/x; relative → baseDir/x. */
export function expandPath(path: string, home: string, baseDir: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(baseDir, path);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The package a script belongs to: the nearest folder above it with a manifest (package.json, pyproject.toml, …),
 * not above the hidden folder it is in; for a package installed under `node_modules`, the project that installed it
 * (its dependencies are hoisted beside it). Else the script's own folder.
 */
export function packageRoot(file: string, hidden: readonly string[]): string {
  const start = dirname(file);
  const roots = hidden.filter((h) => isInside(start, h));
  for (let dir = start; !roots.includes(dir) && dirname(dir) !== dir; dir = dirname(dir)) {
    if (!['package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod'].some((m) => existsSync(join(dir, m)))) continue;
    const modules = dir.split(sep).indexOf('node_modules');
    return modules > 0 ? dir.split(sep).slice(0, modules).join(sep) || sep : dir;
  }
  return start;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A server name as a folder name: as it is when that is safe, else made safe and told apart by a hash. */
export function folderNameOf(name: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,80}$/.test(name)) return name;
  return `${name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_').slice(0, 60)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** A server's private sandbox folder under `root` (`<data folder>/sandbox`). */
export function privateFolderOf(root: string, name: string): string {
  return join(root, folderNameOf(name));
}

/** What a removed server leaves: its private sandbox folder (caches) goes with it. */
export function removePrivateFolder(root: string, name: string): void {
  rmSync(privateFolderOf(root, name), { recursive: true, force: true });
}

/**
 * The private caches and where the package tools look for them inside: `npm` over ~/.npm, `xdg` over ~/.cache (uv,
 * pip, pnpm, yarn, bun and whatever else follows XDG), with each tool's own setting pointed there too, so that a
 * cache path of the person's own (an allow-listed UV_CACHE_DIR, say) never reaches inside.
 */
export function cacheLayout(cache: string, home: string): { binds: Array<[string, string]>; env: Record<string, string> } {
  const npm = join(home, '.npm');
  const xdg = join(home, '.cache');
  return {
    binds: [
      [join(cache, 'npm'), npm],
      [join(cache, 'xdg'), xdg],
    ],
    env: {
      npm_config_cache: npm,
      XDG_CACHE_HOME: xdg,
      UV_CACHE_DIR: join(xdg, 'uv'),
      UV_PYTHON_INSTALL_DIR: join(xdg, 'uv-python'),
      PIP_CACHE_DIR: join(xdg, 'pip'),
      // pnpm keeps its store under its home folder (npm warns about a `store-dir` setting it does not know).
      PNPM_HOME: join(xdg, 'pnpm-home'),
      YARN_CACHE_FOLDER: join(xdg, 'yarn'),
      BUN_INSTALL_CACHE_DIR: join(xdg, 'bun'),
    },
  };
}

/** The package names an `npx`/`npm exec` command line asks for: `--package`/`-p` values, else the first positional. */
export function npxPackages(args: readonly string[]): string[] {
  const named: string[] = [];
  let first: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') break;
    if (arg === '-p' || arg === '--package') named.push(args[++i] ?? '');
    else if (arg.startsWith('--package=')) named.push(arg.slice('--package='.length));
    else if (arg === 'exec' && first === undefined && named.length === 0) continue;
    else if (!arg.startsWith('-') && first === undefined) first = arg;
  }
  const specs = named.length > 0 ? named : first !== undefined ? [first] : [];
  // `@scope/name@1.2` → `@scope/name`; `name@latest` → `name`.
  return specs.map((spec) => spec.replace(/(?!^)@.*$/, '')).filter((n) => n !== '');
}

/**
 * Seeds a private npm cache from the person's: each `_npx/<hash>` install of exactly the packages this command line
 * runs is copied (never linked: the copy is the server's to change), so a package already fetched unsandboxed is not
 * downloaded again. Best effort: whatever cannot be copied is fetched as usual.
 */
export function seedNpxCache(userNpm: string, privateNpm: string, args: readonly string[]): string[] {
  const wanted = new Set(npxPackages(args));
  if (wanted.size === 0) return [];
  const seeded: string[] = [];
  let installs: string[];
  try {
    installs = readdirSync(join(userNpm, '_npx'));
  } catch {
    return [];
  }
  for (const hash of installs) {
    const target = join(privateNpm, '_npx', hash);
    if (existsSync(target)) continue;
    try {
      const manifest = JSON.parse(readFileSync(join(userNpm, '_npx', hash, 'package.json'), 'utf8')) as { dependencies?: Record<string, unknown> };
      const names = Object.keys(manifest.dependencies ?? {});
      if (names.length !== wanted.size || !names.every((n) => wanted.has(n))) continue;
      // Copied beside and renamed: npx never sees half an install.
      const partial = `${target}.${process.pid}.partial`;
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      cpSync(join(userNpm, '_npx', hash), partial, { recursive: true, verbatimSymlinks: true });
      renameSync(partial, target);
      seeded.push(hash);
    } catch {
      // Not an install, or unreadable: npx fetches it.
    }
  }
  return seeded;
}

/**
 * The private folder is ready: its cache folders exist (0700), the npm one seeded from the person's for an `npx`
 * launch, and an empty read-only file masks files (a bind of /dev/null is a device on a `nodev` mount: EACCES).
 * Returns that empty file.
 */
function preparePrivate(folder: string, home: string, command: string, args: readonly string[]): string {
  const cache = join(folder, 'cache');
  for (const [dir] of cacheLayout(cache, home).binds) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const empty = join(folder, 'empty');
  if (!isFile(empty)) writeFileSync(empty, '', { mode: 0o444 });
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (name === 'npx' || (name === 'npm' && args[0] === 'exec')) seedNpxCache(join(home, '.npm'), join(cache, 'npm'), args);
  return empty;
}

const envFileName = /^\.env(\..+)?$/;

/** How far the search for `.env` files in the folders a sandbox shows goes (README: "Consent and sandbox"). */
export const envFileSearch = { depth: 4, folders: 2000 };

/**
 * The `.env` files (`.env`, `.env.local`, …) in these folders, to be masked: down to `envFileSearch.depth` levels,
 * at most `envFileSearch.folders` folders in all, skipping node_modules, .git and the `skip` folders (the server's
 * own package, what is masked anyway). Symbolic links are not followed.
 */
export function findEnvFiles(roots: readonly string[], skip: readonly string[]): string[] {
  const found: string[] = [];
  let budget = envFileSearch.folders;
  const queue: Array<[string, number]> = [];
  for (const root of roots) {
    if (skip.some((s) => isInside(root, s))) continue;
    if (envFileName.test(basename(root)) && isFile(root)) found.push(root);
    else queue.push([root, 0]);
  }
  while (queue.length > 0 && budget > 0) {
    const [folder, depth] = queue.shift() as [string, number];
    budget--;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isFile() && envFileName.test(entry.name)) found.push(path);
      else if (entry.isDirectory() && depth < envFileSearch.depth && entry.name !== 'node_modules' && entry.name !== '.git' && !skip.some((s) => isInside(path, s))) queue.push([path, depth + 1]);
    }
  }
  return [...new Set(found)];
}

/**
 * Switchboard's own folders and files, which no sandbox shows: the data folder (secrets, tokens, consent, pins, audit
 * log, conversations, logs), the app's default data, cache and log folders, the config file (and its backup), and
 * the `.env` files the host reads.
 */
export function switchboardFolders(options: { dataDir: string; configPath: string; env: Readonly<Record<string, string | undefined>>; envDirs: readonly string[] }): string[] {
  const home = options.env.HOME || homedir();
  const app = process.platform === 'darwin' ? [join(home, 'Library', 'Caches', appName), join(home, 'Library', 'Logs', appName)] : [join(options.env.XDG_CACHE_HOME || join(home, '.cache'), appName)];
  const list = [options.dataDir, appDataDir(options.env), ...app, options.configPath, `${options.configPath}.bak`, ...options.envDirs.map((d) => join(d, '.env'))];
  return [...new Set(list.map((p) => resolve(p)))];
}

/**
 * The folders the server may read without listing them: its own program's install (for a command under a hidden
 * folder, `…/bin/x` → `…`) and its script's package (the first argument naming a file). Only those under a hidden or
 * masked folder need binding; the rest of the system is visible read-only anyway. A hidden folder itself (a home) is
 * never bound whole; a masked working folder that is the server's own package is.
 */
function ownFolders(context: SandboxContext, hidden: string[], masked: string[]): string[] {
  const folders: string[] = [];
  const command = real(context.command);
  const commandDir = dirname(command);
  folders.push(basename(commandDir) === 'bin' ? dirname(commandDir) : commandDir);
  const base = context.cwd;
  const scriptPath = (a: string): string | undefined => (isAbsolute(a) ? a : base !== undefined ? resolve(base, a) : undefined);
  const script = context.args.map((a) => (a.startsWith('-') ? undefined : scriptPath(a))).find((p) => p !== undefined && isFile(p));
  // A masked working folder may itself be the package (it is not above it); a hidden folder may not.
  if (script !== undefined) folders.push(packageRoot(real(script), [...hidden, ...masked.map((m) => dirname(m))]));
  return [...new Set(folders)].filter((f) => [...hidden, ...masked].some((h) => isInside(f, h)) && !hidden.includes(f));
}

/** `info`: the reason's code and data (SandboxInfo.reasonInfo), for the UI and the CLI to word. */
type BwrapProbe = { ok: true; path: string } | { ok: false; reason: string; info: StatusReason };
let bwrapProbe: BwrapProbe | undefined;

/** bwrap on PATH (or /usr/bin), and able to make a sandbox here (a container may forbid the namespaces). Cached. */
export function findBubblewrap(pathVar: string | undefined): BwrapProbe {
  if (bwrapProbe) return bwrapProbe;
  // SWITCHBOARD_BWRAP names the bwrap to use (one installed elsewhere); nothing else is then tried.
  const chosen = process.env.SWITCHBOARD_BWRAP;
  if (chosen !== undefined && chosen !== '' && !isFile(chosen)) {
    bwrapProbe = { ok: false, reason: `SWITCHBOARD_BWRAP names ${chosen}, which does not exist`, info: { code: 'bwrap-override-missing', data: { path: chosen } } };
    return bwrapProbe;
  }
  const dirs = [...(pathVar ?? '').split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin'];
  const path = chosen || dirs.map((d) => join(d, 'bwrap')).find((p) => isFile(p));
  if (path === undefined) {
    bwrapProbe = { ok: false, reason: 'bubblewrap (bwrap) is not installed; install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)', info: { code: 'bwrap-not-installed' } };
    return bwrapProbe;
  }
  const probe = spawnSync(path, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', '/bin/sh', '-c', 'exit 0'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.error?.message || `exit ${String(probe.status ?? probe.signal)}`).trim().split('\n')[0];
    bwrapProbe = { ok: false, reason: `${path} cannot create a sandbox here (${why}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)`, info: { code: 'bwrap-cannot-sandbox', data: { path, detail: why ?? '' } } };
    return bwrapProbe;
  }
  bwrapProbe = { ok: true, path };
  return bwrapProbe;
}

/** For tests: forget the cached bwrap probe. */
export function resetSandboxProbe(): void {
  bwrapProbe = undefined;
}

/**
 * The hidden folders: the home folder, the other homes, the host's /tmp (replaced by a private one); with the network
 * off, every socket folder too (/run, a real /var/run, $XDG_RUNTIME_DIR): a unix socket is reached by its path, and a
 * read-only mount does not stop connect().
 */
function hiddenFolders(home: string, platform: NodeJS.Platform, network: boolean, runtimeDir: string | undefined): string[] {
  const list = platform === 'darwin' ? [home, '/Users', '/private/tmp', '/private/var/folders'] : [home, '/home', '/root', '/tmp', '/run/user'];
  if (!network && platform === 'linux') {
    list.push('/run');
    if (isRealDirectory('/var/run')) list.push('/var/run');
    if (runtimeDir !== undefined && isAbsolute(runtimeDir) && resolve(runtimeDir) !== '/') list.push(runtimeDir);
  }
  return [...new Set(list.map((p) => resolve(p)))];
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Plans the sandbox of one start. */
export function planSandbox(request: SandboxRequest, context: SandboxContext): SandboxPlan {
  const platform = context.platform ?? process.platform;
  const home = resolve(context.home);
  const hidden = hiddenFolders(home, platform, request.network, context.runtimeDir);
  const expand = (p: string): string => expandPath(p, home, context.baseDir);
  const allowRead = request.allowRead.map(expand);
  const allowWrite = [...request.allowWrite.map(expand)];
  const folders = request.folders;
  const cwd = context.cwd !== undefined ? resolve(context.cwd) : undefined;
  const listed = [...allowRead, ...allowWrite, ...(cwd !== undefined ? [cwd] : [])];
  // The host's working folder (its .env holds the LLM keys) is hidden unless listed; not the root of everything.
  const workdirs = [...new Set((folders?.workdirs ?? []).map((w) => resolve(w)))].filter((w) => w !== sep && !hidden.some((h) => isInside(w, h)) && !listed.some((l) => isInside(w, l)));
  const own = ownFolders(context, hidden, workdirs);
  // The cwd is readable, unless it is a hidden folder itself (or above one): then the server sees it empty.
  const concealed = [...hidden, ...workdirs];
  const cwdBound = cwd !== undefined && concealed.some((h) => isInside(cwd, h)) && !hidden.some((h) => isInside(h, cwd));
  const read = [...new Set([...own, ...(cwdBound ? [cwd] : []), ...allowRead])];
  const write = [...new Set(allowWrite)];
  const protect = (folders?.own ?? []).filter((p) => existsSync(p));
  const base = { read, write, network: request.network };
  const cache = folders ? join(folders.private, 'cache') : undefined;
  const masks = (): string[] => {
    // Only what the server could otherwise see: outside the hidden folders, or inside something bound.
    const visible = (p: string): boolean => !concealed.some((h) => isInside(p, h)) || [...read, ...write].some((b) => isInside(p, b));
    const shown = [...read, ...write, ...(cwd !== undefined ? [cwd] : [])].filter((f) => !own.includes(f));
    const envFiles = findEnvFiles(shown, [...own, ...protect.filter(isDirectory)]);
    return [...new Set([...protect, ...envFiles])].filter(visible);
  };
  if (platform === 'linux') {
    const found = findBubblewrap(context.path);
    const inside = cwd ?? privateCwd;
    if (!found.ok) return { info: { kind: 'unavailable', ...base, reason: found.reason, reasonInfo: found.info }, hidden: concealed, cwd: inside };
    const bwrap = found.path;
    return {
      info: { kind: 'bubblewrap', ...base },
      hidden: concealed,
      cwd: inside,
      wrap: (command, args) => {
        const layout = cache !== undefined ? cacheLayout(cache, home) : undefined;
        const empty = folders ? preparePrivate(folders.private, home, context.command, context.args) : undefined;
        const plan = { ...base, hidden, workdirs, caches: layout?.binds ?? [], protect: masks(), env: layout?.env ?? {}, cwd: inside, home, ...(empty !== undefined ? { emptyFile: empty } : {}) };
        return { command: bwrap, args: [...bubblewrapArgs(plan), '--', command, ...args] };
      },
    };
  }
  if (platform === 'darwin') {
    const exec = '/usr/bin/sandbox-exec';
    const inside = cwd ?? (folders ? join(folders.private, 'cwd') : home);
    if (!isFile(exec)) return { info: { kind: 'unavailable', ...base, reason: `${exec} is missing`, reasonInfo: { code: 'sandbox-exec-missing', data: { path: exec } } }, hidden: concealed, cwd: inside };
    return {
      info: { kind: 'sandbox-exec', ...base },
      hidden: concealed,
      cwd: inside,
      wrap: (command, args) => {
        // A private temp folder stands in for /tmp (sandbox-exec cannot mount one): TMPDIR points there.
        const tmp = join(home, '.switchboard-sandbox-tmp');
        mkdirSync(tmp, { recursive: true, mode: 0o700 });
        // No mounts: the caches are private by the tools' settings alone, and the working folder is emptied per start.
        const layout = cache !== undefined ? cacheLayout(cache, home) : undefined;
        const env: Record<string, string> = { TMPDIR: tmp };
        if (cache !== undefined && layout && folders) {
          preparePrivate(folders.private, home, context.command, context.args);
          env.npm_config_cache = join(cache, 'npm');
          for (const [name, value] of Object.entries(layout.env)) if (name !== 'npm_config_cache') env[name] = join(cache, 'xdg', relative(join(home, '.cache'), value));
        }
        if (cwd === undefined && folders) {
          rmSync(inside, { recursive: true, force: true });
          mkdirSync(inside, { recursive: true, mode: 0o700 });
        }
        const privateDirs = [tmp, ...(cache !== undefined ? [cache] : []), ...(cwd === undefined && folders ? [inside] : [])];
        const profile = seatbeltProfile({ ...base, hidden: concealed, cwd: inside, tmp, masked: workdirs, own, protect, private: privateDirs });
        return { command: exec, args: ['-p', profile, command, ...args], env, cwd: inside };
      },
    };
  }
  return { info: { kind: 'unavailable', ...base, reason: `no sandbox is available on ${platform} (bubblewrap on Linux, sandbox-exec on macOS)`, reasonInfo: { code: 'no-sandbox-platform', data: { platform } } }, hidden: concealed, cwd: cwd ?? home };
}

/** Sockets (and their folders) of container engines and snapd, hidden from every sandboxed server. */
export const engineSockets = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman', '/run/containerd', '/run/crio', '/run/snapd.socket'];

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface BubblewrapPlan {
  read: string[];
  write: string[];
  network: boolean;
  hidden: string[];
  cwd: string;
  home: string;
  /** Hidden like `hidden`, before the binds: a listed path inside still shows (the host's working folders). */
  workdirs?: string[];
  /** Private folders bound writable over the usual cache paths: [host folder, path inside]. */
  caches?: Array<[string, string]>;
  /** Masked after every bind, whatever exposes them: folders by an empty tmpfs, files by /dev/null. */
  protect?: string[];
  /** Set inside only (the cache settings). */
  env?: Record<string, string>;
  /** An empty read-only file to mask files with (else /dev/null, which then cannot be opened at all). */
  emptyFile?: string;
}

/**
 * bwrap's arguments (pure, but for telling folders from files). Later mounts cover earlier ones, so the order is:
 * system, hidden, private caches, allowed, masked.
 */
export function bubblewrapArgs(plan: BubblewrapPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // /tmp first: a hidden folder under it (a temp HOME) then gets its own empty mount point on the private /tmp.
  const hidden = [...new Set([...plan.hidden, ...(plan.workdirs ?? [])])].sort((a, b) => a.length - b.length);
  for (const folder of hidden) if (existsSync(folder) || isInside(folder, '/tmp')) args.push('--tmpfs', folder);
  const covered = (path: string): boolean => hidden.some((h) => isInside(path, h));
  // Container engines' sockets would hand out root whatever else is hidden (a read-only mount does not stop connect()).
  for (const path of engineSockets) {
    if (!existsSync(path) || covered(path)) continue;
    if (isDirectory(path)) args.push('--tmpfs', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  for (const path of plan.read) args.push('--ro-bind-try', path, path);
  for (const path of plan.write) args.push('--bind-try', path, path);
  // The private caches over whatever showed the person's (a listed home too); a mount point cannot be made in a
  // read-only bind, so a cache path missing there is left out (its tool's setting still points inside).
  const caches = (plan.caches ?? []).filter(([, target]) => existsSync(target) || !plan.read.some((r) => isInside(target, r)));
  for (const [source, target] of caches) args.push('--bind', source, target);
  // A listed folder inside a cache path (a server installed by the person's npx) shows through it again.
  for (const path of plan.read) if (caches.some(([, target]) => isInside(path, target))) args.push('--ro-bind-try', path, path);
  const protect = plan.protect ?? [];
  const folders = protect.filter(isDirectory);
  for (const path of [...protect].filter((p) => !folders.some((f) => f !== p && isInside(p, f))).sort((a, b) => a.length - b.length)) {
    if (isDirectory(path)) args.push('--tmpfs', path);
    else args.push('--ro-bind', plan.emptyFile ?? '/dev/null', path);
  }
  for (const [name, value] of Object.entries(plan.env ?? {})) args.push('--setenv', name, value);
  // Root outside is root inside: without dropping its capabilities it could remount the cgroup file system (or
  // anything else) writable, or unmount what hides a folder.
  args.push('--cap-drop', 'ALL');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!plan.network) args.push('--unshare-net');
  if (plan.cwd === privateCwd) args.push('--dir', privateCwd);
  args.push('--die-with-parent', '--chdir', plan.cwd);
  return args;
}

/** Common ways a denied access shows up in stderr, with the path when the message names one. */
const deniedPattern = /\b(EACCES|ENOENT|EPERM|EROFS|Permission denied|No such file or directory|Operation not permitted|Read-only file system)\b/;
const networkPattern = /\b(ENETUNREACH|EAI_AGAIN|ENOTFOUND|Network is unreachable|getaddrinfo|Temporary failure in name resolution)\b/;
const pathPattern = /(?:'|"|\s|^)(\/[^'"\s:,)]+)/g;

/**
 * A hint for a stderr line that looks like the sandbox said no: the path is in a hidden folder (or outside what is
 * writable), or the network is off. Undefined when the line does not look like that.
 */
export function deniedHint(line: string, server: string, info: SandboxInfo, hidden: readonly string[]): string | undefined {
  const setting = `mcpServers.${server}.sandbox`;
  if (!info.network && networkPattern.test(line)) return `[switchboard] sandbox: the network is off for this server; set "network": true in ${setting} to allow it`;
  if (!deniedPattern.test(line)) return undefined;
  for (const match of line.matchAll(pathPattern)) {
    const path = match[1];
    if (path === undefined) continue;
    if (isInside(path, privateCwd)) {
      return `[switchboard] sandbox: without a "cwd" of its own this server runs in an empty private folder (${privateCwd}); set "cwd" in mcpServers.${server} to the folder it needs (it is then readable), or give its files by absolute path`;
    }
    const allowed = [...info.read, ...info.write].some((a) => isInside(path, a));
    if (hidden.some((h) => isInside(path, h)) && !allowed) {
      return `[switchboard] sandbox: ${path} is outside what this server may see; add it (or its folder) to "allowRead" or "allowWrite" in ${setting}, or set "sandbox": false`;
    }
    if (/EROFS|Read-only file system|EACCES|Permission denied|EPERM/.test(line) && !info.write.some((a) => isInside(path, a))) {
      return `[switchboard] sandbox: ${path} is read-only for this server; add it (or its folder) to "allowWrite" in ${setting}, or set "sandbox": false`;
    }
  }
  return undefined;
}
