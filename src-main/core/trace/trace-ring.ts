import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { TraceEntry } from '../../../src-shared/contract/trace';
import { approxJsonSize } from './json-size';
import { RequestPairing } from './pairing';
import { noRedaction, redactUrl, type Redactor } from './redact';
import { parseTraceparent } from './trace-context';

/** The size estimate the ring sizes entries by, exported with the ring's other pieces (./index.ts). */
export { approxJsonSize };

export type TraceDirection = 'send' | 'receive';

/**
 * One HTTP exchange of a remote server, as `tracingFetch` saw it: the status, the `Mcp-*` headers of request and
 * response (and the response's content type), and which JSON-RPC messages the POST body carried.
 */
export interface HttpExchange {
  method: string;
  url: string;
  status?: number;
  headers: Record<string, string>;
  /** Ids of the requests / responses in the body (POST). */
  ids: Array<string | number>;
  /** Methods of the notifications in the body (POST). */
  notifications: string[];
  /** The fetch failed (network error, abort): no status. */
  error?: string;
}

/** What a trace sink is told. `traceTransport` and `tracingFetch` call it; the ring and the JSONL writer implement it. */
export interface TraceRecorder {
  /** A new connection of `server` starts: JSON-RPC ids start over, so pending pairs are forgotten. */
  begin(server: string): void;
  /** One JSON-RPC message, before redaction (the recorder redacts before it keeps anything). */
  message(server: string, direction: TraceDirection, message: JSONRPCMessage): void;
  /** One HTTP exchange of a remote server. */
  http?(server: string, exchange: HttpExchange): void;
}

/**
 * A recorded entry: the shared {@link TraceEntry} plus grouping. `groupOf` is the seq of the request an entry belongs
 * to: a progress notification with that request's `progressToken`, a `notifications/cancelled` for it, an MRTR
 * retry (2026-07-28: the request sent again with `inputResponses` / `requestState` after an `input_required`
 * result) and every response of those. `kind: 'http'` marks an HTTP exchange that carried no JSON-RPC message we
 * sent (the GET stream, the session DELETE, a failed POST); its `message` is `{ http: 'GET /mcp', error? }`.
 */
export interface TraceRecord extends TraceEntry {
  groupOf?: number;
  kind?: 'http';
}

export interface TraceListOptions {
  /** Only entries with a seq greater than this (oldest first). */
  after?: number;
  /** At most this many: the first ones after `after`, or, without `after`, the newest ones. */
  limit?: number;
}

export interface TraceAppendedEvent {
  server: string;
  lastSeq: number;
}

export interface TraceRingOptions {
  redactor?: Redactor;
  /** Per server. Default 2000. */
  maxEntries?: number;
  /** Per server, by the messages' serialized size. Default 8 MiB. */
  maxBytes?: number;
  /** `trace:appended` is coalesced to at most one per server per this many ms. Default 200. */
  coalesceMs?: number;
}

interface ServerState {
  entries: TraceRecord[];
  /** Index of the oldest live entry in `entries` (evicted ones before it are dropped in batches). */
  head: number;
  bytes: number;
  nextSeq: number;
  /** Requests paired with their responses, and what belongs to a request grouped under it. */
  pairing: RequestPairing;
  /** The latest sends, for attaching an HTTP exchange to the message its POST carried. */
  recentSends: TraceRecord[];
  sendAt: number;
  timer: NodeJS.Timeout | undefined;
  lastEmit: number;
}

type Queued =
  | { kind: 'message'; server: string; direction: TraceDirection; raw: JSONRPCMessage; time: number; t: number }
  | { kind: 'http'; server: string; exchange: HttpExchange }
  | { kind: 'begin'; server: string };

const recentSendsLimit = 64;

/**
 * The protocol trace: per server, a bounded ring (by entries and by bytes) of redacted JSON-RPC messages with
 * increasing `seq`, requests paired with their responses (`pairedWith`, `durationMs`), progress, cancellations and
 * MRTR rounds grouped under their request (`groupOf`, ./pairing.ts), and HTTP status and `Mcp-*` headers for remote
 * servers.
 */
export class TraceRing implements TraceRecorder {
  private readonly servers = new Map<string, ServerState>();
  private readonly listeners = new Set<(event: TraceAppendedEvent) => void>();
  private readonly redactor: Redactor;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly coalesceMs: number;
  private disposed = false;
  private queue: Queued[] = [];
  private flushScheduled = false;

