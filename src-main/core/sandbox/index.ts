import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxSetting } from '../../../src-shared/config-schema';
import type { SandboxInfo, StatusReason } from '../../../src-shared/host-api';
import { isInside } from '../paths';
import { seatbeltProfile } from './seatbelt';

/*
 * A sandbox per stdio server (issue 12 §4). The effective setting is the entry's `sandbox` key, else the settings
 * default. Linux: bubblewrap — the system read-only, the user's home (and /home, /root) hidden behind empty tmpfs,
 * a private /tmp, the server's own package folder and cwd read-only, the allowed paths, no network with
 * `network: false`, its own pid namespace (when bwrap ends, every process inside ends with it). macOS: sandbox-exec
 * with an equivalent profile (./seatbelt.ts). Where no sandbox can be had, the server does not start and says why:
 * never silently unsandboxed.
 *
 * The sandbox wraps the server inside the cgroup wrapper (containment.ts): cgroup shell → bwrap → server, so the
 * cgroup still holds the whole tree and the process group is still bwrap's.
 */

export interface SandboxRequest {
  allowRead: string[];
  allowWrite: string[];
  network: boolean;
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
  /** The server's working folder (absolute). */
  cwd: string;
  /** The home folder the server's HOME names. */
  home: string;
  /** Relative allowRead/allowWrite paths start here (the config file's folder). */
  baseDir: string;
  platform?: NodeJS.Platform;
  /** Where to look for bwrap (the child's PATH). */
  path?: string;
}

/** What start() runs instead of the command, and what doctor shows. */
export interface SandboxPlan {
  info: SandboxInfo;
  /** Absent when the sandbox is unavailable (`info.reason` says why). */
  wrap?: (command: string, args: readonly string[]) => { command: string; args: string[]; env?: Record<string, string> };
  /** Folders hidden from the server (for the denied-access hint). */
  hidden: string[];
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

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Caches launchers write to (a sandboxed `npx -y pkg` must be able to fetch pkg). */
function launcherCaches(command: string, home: string): string[] {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'bun'].includes(name)) return [join(home, '.npm'), join(home, '.cache', 'pnpm'), join(home, '.local', 'share', 'pnpm'), join(home, '.bun')];
  if (['uvx', 'uv'].includes(name)) return [join(home, '.cache', 'uv'), join(home, '.local', 'share', 'uv')];
  return [];
}

/**
 * The folders the server may read without listing them: its own program's install (for a command under a hidden
 * folder, `…/bin/x` → `…`) and its script's package (the first argument naming a file). Only those under a hidden
 * folder need binding; the rest of the system is visible read-only anyway.
 */
function ownFolders(context: SandboxContext, hidden: string[]): string[] {
  const folders: string[] = [];
  const command = real(context.command);
  const commandDir = dirname(command);
  folders.push(basename(commandDir) === 'bin' ? dirname(commandDir) : commandDir);
  const script = context.args.find((a) => !a.startsWith('-') && isFile(isAbsolute(a) ? a : resolve(context.cwd, a)));
  if (script !== undefined) folders.push(packageRoot(real(isAbsolute(script) ? script : resolve(context.cwd, script)), hidden));
  return folders.filter((f) => hidden.some((h) => isInside(f, h)) && !hidden.includes(f));
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

/** The hidden folders: the home folder, the other homes, the host's /tmp (replaced by a private one). */
function hiddenFolders(home: string, platform: NodeJS.Platform): string[] {
  const list = platform === 'darwin' ? [home, '/Users', '/private/tmp', '/private/var/folders'] : [home, '/home', '/root', '/tmp', '/run/user'];
  return [...new Set(list.map((p) => resolve(p)))];
}

/** Plans the sandbox of one start. */
export function planSandbox(request: SandboxRequest, context: SandboxContext): SandboxPlan {
  const platform = context.platform ?? process.platform;
  const home = resolve(context.home);
  const hidden = hiddenFolders(home, platform);
  const expand = (p: string): string => expandPath(p, home, context.baseDir);
  const allowRead = request.allowRead.map(expand);
  const allowWrite = [...request.allowWrite.map(expand)];
  const caches = launcherCaches(context.command, home);
  // The cwd is readable, unless it is a hidden folder itself (or above one): then the server sees it empty.
  const cwd = resolve(context.cwd);
  const cwdBound = hidden.some((h) => isInside(cwd, h)) && !hidden.some((h) => isInside(h, cwd));
  const read = [...new Set([...ownFolders(context, hidden), ...(cwdBound ? [cwd] : []), ...allowRead])];
  const write = [...new Set([...allowWrite, ...caches.filter((c) => existsSync(c))])];
  const base = { read, write, network: request.network };
  if (platform === 'linux') {
    const found = findBubblewrap(context.path);
    if (!found.ok) return { info: { kind: 'unavailable', ...base, reason: found.reason, reasonInfo: found.info }, hidden };
    const bwrap = found.path;
    return {
      info: { kind: 'bubblewrap', ...base },
      hidden,
      wrap: (command, args) => ({ command: bwrap, args: [...bubblewrapArgs({ ...base, hidden, cwd, home }), '--', command, ...args] }),
    };
  }
  if (platform === 'darwin') {
    const exec = '/usr/bin/sandbox-exec';
    if (!isFile(exec)) return { info: { kind: 'unavailable', ...base, reason: `${exec} is missing`, reasonInfo: { code: 'sandbox-exec-missing', data: { path: exec } } }, hidden };
    return {
      info: { kind: 'sandbox-exec', ...base },
      hidden,
      wrap: (command, args) => {
        // A private temp folder stands in for /tmp (sandbox-exec cannot mount one): TMPDIR points there.
        const tmp = join(home, '.switchboard-sandbox-tmp');
        mkdirSync(tmp, { recursive: true, mode: 0o700 });
        return { command: exec, args: ['-p', seatbeltProfile({ ...base, hidden, cwd, tmp }), command, ...args], env: { TMPDIR: tmp } };
      },
    };
  }
  return { info: { kind: 'unavailable', ...base, reason: `no sandbox is available on ${platform} (bubblewrap on Linux, sandbox-exec on macOS)`, reasonInfo: { code: 'no-sandbox-platform', data: { platform } } }, hidden };
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

/** bwrap's arguments (pure, for tests). Later mounts cover earlier ones, so the order is: system, hidden, allowed. */
export function bubblewrapArgs(plan: { read: string[]; write: string[]; network: boolean; hidden: string[]; cwd: string; home: string }): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // /tmp first: a hidden folder under it (a temp HOME) then gets its own empty mount point on the private /tmp.
  const hidden = [...plan.hidden].sort((a, b) => a.length - b.length);
  for (const folder of hidden) if (existsSync(folder) || isInside(folder, '/tmp')) args.push('--tmpfs', folder);
  // Container engines' sockets would hand out root whatever else is hidden (a read-only mount does not stop connect()).
  for (const path of engineSockets) {
    if (!existsSync(path)) continue;
    if (isDirectory(path)) args.push('--tmpfs', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  for (const path of plan.read) args.push('--ro-bind-try', path, path);
  for (const path of plan.write) args.push('--bind-try', path, path);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!plan.network) args.push('--unshare-net');
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
