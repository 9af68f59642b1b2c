import { readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePrivateDir, writeFileAtomicSync } from '../support/data-files';
import { Containment, endCgroupTree, isServerCgroup, reapOrphanCgroups } from './containment';
import { groupMembers, killProcesses, killTree, processStartTime } from './tree';

interface LedgerEntry {
  /** The server process: the leader of its process group and session (it is spawned detached). */
  pid: number;
  startTime: string;
  server: string;
  /** Its cgroup, when it runs in one: everything in it is ours, wherever it moved. */
  cgroup?: string;
}

interface LedgerFile {
  /** `bootId` (Linux): start times count from boot, so they say nothing about processes of another boot. */
  owner: { pid: number; startTime: string | undefined; bootId?: string };
  children: LedgerEntry[];
}

function ownerRecord(): LedgerFile['owner'] {
  const boot = bootId();
  return { pid: process.pid, startTime: processStartTime(process.pid), ...(boot !== undefined ? { bootId: boot } : {}) };
}

function bootId(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Which server process trees this host started, on disk, so the next start can clean up after a crash of ours.
 * One file per running host (`run/<pid>.json`), so two hosts (the app and a CLI run) never race on it, and a
 * host only reaps files whose owner is dead. Each pid is stored with its kernel start time: a pid that was reused
 * by an unrelated process is never touched. The ledger also owns the host's {@link Containment} (the servers'
 * cgroups), since both exist so that no server process outlives its host.
 */
export class ChildLedger {
  private readonly file: string;
  private readonly children = new Map<number, LedgerEntry>();
  private readonly owner: LedgerFile['owner'] = ownerRecord();
  private disposed = false;
  readonly containment: Containment;

  constructor(
    private readonly dir: string,
    containment: Containment = new Containment(),
  ) {
    this.file = join(dir, `${process.pid}.json`);
    this.containment = containment;
  }

  /** Ends the trees that dead hosts left behind; returns how many servers' trees still had processes. */
  async reapOrphans(): Promise<number> {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => /^\d+\.json$/.test(n));
    } catch {
      return 0;
    }
    let reaped = 0;
    for (const name of names) {
      const path = join(this.dir, name);
      let ledger: LedgerFile;
      try {
        ledger = JSON.parse(readFileSync(path, 'utf8')) as LedgerFile;
      } catch {
        continue;
      }
      if (ledger.owner.pid === process.pid) continue;
      const ownerAlive = ledger.owner.startTime !== undefined && processStartTime(ledger.owner.pid) === ledger.owner.startTime;
      if (ownerAlive) continue;
      const sameBoot = ledger.owner.bootId === undefined || ledger.owner.bootId === bootId();
      for (const child of sameBoot ? (ledger.children ?? []) : []) {
        if (await reapChild(child)) reaped++;
      }
      rmSync(path, { force: true });
    }
    // cgroups of crashed hosts that never made it into a ledger (a crash between spawn and save).
    return reaped + (await reapOrphanCgroups(this.containment.baseDir));
  }

  add(pid: number, server: string, cgroup?: string): void {
    const startTime = processStartTime(pid);
    if (startTime === undefined || this.disposed) return;
    this.children.set(pid, { pid, startTime, server, ...(cgroup !== undefined ? { cgroup } : {}) });
    this.save();
  }

  remove(pid: number): void {
    if (this.children.delete(pid)) this.save();
  }

  private save(): void {
    try {
      if (this.children.size === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      ensurePrivateDir(this.dir);
      const body: LedgerFile = { owner: this.owner, children: [...this.children.values()] };
      // Command lines of this user's servers: 0600 like every data file. The temp is this host's alone (its pid is
      // in the name), and not flushed: the ledger only helps after a crash of this process, not of the machine.
      writeFileAtomicSync(this.file, JSON.stringify(body), { temp: `${this.file}.tmp`, fsync: false });
    } catch {
      // Best effort: the ledger only helps after a crash.
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.children.clear();
    this.containment.dispose();
    rmSync(this.file, { force: true });
  }
}

/**
 * Ends what is left of one server a dead host started; true when anything was. Its cgroup if it had one (all of it is
 * ours). Then its process group and session: on Linux by scanning /proc, because the leader may be gone while its
 * group lives on (npx and uvx exit when stdin closes; their workers stay) — see groupMembers for why a reused pid is
 * never touched. Elsewhere only a leader with the recorded start time is ended, with its group.
 */
async function reapChild(child: LedgerEntry): Promise<boolean> {
  let ended = false;
  if (child.cgroup !== undefined && isServerCgroup(child.cgroup)) {
    ended = (await endCgroupTree(child.cgroup)) > 0;
    removeEmptyDir(dirname(child.cgroup));
  }
  if (process.platform === 'linux') {
    const members = groupMembers(child.pid, child.startTime);
    if (members.length > 0) {
      await killProcesses(members, 1000);
      ended = true;
    }
    return ended;
  }
  if (processStartTime(child.pid) !== child.startTime) return ended;
  await killTree(child.pid, 1000);
  return true;
}

function removeEmptyDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // other servers' cgroups are still in it, or it is gone
  }
}
