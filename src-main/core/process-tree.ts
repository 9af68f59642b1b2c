import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while any process of the group led by `pgid` exists (POSIX). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

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

/**
 * A process's start time as the kernel reports it, so a pid in the ledger is only ever killed when it is still
 * the same process (pids are reused). Linux: field 22 of /proc/PID/stat; elsewhere `ps -o lstart=`.
 */
export function processStartTime(pid: number): string | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses: split after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19];
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function processStartTimeAsync(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux' || process.platform === 'win32') return processStartTime(pid);
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'lstart=', '-p', String(pid)], (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined));
  });
}
