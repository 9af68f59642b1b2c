import { describe, expect, it } from 'vitest';
import type { TraceEntry } from '../../../src-shared/host-api';
import { traceRows } from './trace-model';

const entry = (seq: number, direction: TraceEntry['direction'], message: unknown, over: Partial<TraceEntry> = {}): TraceEntry => ({
  seq,
  time: 1000 + seq * 10,
  server: 's',
  direction,
  size: JSON.stringify(message).length,
  message,
  ...over,
});

describe('traceRows', () => {
  it('pairs requests and responses by id in the opposite direction, with the round trip', () => {
    const rows = traceRows([
      entry(1, 'send', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      entry(2, 'send', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }),
      entry(3, 'receive', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }),
      entry(4, 'receive', { jsonrpc: '2.0', id: 2, result: {} }),
      entry(5, 'receive', { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }),
      entry(6, 'send', { jsonrpc: '2.0', id: 3, method: 'ping' }),
    ]);
    expect(rows.map((r) => [r.kind, r.method, r.pairSeq, r.durationMs, r.pending])).toEqual([
      ['request', 'tools/list', 5, 40, false],
      ['request', 'tools/call', 4, 20, false],
      ['notification', 'notifications/progress', undefined, undefined, false],
      ['response', 'tools/call', 2, 20, false],
      ['error', 'tools/list', 1, 40, false],
      ['request', 'ping', undefined, undefined, true],
    ]);
  });

  it('uses the host pairing and duration when recorded; a server→client request pairs with our reply', () => {
    const rows = traceRows([
      entry(1, 'receive', { jsonrpc: '2.0', id: 'a', method: 'roots/list' }),
      entry(2, 'send', { jsonrpc: '2.0', id: 'a', result: { roots: [] } }, { pairedWith: 1, durationMs: 3 }),
    ]);
    expect(rows[0]).toMatchObject({ pairSeq: 2, durationMs: 3, pending: false });
    expect(rows[1]).toMatchObject({ kind: 'response', method: 'roots/list', pairSeq: 1 });
  });
});
