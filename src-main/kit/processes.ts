/*
 * The process checks of the QA kit and of the project's own e2e fixture: what a host started (its process tree, read
 * with `ps`), and whether any of it outlived the test. Plain Node: bundled into out/kit, imported from source by e2e/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One row of `ps`: enough to find what a host started and to check it is gone. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  args: string;
}

/** Every process (none where there is no `ps`: then the leftover check sees nothing). */
export function listProcesses(): ProcessInfo[] {
  if (!existsSync('/bin/ps') && !existsSync('/usr/bin/ps')) return [];
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows: ProcessInfo[] = [];
  for (const line of out.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match) rows.push({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? '' });
  }
  return rows;
}

/** Every live descendant of `root` (children, grandchildren, …). */
export function descendantsOf(root: number, all: ProcessInfo[] = listProcesses()): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const p of all) {
      if (p.ppid === parent && !found.some((f) => f.pid === p.pid)) {
        found.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return found;
}

/** True while `pid` exists and is not a zombie (a zombie is dead, only not yet reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}

/** Processes (other than ours) whose command line mentions `needle`, e.g. a test's unique temp dir. */
export function processesMentioning(needle: string): ProcessInfo[] {
  return listProcesses().filter((p) => p.pid !== process.pid && p.args.includes(needle) && !/^(ps|pgrep)\b/.test(p.args));
}

/** SIGKILL to each of `processes`, gone or not. */
export function killProcesses(processes: readonly ProcessInfo[]): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const describeProcesses = (processes: readonly ProcessInfo[]): string =>
  processes.map((p) => `${p.pid} (parent ${p.ppid}) ${p.args}`).join('\n') || '(none)';

/**
 * The leftover check, after the host has stopped: what is still running of `tree` (what the host had started) or
 * names `folder` (the test's own), given a moment for the kernel to reap. Those are ended (SIGKILL) and returned: a
 * test reports them, but never lets them outlive it.
 */
export async function endLeftovers(tree: readonly ProcessInfo[], folder: string, graceMs = 1_000): Promise<ProcessInfo[]> {
  const leftovers = (): ProcessInfo[] => [...tree.filter((p) => isRunning(p.pid)), ...processesMentioning(folder)];
  await waitUntil(() => leftovers().length === 0, graceMs);
  const left = leftovers();
  killProcesses(left);
  return left;
}
