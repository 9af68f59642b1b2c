import type { TraceEntry } from '../../../src-shared/contract/trace';

/** An entry as pairing sees it: the shared entry plus the seq of the request it belongs to. */
export type GroupedEntry = TraceEntry & { groupOf?: number };

interface Pending {
  seq: number;
  /** performance.now() when it was recorded, for durationMs. */
  t: number;
  method: string;
  /** The request's root: its own seq, or the seq of the request an MRTR retry continues. */
  root: number;
  token?: string | number;
  record: GroupedEntry;
}

const pendingLimit = 10_000;

/**
 * One server's request/response pairing and grouping: requests paired with their responses (`pairedWith`,
 * `durationMs`), and progress, cancellations and MRTR rounds (2026-07-28: the request sent again with
 * `inputResponses` / `requestState` after an `input_required` result) grouped under their request (`groupOf`).
 */
export class RequestPairing {
  /** Our requests awaiting their response, and the server's requests awaiting ours, by id. */
  private readonly outgoing = new Map<string | number, Pending>();
  private readonly incoming = new Map<string | number, Pending>();
  /** progressToken → the request's root seq. */
  private readonly progress = new Map<string | number, number>();
  /** An `input_required` result's requestState, or its request's method+name → the root seq of the flow. */
  private readonly mrtr = new Map<string, number>();

  /** A new connection: JSON-RPC ids start over, so pending pairs are forgotten. */
  reset(): void {
    this.outgoing.clear();
    this.incoming.clear();
    this.progress.clear();
    this.mrtr.clear();
  }

  /** Pairs or groups `record`, which holds the (redacted) `message`; `t` is performance.now() when it was recorded. */
  observe(direction: TraceEntry['direction'], message: unknown, record: GroupedEntry, t: number): void {
    const m = message as Partial<Record<'id' | 'method' | 'params' | 'result' | 'error', unknown>>;
    const hasId = m.id !== undefined && m.id !== null && (typeof m.id === 'string' || typeof m.id === 'number');
    if (typeof m.method === 'string') {
      const params = isRecord(m.params) ? m.params : undefined;
      if (hasId) this.request(direction, m.id as string | number, m.method, params, record, t);
      else this.notification(m.method, params, record);
    } else if (hasId) {
      this.response(direction, m.id as string | number, m.result, record, t);
    }
  }

  private request(
    direction: TraceEntry['direction'],
    id: string | number,
    method: string,
    params: Record<string, unknown> | undefined,
    record: GroupedEntry,
    t: number,
  ): void {
    let root = record.seq;
    if (direction === 'send' && params && (params.inputResponses !== undefined || params.requestState !== undefined)) {
      const continued =
        (typeof params.requestState === 'string' ? this.mrtr.get(`s:${params.requestState}`) : undefined) ?? this.mrtr.get(mrtrKey(method, params));
      if (continued !== undefined) {
        root = continued;
        record.groupOf = continued;
      }
    }
    const meta = params && isRecord(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    const pending: Pending = { seq: record.seq, t, method, root, record };
    if (typeof token === 'string' || typeof token === 'number') {
      pending.token = token;
      this.progress.set(token, root);
      dropOldestOverLimit(this.progress);
    }
    const map = direction === 'send' ? this.outgoing : this.incoming;
    map.set(id, pending);
    dropOldestOverLimit(map);
  }

  private notification(method: string, params: Record<string, unknown> | undefined, record: GroupedEntry): void {
    if (!params) return;
    if (method === 'notifications/progress') {
      const token = params.progressToken;
      const root = typeof token === 'string' || typeof token === 'number' ? this.progress.get(token) : undefined;
      if (root !== undefined) record.groupOf = root;
    } else if (method === 'notifications/cancelled') {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number') {
        const pending = (record.direction === 'send' ? this.outgoing : this.incoming).get(id);
        if (pending) record.groupOf = pending.root;
        if (pending?.record.traceId !== undefined) record.traceId = pending.record.traceId;
      }
    }
  }

  private response(direction: TraceEntry['direction'], id: string | number, result: unknown, record: GroupedEntry, t: number): void {
    // A response we receive answers our request; one we send answers the server's.
    const map = direction === 'receive' ? this.outgoing : this.incoming;
    const pending = map.get(id);
    if (!pending) return;
    map.delete(id);
    record.pairedWith = pending.seq;
    record.durationMs = Math.round((t - pending.t) * 1000) / 1000;
    if (pending.root !== pending.seq) record.groupOf = pending.root;
    if (pending.record.http !== undefined) record.http = pending.record.http;
    if (pending.record.traceId !== undefined) record.traceId = pending.record.traceId;
    if (pending.token !== undefined) this.progress.delete(pending.token);
    if (direction === 'receive' && isRecord(result) && result.resultType === 'input_required') {
      // The SDK retries the same request (fresh id) with inputResponses + the byte-exact requestState.
      const params = isRecord((pending.record.message as { params?: unknown }).params)
        ? (pending.record.message as { params: Record<string, unknown> }).params
        : undefined;
      this.mrtr.set(mrtrKey(pending.method, params), pending.root);
      if (typeof result.requestState === 'string') this.mrtr.set(`s:${result.requestState}`, pending.root);
      if (pending.token !== undefined) this.progress.set(pending.token, pending.root);
      if (this.mrtr.size > pendingLimit) this.mrtr.clear();
    }
  }
}

/** Keeps a pending map within `pendingLimit` by dropping its oldest entry. */
function dropOldestOverLimit<K, V>(map: Map<K, V>): void {
  if (map.size <= pendingLimit) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

function mrtrKey(method: string, params: Record<string, unknown> | undefined): string {
  const name = params?.name ?? params?.uri;
  return `m:${method}\u0000${typeof name === 'string' ? name : ''}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
