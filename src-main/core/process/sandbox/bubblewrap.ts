import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusReason } from '../../../../src-shared/host-api';
import { isInside } from '../../support/paths';
import { isDirectory, isFile } from './file-kind';

/*
 * The Linux sandbox: bubblewrap's argument list for a plan (index.ts makes the plan), and whether a bwrap that can
 * make a sandbox here is to be had at all.
 */

/** The working folder of a sandboxed server without a `cwd` of its own (Linux): empty, on its private /tmp. */
export const privateCwd = '/tmp/switchboard-cwd';

/** Sockets (and their folders) of container engines and snapd, hidden from every sandboxed server. */
export const engineSockets = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman', '/run/containerd', '/run/crio', '/run/snapd.socket'];

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

/** `info`: the reason's code and data (SandboxInfo.reasonInfo), for the UI and the CLI to word. */
type BwrapProbe = { ok: true; path: string } | { ok: false; reason: string; info: StatusReason };
let bwrapProbe: BwrapProbe | undefined;

/** bwrap on PATH (or /usr/bin), and able to make a sandbox here (a container may forbid the namespaces). Cached. */
export function findBubblewrap(pathVar: string | undefined): BwrapProbe {
  if (bwrapProbe) return bwrapProbe;
  // SWITCHBOARD_BWRAP names the bwrap to use (one installed elsewhere); nothing else is then tried.
  const chosen = process.env.SWITCHBOARD_BWRAP;
  if (chosen !== undefined && chosen !== '' && !isFile(chosen)) {
    bwrapProbe = {
      ok: false,
      reason: `SWITCHBOARD_BWRAP names ${chosen}, which does not exist`,
      info: { code: 'bwrap-override-missing', data: { path: chosen } },
    };
    return bwrapProbe;
  }
  const dirs = [...(pathVar ?? '').split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin'];
  const path = chosen || dirs.map((d) => join(d, 'bwrap')).find((p) => isFile(p));
  if (path === undefined) {
    bwrapProbe = {
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed; install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
      info: { code: 'bwrap-not-installed' },
    };
    return bwrapProbe;
  }
  const probe = spawnSync(
    path,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', '/bin/sh', '-c', 'exit 0'],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.error?.message || `exit ${String(probe.status ?? probe.signal)}`).trim().split('\n')[0];
    bwrapProbe = {
      ok: false,
      reason: `${path} cannot create a sandbox here (${why}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)`,
      info: { code: 'bwrap-cannot-sandbox', data: { path, detail: why ?? '' } },
    };
    return bwrapProbe;
  }
  bwrapProbe = { ok: true, path };
  return bwrapProbe;
}

/** For tests: forget the cached bwrap probe. */
export function resetSandboxProbe(): void {
  bwrapProbe = undefined;
}
