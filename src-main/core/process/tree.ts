import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { isAlive } from '../support/alive';

/**
 * True while any process of the group led by `pgid` exists (POSIX). On Linux zombies do not count: a killed orphan
 * stays a zombie until its new parent (init) reaps it, which some inits do late, and a zombie is already dead.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  return allProcesses().some((p) => p.pgid === pgid);
}

/**
 * Signals a server's whole tree. On POSIX every stdio server leads its own process group (we spawn it
 * detached), so `kill(-pgid)` reaches launchers' grandchildren too. On Windows, `taskkill /T /F` ends the tree.
 */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => undefined);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * A ref'd timer on purpose: teardown waits must keep Node alive. With unref'd ones, a CLI whose only remaining work
 * was "wait, then SIGKILL" ran out of event-loop work mid-teardown and exited 0 with the SIGKILL never sent.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` is true or `ms` pass; returns whether it became true. */
export async function until(check: () => boolean, ms: number, step = 25): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await sleep(step);
  }
  return true;
}

/**
 * Ends a whole process tree: SIGTERM to the group, then SIGKILL after `graceMs` for whatever ignored it
 * (including grandchildren that outlived their parent). Resolves once the group is gone (or after a bounded wait).
 */
export async function killTree(pid: number, graceMs = 1500): Promise<void> {
  if (process.platform === 'win32') {
    signalTree(pid, 'SIGKILL');
    await until(() => !isAlive(pid), graceMs);
    return;
  }
  if (!groupAlive(pid)) return;
  signalTree(pid, 'SIGTERM');
  if (await until(() => !groupAlive(pid), graceMs)) return;
  signalTree(pid, 'SIGKILL');
  await until(() => !groupAlive(pid), 2000);
}

/** What /proc/PID/stat says about a process (Linux): its group, session and kernel start time. */
export interface ProcStat {
  pid: number;
  pgid: number;
  sid: number;
  startTime: string;
}

function parseStat(pid: number, stat: string): ProcStat | undefined {
  // The command name (field 2) may contain spaces and parentheses: split after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): pgrp is field 5, session field 6, starttime field 22.
  const [state, , pgid, sid] = fields;
  const startTime = fields[19];
  if (state === undefined || pgid === undefined || sid === undefined || startTime === undefined) return undefined;
  // A zombie is already dead; only its parent can make it go away.
  if (state === 'Z' || state === 'X') return undefined;
  return { pid, pgid: Number(pgid), sid: Number(sid), startTime };
}

export function procStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every live process on the machine (Linux, from /proc). */
export function allProcesses(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** Kernel start times are clock ticks since boot, as decimal strings: compare them as numbers. */
export function startedAtOrAfter(startTime: string, since: string): boolean {
  return BigInt(startTime) >= BigInt(since);
}

/**
 * The processes that still belong to a process group or session led by `leader` (Linux), whether or not the leader
 * itself is still alive: wrappers like npx exit when stdin closes and leave their workers in the group.
 *
 * Linux never hands out a pid again while it is still some process's group or session id, so a process whose pgid or
 * sid is `leader` belongs to the group that process started — unless the leader's whole group ended and the pid was
 * reused. Hence the guards: nothing is returned when a *different* process now has the pid `leader` (a reused pid),
 * and members must have started no earlier than the leader (`leaderStart`).
 */
export function groupMembers(leader: number, leaderStart: string): ProcStat[] {
  if (process.platform !== 'linux') return [];
  const current = procStat(leader);
  if (current && current.startTime !== leaderStart) return [];
  return allProcesses().filter((p) => (p.pgid === leader || p.sid === leader) && startedAtOrAfter(p.startTime, leaderStart));
}

/**
 * SIGTERM to each process, SIGKILL after `graceMs` to those that ignored it; a pid is signalled only while it is still
 * the process it was (same start time). Resolves once all are gone (or after a bounded wait).
 */
export async function killProcesses(processes: readonly ProcStat[], graceMs = 1000): Promise<void> {
  const same = (p: ProcStat): boolean => procStat(p.pid)?.startTime === p.startTime;
  const signal = (signal: NodeJS.Signals): void => {
    for (const p of processes) {
      if (!same(p)) continue;
      try {
        process.kill(p.pid, signal);
      } catch {
        // gone meanwhile
      }
    }
  };
  if (!processes.some(same)) return;
  signal('SIGTERM');
  if (await until(() => !processes.some(same), graceMs)) return;
  signal('SIGKILL');
  await until(() => !processes.some(same), 2000);
}

/**
 * A process's start time as the kernel reports it, so a pid in the ledger is only ever killed when it is still
 * the same process (pids are reused). Linux: field 22 of /proc/PID/stat; elsewhere `ps -o lstart=`.
 */
export function processStartTime(pid: number): string | undefined {
  if (process.platform === 'linux') return procStat(pid)?.startTime;
  return undefined;
}

export async function processStartTimeAsync(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux' || process.platform === 'win32') return processStartTime(pid);
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'lstart=', '-p', String(pid)], (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined));
  });
}
