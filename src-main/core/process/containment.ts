import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { ContainmentInfo, StatusReason, StatusReasonData } from '../../../src-shared/host-api';
import { processStartTime, sleep, until } from './tree';

/**
 * Containment of stdio servers (Linux): each server start runs in a cgroup v2 of its own, so that its whole tree —
 * children that call setsid() or setpgid(), double-forked daemons — ends with it: `cgroup.kill` reaches every
 * process in the cgroup, wherever it moved in the process-group/session space. A cgroup is only used where one can be
 * had without asking: our own cgroup v2 directory must be writable (root, or a delegated subtree such as a
 * `systemd-run --user --scope -p Delegate=yes` unit). Elsewhere servers are contained by process groups, as before
 * (and by `taskkill /T` on Windows), and `doctor` says which applies and why.
 *
 * Layout: `<our cgroup>/switchboard-<hostpid>-<hoststart>-<nonce>/<n>-<server>`. The host part names the owner, so a
 * later host can end what a crashed one left (reapOrphanCgroups) without ever touching a live host's servers.
 */

/** `SWITCHBOARD_CONTAINMENT=process-group` turns cgroups off (a escape hatch, and how tests exercise the fallback). */
export type ContainmentMode = 'auto' | 'process-group';

/** `info`: the reason's code and data (ContainmentInfo.reasonInfo), for the UI and the CLI to word. */
export type CgroupBase = { ok: true; dir: string } | { ok: false; reason: string; info: StatusReason };

const why = (code: string, data?: StatusReasonData): StatusReason => (data !== undefined ? { code, data } : { code });

/** Mount points in /proc/self/mountinfo escape space, tab, newline and backslash as octal. */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Where our own cgroup v2 is in the file system, from /proc/self/cgroup and /proc/self/mountinfo (pure, for tests). */
export function cgroupDirOf(procSelfCgroup: string, mountinfo: string): { dir: string } | { reason: string; info: StatusReason } {
  const line = procSelfCgroup.split('\n').find((l) => l.startsWith('0::'));
  if (line === undefined) return { reason: 'no cgroup v2 hierarchy (/proc/self/cgroup has no "0::" line)', info: why('no-cgroup-v2') };
  const own = line.slice(3).trim();
  const mounts = mountinfo
    .split('\n')
    .map((l) => {
      const [before, after] = l.split(' - ');
      const fields = (before ?? '').split(' ');
      return { fstype: (after ?? '').split(' ')[0], root: unescapeMount(fields[3] ?? ''), point: unescapeMount(fields[4] ?? '') };
    })
    .filter((m) => m.fstype === 'cgroup2');
  if (mounts.length === 0) return { reason: 'no cgroup2 file system is mounted', info: why('no-cgroup2-mount') };
  for (const m of mounts) {
    const root = m.root === '/' ? '' : m.root;
    if (own !== m.root && !own.startsWith(`${root}/`)) continue;
    const rel = own.slice(root.length).replace(/^\/+|\/+$/g, '');
    return { dir: rel === '' ? m.point : join(m.point, rel) };
  }
  const points = mounts.map((m) => m.point).join(', ');
  return { reason: `our cgroup ${own} is not visible under any cgroup2 mount (${points})`, info: why('cgroup-not-visible', { own, mounts: points }) };
}

let detected: CgroupBase | undefined;

/** Our own cgroup v2 directory if we may create cgroups in it and move processes there (cached per process). */
export function detectCgroupBase(): CgroupBase {
  if (detected) return detected;
  detected = probeCgroupBase();
  return detected;
}

