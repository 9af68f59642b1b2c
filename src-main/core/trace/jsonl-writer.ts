import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { noRedaction, type Redactor } from './redact';
import type { TraceDirection, TraceRecorder } from './trace-ring';

export interface JsonlTraceWriterOptions {
  redactor?: Redactor;
}

/**
 * The CLI's `--trace FILE` sink: one JSON line per JSON-RPC message,
 * `{"time":"<ISO 8601>","server":"…","direction":"send"|"receive","message":{…}}`, redacted, appended to FILE
 * (created 0600; an existing file is made 0600 too, since it holds protocol traffic). Lines are written in batches
 * (once per turn of the event loop) and whatever is left is written by `dispose()` (idempotent; also run on
 * process exit), which closes the file. HTTP exchanges are not JSON-RPC messages and are not written.
 */
export class JsonlTraceWriter implements TraceRecorder {
  private readonly fd: number;
  private readonly redactor: Redactor;
  /** Recorded, not yet written: the work (redaction, serialization) is done in the batch, after this turn. */
  private pending: Array<{ time: number; server: string; direction: TraceDirection; message: JSONRPCMessage }> = [];
  private scheduled = false;
  private closed = false;

  constructor(
    readonly file: string,
    options: JsonlTraceWriterOptions = {},
  ) {
    this.redactor = options.redactor ?? noRedaction;
    this.fd = openSync(file, 'a', 0o600);
    try {
      fchmodSync(this.fd, 0o600);
    } catch {
      // not ours to change (e.g. /dev/stderr): write anyway
    }
    // A CLI that calls process.exit() before disposing still gets every line (the write is synchronous).
    process.once('exit', this.onExit);
  }

  private readonly onExit = (): void => this.dispose();

  begin(): void {
    // nothing to reset: lines carry no pairing
  }

  message(server: string, direction: TraceDirection, message: JSONRPCMessage): void {
    if (this.closed) return;
    this.pending.push({ time: Date.now(), server, direction, message });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes the lines recorded so far. */
  flush(): void {
    this.scheduled = false;
    if (this.closed || this.pending.length === 0) return;
    const lines: string[] = [];
    for (const { time, server, direction, message } of this.pending) {
      lines.push(JSON.stringify({ time: new Date(time).toISOString(), server, direction, message: this.redactor.value(message) }));
    }
    this.pending = [];
    const buffer = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
  }

  dispose(): void {
    if (this.closed) return;
    process.removeListener('exit', this.onExit);
    try {
      this.flush();
    } finally {
      this.closed = true;
      closeSync(this.fd);
    }
  }
}

/** One recorder that tells several (e.g. the ring for the UI and the `--trace` file); one that throws does not stop the others. */
export function teeRecorder(...recorders: TraceRecorder[]): TraceRecorder {
  const each = (fn: (r: TraceRecorder) => void): void => {
    for (const r of recorders) {
      try {
        fn(r);
      } catch {
        // that sink's failure is its own
      }
    }
  };
  return {
    begin: (server) => each((r) => r.begin(server)),
    message: (server, direction, message) => each((r) => r.message(server, direction, message)),
    http: (server, exchange) => each((r) => r.http?.(server, exchange)),
  };
}
