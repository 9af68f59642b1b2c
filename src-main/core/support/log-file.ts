import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { visibleControls } from '../../../src-shared/hidden-text';

export interface RotatingLogOptions {
  /** What a batch of lines becomes before it is written (the trace's redaction: known secret values hidden). */
  redact?: (text: string) => string;
  maxBytes?: number;
  keep?: number;
  maxPendingBytes?: number;
}

/**
 * An append-only log file that rotates by size: `name.log` → `name.log.1` → … → `name.log.N` (oldest dropped).
 * Writes are batched and flushed on a short timer, so a flood of stderr costs few syscalls and bounded memory.
 * Each batch goes through `redact` first: whole lines, so a secret is never split between two batches.
 */
export class RotatingLog {
  private pending: string[] = [];
  private pendingBytes = 0;
  private size: number;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly redact: (text: string) => string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly maxPendingBytes: number;

  constructor(
    readonly file: string,
    options: RotatingLogOptions = {},
  ) {
    this.redact = options.redact ?? ((text) => text);
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.keep = options.keep ?? 3;
    this.maxPendingBytes = options.maxPendingBytes ?? 1024 * 1024;
    // Server stderr often carries tokens: logs are for this user only.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      this.size = statSync(file).size;
    } catch {
      this.size = 0;
    }
  }

  write(line: string): void {
    if (this.disposed) return;
    const text = `${new Date().toISOString()} ${line}\n`;
    if (this.pendingBytes + text.length > this.maxPendingBytes) {
      this.flush();
    }
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.timer ??= setTimeout(() => this.flush(), 200);
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    try {
      const text = this.redact(lines);
      if (this.size + text.length > this.maxBytes && this.size > 0) this.rotate();
      appendFileSync(this.file, text, { mode: 0o600 });
      this.size += Buffer.byteLength(text);
    } catch {
      // Logging must never take the host down (a full disk, a removed folder).
    }
  }

  private rotate(): void {
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      try {
        renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
      } catch {
        // missing generation
      }
    }
    renameSync(this.file, `${this.file}.1`);
    this.size = 0;
  }

  dispose(): void {
    if (this.disposed) return;
    this.flush();
    this.disposed = true;
  }
}

/** Our own log: a rotating file, mirrored to stderr when asked (`serve`'s stderr often goes to a file too; servers' text in it with control characters made visible). */
export class HostLog {
  constructor(
    private readonly log: RotatingLog | undefined,
    private readonly mirror: boolean,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}
  info(message: string): void {
    this.log?.write(`INFO ${message}`);
    if (this.mirror) process.stderr.write(this.redact(`[switchboard] ${visibleControls(message)}\n`));
  }
  warn(message: string): void {
    this.log?.write(`WARN ${message}`);
    if (this.mirror) process.stderr.write(this.redact(`[switchboard] warning: ${visibleControls(message)}\n`));
  }
  dispose(): void {
    this.log?.dispose();
  }
}
