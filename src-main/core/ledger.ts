import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killTree, processStartTime } from './process-tree';

interface LedgerEntry {
  pid: number;
  startTime: string;
  server: string;
}

interface LedgerFile {
  owner: { pid: number; startTime: string | undefined };
  children: LedgerEntry[];
}

/**
 * Which server process trees this host started, on disk, so the next start can clean up after a crash of ours.
 * One file per running host (`run/<pid>.json`), so two hosts (the app and a CLI run) never race on it, and a
 * host only reaps files whose owner is dead. Each pid is stored with its kernel start time: a pid that was reused
 * by an unrelated process is never touched.
 */
export class ChildLedger {
  private readonly file: string;
  private readonly children = new Map<number, LedgerEntry>();
  private readonly owner = { pid: process.pid, startTime: processStartTime(process.pid) };
  private disposed = false;

  constructor(private readonly dir: string) {
    this.file = join(dir, `${process.pid}.json`);
  }

  /** Ends the trees that dead hosts left behind; returns how many processes were reaped. */
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
      for (const child of ledger.children ?? []) {
        if (processStartTime(child.pid) !== child.startTime) continue;
        await killTree(child.pid, 1000);
        reaped++;
      }
      rmSync(path, { force: true });
    }
    return reaped;
  }

  add(pid: number, server: string): void {
    const startTime = processStartTime(pid);
    if (startTime === undefined || this.disposed) return;
    this.children.set(pid, { pid, startTime, server });
    this.save();
  }

  remove(pid: number): void {
    if (this.children.delete(pid)) this.save();
  }

  private save(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      if (this.children.size === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      const temp = `${this.file}.tmp`;
      const body: LedgerFile = { owner: this.owner, children: [...this.children.values()] };
      writeFileSync(temp, JSON.stringify(body));
      renameSync(temp, this.file);
    } catch {
      // Best effort: the ledger only helps after a crash.
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.children.clear();
    rmSync(this.file, { force: true });
  }
}
