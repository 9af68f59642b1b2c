import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { noRedaction, type Redactor } from './redact';
import { parseTraceparent } from './trace-context';
import type { TraceDirection, TraceRecorder } from './trace-ring';

/** Requests remembered for their responses' trace id; past it the oldest is forgotten (its response then has none). */
const maxOpenRequests = 10_000;

export interface JsonlTraceWriterOptions {
  redactor?: Redactor;
}

/**
 * The CLI's `--trace FILE` sink: one JSON line per JSON-RPC message,
 * `{"time":"<ISO 8601>","server":"…","direction":"send"|"receive","traceId"?:"…","message":{…}}`, redacted, appended to FILE
 * (created 0600; an existing file is made 0600 too, since it holds protocol traffic). Lines are written in batches
 * (once per turn of the event loop) and whatever is left is written by `dispose()` (idempotent; also run on
 * process exit), which closes the file. HTTP exchanges are not JSON-RPC messages and are not written. `traceId`: the
 * W3C trace id of a request the host sent (its `_meta.traceparent`), also on that request's response and on its
 * `notifications/cancelled`, so one chat turn's or direct call's lines can be picked out (`jq 'select(.traceId == …)'`).
 */
export class JsonlTraceWriter implements TraceRecorder {
  private readonly fd: number;
  private readonly redactor: Redactor;
  /** Recorded, not yet written: the work (redaction, serialization) is done in the batch, after this turn. */
  private pending: Array<{ time: number; server: string; direction: TraceDirection; traceId: string | undefined; message: JSONRPCMessage }> = [];
  /** Requests sent with a trace id and not answered yet: `server \0 id` → trace id (bounded; cleared per connection). */
  private readonly open = new Map<string, string>();
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

  begin(server: string): void {
    // A new connection's request ids start again.
    for (const key of [...this.open.keys()]) if (key.startsWith(`${server}\u0000`)) this.open.delete(key);
  }

  message(server: string, direction: TraceDirection, message: JSONRPCMessage): void {
    if (this.closed) return;
    this.pending.push({ time: Date.now(), server, direction, traceId: this.traceIdOf(server, direction, message), message });
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
    for (const { time, server, direction, traceId, message } of this.pending) {
      lines.push(
        JSON.stringify({
          time: new Date(time).toISOString(),
          server,
          direction,
          ...(traceId !== undefined ? { traceId } : {}),
          message: this.redactor.value(message),
        }),
      );
    }
    this.pending = [];
    const buffer = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
  }

  /** Read from the message as sent, before redaction (a redactor could take 32 hex digits for a token). */
  private traceIdOf(server: string, direction: TraceDirection, raw: JSONRPCMessage): string | undefined {
    const m = raw as { id?: unknown; method?: unknown; params?: { _meta?: { traceparent?: unknown }; requestId?: unknown } };
    const key = (id: unknown): string => `${server}\u0000${JSON.stringify(id)}`;
    if (direction === 'receive') {
      if (m.method !== undefined || m.id === undefined) return undefined;
      const traceId = this.open.get(key(m.id));
      this.open.delete(key(m.id));
      return traceId;
    }
    const traceId = parseTraceparent(m.params?._meta?.traceparent)?.traceId;
    if (traceId !== undefined && m.id !== undefined && m.method !== undefined) {
      if (this.open.size >= maxOpenRequests) this.open.delete(this.open.keys().next().value as string);
      this.open.set(key(m.id), traceId);
    }
    if (traceId === undefined && m.method === 'notifications/cancelled') return this.open.get(key(m.params?.requestId));
    return traceId;
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