function probeCgroupBase(): CgroupBase {
  if (process.platform !== 'linux')
    return { ok: false, reason: `cgroups are Linux-only (this is ${process.platform})`, info: why('linux-only', { platform: process.platform }) };
  let where: { dir: string } | { reason: string; info: StatusReason };
  try {
    where = cgroupDirOf(readFileSync('/proc/self/cgroup', 'utf8'), readFileSync('/proc/self/mountinfo', 'utf8'));
  } catch (error) {
    return {
      ok: false,
      reason: `cannot read /proc/self/cgroup or /proc/self/mountinfo (${(error as Error).message})`,
      info: why('proc-unreadable', { detail: (error as Error).message }),
    };
  }
  if ('reason' in where) return { ok: false, reason: where.reason, info: where.info };
  const dir = where.dir;
  try {
    accessSync(join(dir, 'cgroup.procs'), constants.W_OK);
    accessSync(dir, constants.W_OK);
  } catch {
    return {
      ok: false,
      reason: `no writable cgroup v2 subtree: ${dir} is not writable by us (run Switchboard as root, or inside a delegated scope: systemd-run --user --scope -p Delegate=yes …)`,
      info: why('cgroup-not-writable', { dir }),
    };
  }
  // The kernel has the last word: make and remove a probe cgroup.
  const probe = join(dir, `switchboard-probe-${process.pid}-${randomBytes(3).toString('hex')}`);
  try {
    mkdirSync(probe);
    const ok = existsSync(join(probe, 'cgroup.procs'));
    rmdirSync(probe);
    if (!ok) return { ok: false, reason: `${dir} does not behave like a cgroup v2 directory`, info: why('not-a-cgroup', { dir }) };
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      ok: false,
      reason: `no writable cgroup v2 subtree: cannot create a cgroup in ${dir} (${detail})`,
      info: why('cgroup-create-failed', { dir, detail }),
    };
  }
  return { ok: true, dir };
}

/** The cgroup of one server start. */
export class CgroupScope {
  private removed = false;

  constructor(readonly path: string) {}

  /**
   * The argv that starts `command` inside this cgroup before it can fork: a POSIX shell writes its own pid into
   * cgroup.procs and then execs the server (same pid, same pipes). The user's command and arguments are positional
   * parameters ("$@"), never parsed by the shell. If the move fails, the server does not start (it says why on
   * stderr), rather than run uncontained while doctor says otherwise. The shell exports a PWD of its own: unless
   * the server's environment has one, it is unset before the exec, so the whitelist rule holds exactly.
   */
  wrap(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): { command: string; args: string[] } {
    const script =
      'echo $$ > "$0/cgroup.procs" || { echo "switchboard: cannot move the server into its cgroup $0; set SWITCHBOARD_CONTAINMENT=process-group to run it without one" >&2; exit 126; }; ' +
      (Object.hasOwn(env, 'PWD') ? '' : 'unset PWD; ') +
      'exec "$@"';
    return { command: '/bin/sh', args: ['-c', script, this.path, command, ...args] };
  }

  /** Pids in the cgroup now. */
  pids(): number[] {
    try {
      return readFileSync(join(this.path, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(Number);
    } catch {
      return [];
    }
  }

  /** True while any process is in the cgroup (or below it). */
  populated(): boolean {
    try {
      return /^populated 1$/m.test(readFileSync(join(this.path, 'cgroup.events'), 'utf8'));
    } catch {
      return false;
    }
  }

  /** SIGTERM to every process in the cgroup: a polite first step for those that left the process group. */
  terminate(): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
  }

  /**
   * SIGKILL to everything in the cgroup at once (cgroup.kill, Linux ≥ 5.14), else pid by pid until it is empty.
   * `killFile: false` takes the second way even where cgroup.kill exists (so that it is tested on such kernels too).
   */
  async kill(options: { killFile?: boolean } = {}): Promise<void> {
    if (!this.populated()) return;
    try {
      if (options.killFile === false) throw new Error('cgroup.kill not wanted');
      writeExisting(join(this.path, 'cgroup.kill'), '1');
    } catch {
      // An older kernel: no cgroup.kill. Kill what is listed until nothing is (a forker is caught on the next round).
      for (let round = 0; round < 200 && this.populated(); round++) {
        for (const pid of this.pids()) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }
        await sleep(10);
      }
    }
    await until(() => !this.populated(), 5000, 10);
  }

  /** Ends the whole cgroup: SIGTERM to all, `graceMs` for them to leave, then SIGKILL; removes the directory. */
  async end(graceMs: number): Promise<void> {
    if (this.removed) return;
    if (this.populated()) {
      this.terminate();
      await until(() => !this.populated(), graceMs);
      await this.kill();
    }
    this.remove();
  }

  /** Removes the (empty) directory; idempotent and best effort. */
  remove(): void {
    if (this.removed) return;
    try {
      rmdirSync(this.path);
      this.removed = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.removed = true;
    }
  }
}

const hostDirPattern = /^switchboard-(\d+)-(\d+)-[0-9a-f]+$/;

/** One per host: where its servers' cgroups go, and what doctor reports when there is none. */
export class Containment {
  private readonly base: CgroupBase;
  private hostDir: string | undefined;
  private seq = 0;
  private readonly scopes = new Set<CgroupScope>();
  private disposed = false;

