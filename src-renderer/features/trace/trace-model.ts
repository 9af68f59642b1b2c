import type { TraceEntry } from '../../../src-shared/host-api';

export type TraceKind = 'request' | 'response' | 'error' | 'notification' | 'other';

export interface TraceRow {
  entry: TraceEntry;
  kind: TraceKind;
  /** The method (for a response: its request's). */
  method: string | undefined;
  id: string | number | undefined;
  /** The seq of the other half: a request's response, a response's request. */
  pairSeq: number | undefined;
  /** For both halves: the round trip, when known. */
  durationMs: number | undefined;
  /** The request has had no response (yet). */
  pending: boolean;
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function classify(message: unknown): { kind: TraceKind; method?: string; id?: string | number } {
  const m = asRecord(message);
  if (!m) return { kind: 'other' };
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  const method = typeof m.method === 'string' ? m.method : undefined;
  if (method !== undefined) return id !== undefined ? { kind: 'request', method, id } : { kind: 'notification', method };
  if (id !== undefined && 'error' in m) return { kind: 'error', id };
  if (id !== undefined && 'result' in m) return { kind: 'response', id };
  return { kind: 'other' };
}

/**
 * Pairs requests with their responses: by the recorded `pairedWith` when the host gave it, else by JSON-RPC id in
 * the opposite direction (the first unanswered request with that id). Rows keep the entries' order.
 */
export function traceRows(entries: readonly TraceEntry[]): TraceRow[] {
  const rows: TraceRow[] = entries.map((entry) => {
    const c = classify(entry.message);
    return { entry, kind: c.kind, method: c.method, id: c.id, pairSeq: undefined, durationMs: undefined, pending: c.kind === 'request' };
  });
  const bySeq = new Map<number, TraceRow>();
  for (const row of rows) bySeq.set(row.entry.seq, row);
  // Unanswered requests by direction + id.
  const open = new Map<string, TraceRow>();
  for (const row of rows) {
    if (row.kind === 'request') {
      open.set(`${row.entry.direction}\u0000${String(row.id)}`, row);
      continue;
    }
    if (row.kind !== 'response' && row.kind !== 'error') continue;
    const requestDirection = row.entry.direction === 'receive' ? 'send' : 'receive';
    const key = `${requestDirection}\u0000${String(row.id)}`;
    const request = (row.entry.pairedWith !== undefined ? bySeq.get(row.entry.pairedWith) : undefined) ?? open.get(key);
    if (!request) continue;
    if (open.get(key) === request) open.delete(key);
    const duration = row.entry.durationMs ?? row.entry.time - request.entry.time;
    row.pairSeq = request.entry.seq;
    row.method = request.method;
    row.durationMs = duration;
    request.pairSeq = row.entry.seq;
    request.durationMs = duration;
    request.pending = false;
  }
  return rows;
}