  constructor(options: TraceRingOptions = {}) {
    this.redactor = options.redactor ?? noRedaction;
    this.maxEntries = Math.max(1, options.maxEntries ?? 2000);
    this.maxBytes = Math.max(1, options.maxBytes ?? 8 * 1024 * 1024);
    this.coalesceMs = options.coalesceMs ?? 200;
  }

  /**
   * `trace:appended`: at most one per server per `coalesceMs` — after a batch is processed at once if the last one
   * was longer ago, else at the end of the window, then carrying the newest seq.
   */
  onAppended(listener: (event: TraceAppendedEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  begin(server: string): void {
    this.enqueue({ kind: 'begin', server });
  }

  /**
   * Recording costs the connection almost nothing: the message reference and the clock are queued, and the work
   * (redaction, pairing, grouping, sizing, the ring) is done in one batch after the current turn of the event loop
   * — while the server is busy answering — or at once when the trace is read. The unredacted reference is held
   * only until then (the SDK still holds it too) and is never handed out.
   */
  message(server: string, direction: TraceDirection, raw: JSONRPCMessage): void {
    this.enqueue({ kind: 'message', server, direction, raw, time: Date.now(), t: performance.now() });
  }

  http(server: string, exchange: HttpExchange): void {
    this.enqueue({ kind: 'http', server, exchange });
  }

  /** Works through what was recorded but not yet processed (reads do this themselves). */
  flush(): void {
    this.flushScheduled = false;
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    const appended = new Set<string>();
    for (const item of queue) {
      try {
        if (item.kind === 'message') this.processMessage(item.server, item.direction, item.raw, item.time, item.t);
        else if (item.kind === 'http') this.processHttp(item.server, item.exchange);
        else this.processBegin(item.server);
        if (item.kind !== 'begin') appended.add(item.server);
      } catch {
        // one odd message must not stop the trace
      }
    }
    for (const server of appended) {
      const state = this.servers.get(server);
      if (state) this.schedule(state, server);
    }
  }

  private enqueue(item: Queued): void {
    if (this.disposed) return;
    this.queue.push(item);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        if (this.flushScheduled) this.flush();
      });
    }
  }

  private processBegin(server: string): void {
    const state = this.state(server);
    state.pairing.reset();
    state.recentSends = [];
    state.sendAt = 0;
  }

  private processMessage(server: string, direction: TraceDirection, raw: JSONRPCMessage, time: number, t: number): void {
    const message = this.redactor.value(raw);
    const state = this.state(server);
    const record: TraceRecord = { seq: state.nextSeq++, time, server, direction, size: approxJsonSize(message), message };
    // Read from the message as sent (a redactor could take 32 hex digits for a token).
    if (direction === 'send') {
      const traceId = parseTraceparent((raw as { params?: { _meta?: { traceparent?: unknown } } }).params?._meta?.traceparent)?.traceId;
      if (traceId !== undefined) record.traceId = traceId;
    }
    state.pairing.observe(direction, message, record, t);
    if (direction === 'send') {
      // A small circular buffer: slot `sendAt`, then the next.
      state.recentSends[state.sendAt] = record;
      state.sendAt = (state.sendAt + 1) % recentSendsLimit;
    }
    this.append(state, record);
  }

  private processHttp(server: string, exchange: HttpExchange): void {
    const state = this.state(server);
    const http: NonNullable<TraceEntry['http']> = {
      ...(exchange.status !== undefined ? { status: exchange.status } : {}),
      headers: this.redactor.headers(exchange.headers),
    };
    let attached = false;
    if (exchange.method === 'POST' && exchange.error === undefined) {
      // Oldest first.
      const sends = [...state.recentSends.slice(state.sendAt), ...state.recentSends.slice(0, state.sendAt)];
      for (const id of exchange.ids) {
        const sent = findLast(sends, (r) => r.http === undefined && (r.message as { id?: unknown }).id === id);
        if (sent) {
          sent.http = http;
          attached = true;
        }
      }
      for (const method of exchange.notifications) {
        const sent = sends.find(
          (r) =>
            r.http === undefined && (r.message as { id?: unknown; method?: unknown }).id === undefined && (r.message as { method?: unknown }).method === method,
        );
        if (sent) {
          sent.http = http;
          attached = true;
        }
      }
    }
    if (attached) return;
    const path = redactUrl(exchange.url);
    const message = { http: `${exchange.method} ${path}`, ...(exchange.error !== undefined ? { error: this.redactor.text(exchange.error) } : {}) };
    this.append(state, { seq: state.nextSeq++, time: Date.now(), server, direction: 'send', size: 0, message, http, kind: 'http' });
  }

  /** Copies of the entries with seq > `after`, oldest first (see {@link TraceListOptions}); `size` is the exact UTF-8 size. */
  list(server: string, options: TraceListOptions = {}): TraceRecord[] {
    this.flush();
    const state = this.servers.get(server);
    if (!state) return [];
    const { entries, head } = state;
    let from = head;
    if (options.after !== undefined) {
      const after = options.after;
      let lo = head;
      let hi = entries.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((entries[mid]?.seq ?? Infinity) <= after) lo = mid + 1;
        else hi = mid;
      }
      from = lo;
    }
    let to = entries.length;
    const limit = options.limit;
    if (limit !== undefined && limit >= 0) {
      if (options.after !== undefined) to = Math.min(to, from + limit);
      else from = Math.max(from, to - limit);
    }
    return entries.slice(from, to).map((record) => ({ ...record, size: exactSize(record) }));
  }

  /** The seq of the newest entry (-1 when there is none yet). */
  lastSeq(server: string): number {
    this.flush();
    return (this.servers.get(server)?.nextSeq ?? 0) - 1;
  }

  /** Server names with a trace. */
  names(): string[] {
    this.flush();
    return [...this.servers.keys()];
  }

  /** Forgets the entries of `server` (seq keeps counting, so a UI asking `after` its last one stays right). */
  clear(server: string): void {
    this.flush();
    const state = this.servers.get(server);
    if (!state) return;
    state.entries = [];
    state.head = 0;
    state.bytes = 0;
    state.recentSends = [];
    state.sendAt = 0;
  }

  /** Drops a removed server's trace altogether. */
  forget(server: string): void {
    this.flush();
    const state = this.servers.get(server);
    if (state?.timer) clearTimeout(state.timer);
    this.servers.delete(server);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue = [];
    for (const state of this.servers.values()) if (state.timer) clearTimeout(state.timer);
    this.listeners.clear();
  }

  private state(server: string): ServerState {
    let state = this.servers.get(server);
    if (!state) {
      state = { entries: [], head: 0, bytes: 0, nextSeq: 0, pairing: new RequestPairing(), recentSends: [], sendAt: 0, timer: undefined, lastEmit: -Infinity };
      this.servers.set(server, state);
    }
    return state;
  }

  private append(state: ServerState, record: TraceRecord): void {
    state.entries.push(record);
    state.bytes += record.size;
    while (state.entries.length - state.head > this.maxEntries || (state.bytes > this.maxBytes && state.entries.length - state.head > 1)) {
      const old = state.entries[state.head];
      state.head++;
      if (old) state.bytes -= old.size;
    }
    if (state.head > 1024 && state.head * 2 > state.entries.length) {
      state.entries = state.entries.slice(state.head);
      state.head = 0;
    }
  }

  private schedule(state: ServerState, server: string): void {
    if (this.listeners.size === 0 || state.timer) return;
    const wait = state.lastEmit + this.coalesceMs - performance.now();
    if (wait <= 0) {
      this.emit(state, server);
      return;
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (!this.disposed) this.emit(state, server);
    }, wait);
    state.timer.unref();
  }

  private emit(state: ServerState, server: string): void {
    state.lastEmit = performance.now();
    const event = { server, lastSeq: state.nextSeq - 1 };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item !== undefined && test(item)) return item;
  }
  return undefined;
}

const exactSizes = new WeakMap<TraceRecord, number>();

/** The exact UTF-8 size of the serialized message, computed once per record when it is first listed. */
function exactSize(record: TraceRecord): number {
  if (record.kind === 'http') return record.size;
  let size = exactSizes.get(record);
  if (size === undefined) {
    try {
      size = Buffer.byteLength(JSON.stringify(record.message));
    } catch {
      size = record.size;
    }
    exactSizes.set(record, size);
  }
  return size;
}