  constructor(mode: ContainmentMode = process.env.SWITCHBOARD_CONTAINMENT === 'process-group' ? 'process-group' : 'auto') {
    if (process.platform === 'win32') this.base = { ok: false, reason: 'Windows: the tree is ended with taskkill /T', info: why('windows') };
    else if (mode === 'process-group') this.base = { ok: false, reason: 'turned off (SWITCHBOARD_CONTAINMENT=process-group)', info: why('turned-off') };
    else this.base = detectCgroupBase();
  }

  /** The cgroup v2 directory servers' cgroups are made in, when there is one. */
  get baseDir(): string | undefined {
    return this.base.ok ? this.base.dir : undefined;
  }

  /** What a server started now gets, without a cgroup path (see CgroupScope for that). */
  describe(): ContainmentInfo {
    if (this.base.ok) return { kind: 'cgroup', path: this.base.dir };
    return { kind: process.platform === 'win32' ? 'taskkill' : 'process-group', reason: this.base.reason, reasonInfo: this.base.info };
  }

  /** A fresh cgroup for one start of `server`, or undefined (process groups only) when none can be had. */
  scope(server: string): CgroupScope | undefined {
    if (!this.base.ok || this.disposed) return undefined;
    try {
      if (this.hostDir === undefined) {
        const dir = join(this.base.dir, `switchboard-${process.pid}-${processStartTime(process.pid) ?? '0'}-${randomBytes(4).toString('hex')}`);
        mkdirSync(dir);
        this.hostDir = dir;
      }
      const name = `${++this.seq}-${server.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64)}`;
      const path = join(this.hostDir, name);
      mkdirSync(path);
      const scope = new CgroupScope(path);
      this.scopes.add(scope);
      return scope;
    } catch {
      return undefined;
    }
  }

  /** A scope's process ended and its cgroup was removed. */
  release(scope: CgroupScope): void {
    scope.remove();
    this.scopes.delete(scope);
  }

  /**
   * Removes this host's directory. Every transport ends its own cgroup on close, so normally nothing is left; a scope
   * still populated is SIGKILLed at once (cgroup.kill is synchronous to request) and its directory, if it cannot be
   * removed yet, is reaped by the next host start. Idempotent.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const scope of this.scopes) {
      try {
        if (scope.populated()) writeExisting(join(scope.path, 'cgroup.kill'), '1');
      } catch {
        // best effort
      }
      scope.remove();
    }
    this.scopes.clear();
    if (this.hostDir !== undefined) {
      try {
        rmdirSync(this.hostDir);
      } catch {
        // still populated: the next start reaps it
      }
    }
  }
}

/** Writes to a file that must exist already (cgroup control files); never creates one. */
function writeExisting(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** A cgroup one of our hosts made for a server: `…/switchboard-<pid>-<start>-<nonce>/<name>`, and a cgroup indeed. */
export function isServerCgroup(dir: string): boolean {
  return isAbsolute(dir) && hostDirPattern.test(basename(dirname(dir))) && existsSync(join(dir, 'cgroup.procs'));
}

/** The directories directly in `dir` (none when it is gone meanwhile). */
function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/** Ends every process in a cgroup and everything below it, then removes the directories; returns how many it ended. */
export async function endCgroupTree(dir: string): Promise<number> {
  if (!isAbsolute(dir) || !existsSync(join(dir, 'cgroup.procs'))) return 0;
  let ended = 0;
  for (const child of subdirectories(dir)) ended += await endCgroupTree(child);
  const scope = new CgroupScope(dir);
  ended += scope.pids().length;
  await scope.kill();
  scope.remove();
  return ended;
}

/**
 * Ends what crashed hosts left in `baseDir`: every `switchboard-<pid>-<start>-…` directory whose owner is no longer
 * running (another start time on that pid counts as gone). Live hosts' directories are never touched. Returns how
 * many server cgroups still had processes.
 */
export async function reapOrphanCgroups(baseDir: string | undefined): Promise<number> {
  if (baseDir === undefined) return 0;
  let names: string[];
  try {
    names = readdirSync(baseDir);
  } catch {
    return 0;
  }
  let trees = 0;
  for (const name of names) {
    const match = hostDirPattern.exec(name);
    if (!match) continue;
    const [, pid, start] = match;
    if (processStartTime(Number(pid)) === start) continue;
    const hostDir = join(baseDir, name);
    for (const scope of subdirectories(hostDir)) if ((await endCgroupTree(scope)) > 0) trees++;
    await endCgroupTree(hostDir);
  }
  return trees;
}
