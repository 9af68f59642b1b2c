import { existsSync, lstatSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SandboxSetting } from '../../../../src-shared/schemas/config';
import type { SandboxInfo } from '../../../../src-shared/host-api';
import { appDataDir, appName, isInside } from '../../support/paths';
import { bubblewrapArgs, findBubblewrap, privateCwd } from './bubblewrap';
import { findEnvFiles } from './env-files';
import { isDirectory, isFile } from './file-kind';
import { cacheLayout, preparePrivate } from './private-folder';
import { seatbeltProfile } from './seatbelt';

/*
 * A sandbox per stdio server. The effective setting is the entry's `sandbox` key, else the settings default.
 * Linux: bubblewrap (./bubblewrap.ts) — the system read-only, the user's home (and /home, /root) hidden behind empty
 * tmpfs, a private /tmp, the server's own package folder and cwd read-only, the allowed paths, no network (and no
 * socket folder: /run, $XDG_RUNTIME_DIR) with `network: false`, its own pid namespace (when bwrap ends, every process
 * inside ends with it), no capabilities (so not even root inside can remount what it sees). What it must never see
 * is masked over whatever exposes it: Switchboard's own folders, the host's working folder (unless allowRead lists
 * it), `.env` files outside its own package (./env-files.ts). Its package caches are private, per server, in the
 * data folder (./private-folder.ts): nothing it writes is ever run by something outside its sandbox. macOS:
 * sandbox-exec with an equivalent profile (./seatbelt.ts). Where no sandbox can be had, the server does not start
 * and says why: never silently unsandboxed.
 *
 * This file plans one start: what is hidden, shown and masked, and what runs instead of the command.
 *
 * The sandbox wraps the server inside the cgroup wrapper (containment.ts): cgroup shell → bwrap → server, so the
 * cgroup still holds the whole tree and the process group is still bwrap's.
 */

/** Where a sandbox stands among the host's own folders (the server fleet fills it in from the host's options). */
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

/**
 * Switchboard's own folders and files, which no sandbox shows: the data folder (secrets, tokens, consent, pins, audit
 * log, conversations, logs), the app's default data, cache and log folders, the config file (and its backup), and
 * the `.env` files the host reads.
 */
export function switchboardFolders(options: {
  dataDir: string;
  configPath: string;
  env: Readonly<Record<string, string | undefined>>;
  envDirs: readonly string[];
}): string[] {
  const home = options.env.HOME || homedir();
  const app =
    process.platform === 'darwin'
      ? [join(home, 'Library', 'Caches', appName), join(home, 'Library', 'Logs', appName)]
      : [join(options.env.XDG_CACHE_HOME || join(home, '.cache'), appName)];
  const list = [
    options.dataDir,
    appDataDir(options.env),
    ...app,
    options.configPath,
    `${options.configPath}.bak`,
    ...options.envDirs.map((d) => join(d, '.env')),
  ];
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
  const workdirs = [...new Set((folders?.workdirs ?? []).map((w) => resolve(w)))].filter(
    (w) => w !== sep && !hidden.some((h) => isInside(w, h)) && !listed.some((l) => isInside(w, l)),
  );
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
        const plan = {
          ...base,
          hidden,
          workdirs,
          caches: layout?.binds ?? [],
          protect: masks(),
          env: layout?.env ?? {},
          cwd: inside,
          home,
          ...(empty !== undefined ? { emptyFile: empty } : {}),
        };
        return { command: bwrap, args: [...bubblewrapArgs(plan), '--', command, ...args] };
      },
    };
  }
  if (platform === 'darwin') {
    const exec = '/usr/bin/sandbox-exec';
    const inside = cwd ?? (folders ? join(folders.private, 'cwd') : home);
    if (!isFile(exec))
      return {
        info: { kind: 'unavailable', ...base, reason: `${exec} is missing`, reasonInfo: { code: 'sandbox-exec-missing', data: { path: exec } } },
        hidden: concealed,
        cwd: inside,
      };
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
          for (const [name, value] of Object.entries(layout.env))
            if (name !== 'npm_config_cache') env[name] = join(cache, 'xdg', relative(join(home, '.cache'), value));
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
  return {
    info: {
      kind: 'unavailable',
      ...base,
      reason: `no sandbox is available on ${platform} (bubblewrap on Linux, sandbox-exec on macOS)`,
      reasonInfo: { code: 'no-sandbox-platform', data: { platform } },
    },
    hidden: concealed,
    cwd: cwd ?? home,
  };
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
  if (!info.network && networkPattern.test(line))
    return `[switchboard] sandbox: the network is off for this server; set "network": true in ${setting} to allow it`;
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
