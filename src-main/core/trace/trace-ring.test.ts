import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/processes';
import { createRedactor } from './redact';
import { approxJsonSize } from './json-size';
import { TraceRing } from './trace-ring';

const request = (id: number, method = 'tools/call', params: Record<string, unknown> = {}): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params });
const response = (id: number, result: Record<string, unknown> = {}): JSONRPCMessage => ({ jsonrpc: '2.0', id, result });

describe('TraceRing', () => {
  it('holds at most maxEntries per server, oldest dropped, seq still increasing', () => {
    const ring = new TraceRing({ maxEntries: 5 });
    for (let i = 0; i < 12; i++) ring.message('a', 'send', { jsonrpc: '2.0', method: 'notifications/message', params: { i } });
    ring.message('b', 'send', request(1));
    const entries = ring.list('a');
    expect(entries.map((e) => e.seq)).toEqual([7, 8, 9, 10, 11]);
    expect(ring.list('b').map((e) => e.seq)).toEqual([0]); // per server
    expect(ring.lastSeq('a')).toBe(11);
  });

  it('holds at most maxBytes per server (always at least the newest entry)', () => {
    const ring = new TraceRing({ maxBytes: 1000 });
    const big = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'x', params: { text: 'y'.repeat(300), n } });
    for (let i = 0; i < 10; i++) ring.message('a', 'receive', big(i));
    const entries = ring.list('a');
    expect(entries.reduce((sum, e) => sum + e.size, 0)).toBeLessThanOrEqual(1000);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.at(-1)?.seq).toBe(9);
    ring.message('a', 'receive', { jsonrpc: '2.0', method: 'x', params: { text: 'z'.repeat(5000) } });
    expect(ring.list('a').map((e) => e.seq)).toEqual([10]);
  });

  it('stays bounded over many entries (the ring compacts)', () => {
    const ring = new TraceRing({ maxEntries: 100 });
    for (let i = 0; i < 20_000; i++) ring.message('a', i % 2 ? 'receive' : 'send', i % 2 ? response(i - 1) : request(i));
    const entries = ring.list('a');
    expect(entries).toHaveLength(100);
    expect(entries[0]?.seq).toBe(19_900);
    expect(entries.filter((e) => e.direction === 'receive').every((e) => e.pairedWith === e.seq - 1)).toBe(true);
  });

  it('list: after + limit pages forward; limit alone gives the newest; clear forgets but seq keeps counting', () => {
    const ring = new TraceRing();
    for (let i = 0; i < 10; i++) ring.message('a', 'send', request(i));
    expect(ring.list('a', { after: 3, limit: 2 }).map((e) => e.seq)).toEqual([4, 5]);
    expect(ring.list('a', { after: 8 }).map((e) => e.seq)).toEqual([9]);
    expect(ring.list('a', { limit: 3 }).map((e) => e.seq)).toEqual([7, 8, 9]);
    expect(ring.list('a', { after: 9 })).toEqual([]);
    expect(ring.list('nobody')).toEqual([]);
    ring.clear('a');
    expect(ring.list('a')).toEqual([]);
    ring.message('a', 'send', request(99));
    expect(ring.list('a').map((e) => e.seq)).toEqual([10]);
  });

  it('pairs both ways: our requests with the server’s responses, the server’s requests with ours; ids restart per connection', () => {
    const ring = new TraceRing();
    ring.message('a', 'send', request(1));
    ring.message('a', 'receive', request(1, 'sampling/createMessage')); // the server's own id space
    ring.message('a', 'send', response(1, { role: 'assistant' }));
    ring.message('a', 'receive', response(1, { content: [] }));
    const [ours, theirs, ourAnswer, theirAnswer] = ring.list('a');
    expect(ourAnswer?.pairedWith).toBe(theirs?.seq);
    expect(theirAnswer?.pairedWith).toBe(ours?.seq);
    expect(theirAnswer?.durationMs).toBeGreaterThanOrEqual(0);
    // A new connection: an old pending id is not paired with a new response.
    ring.message('a', 'send', request(7));
    ring.begin('a');
    ring.message('a', 'receive', response(7));
    expect(ring.list('a').at(-1)?.pairedWith).toBeUndefined();
  });

  it('groups progress and cancellation under their request', () => {
    const ring = new TraceRing();
    ring.message('a', 'send', request(5, 'tools/call', { name: 'slow', _meta: { progressToken: 'tok' } }));
    ring.message('a', 'receive', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1 } });
    ring.message('a', 'receive', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'other', progress: 1 } });
    ring.message('a', 'send', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    const [call, progress, stray, cancel] = ring.list('a');
    expect(progress?.groupOf).toBe(call?.seq);
    expect(stray?.groupOf).toBeUndefined();
    expect(cancel?.groupOf).toBe(call?.seq);
  });

  it('groups MRTR legs by requestState, or by method and name', () => {
    const ring = new TraceRing();
    ring.message('a', 'send', request(1, 'tools/call', { name: 'deploy' }));
    ring.message('a', 'receive', response(1, { resultType: 'input_required', inputRequests: {}, requestState: 'abc' }));
    ring.message('a', 'send', request(2, 'tools/call', { name: 'deploy', requestState: 'abc' }));
    ring.message('a', 'receive', response(2, { resultType: 'input_required', inputRequests: { x: {} } }));
    ring.message('a', 'send', request(3, 'tools/call', { name: 'deploy', inputResponses: { x: {} } }));
    ring.message('a', 'receive', response(3, { resultType: 'complete', content: [] }));
    const entries = ring.list('a');
    expect(entries.map((e) => e.groupOf)).toEqual([undefined, undefined, 0, 0, 0, 0]);
    expect(entries.map((e) => e.pairedWith)).toEqual([undefined, 0, undefined, 2, undefined, 4]);
  });

  it('redacts before it keeps anything', () => {
    const ring = new TraceRing({ redactor: createRedactor({ secretValues: () => ['hunter2-secret'] }) });
    const original = request(1, 'tools/call', { name: 'login', arguments: { password: 'pw', note: 'my hunter2-secret' } });
    ring.message('a', 'send', original);
    const stored = JSON.stringify(ring.list('a'));
    expect(stored).not.toContain('hunter2-secret');
    expect(stored).not.toContain('"pw"');
    expect(JSON.stringify(original)).toContain('hunter2-secret'); // the SDK's message is not touched
  });

  it('attaches an HTTP exchange to the messages its POST carried, and records other exchanges on their own', () => {
    const ring = new TraceRing();
    ring.message('r', 'send', request(1, 'initialize'));
    ring.message('r', 'send', { jsonrpc: '2.0', method: 'notifications/initialized' });
    ring.http('r', { method: 'POST', url: 'http://h/mcp', status: 200, headers: { 'mcp-session-id': 's1' }, ids: [1], notifications: [] });
    ring.http('r', { method: 'POST', url: 'http://h/mcp', status: 202, headers: {}, ids: [], notifications: ['notifications/initialized'] });
    ring.message('r', 'receive', response(1));
    ring.http('r', { method: 'GET', url: 'http://h/mcp?api_key=zzz', status: 405, headers: {}, ids: [], notifications: [] });
    const [init, initialized, answer, get] = ring.list('r');
    expect(init?.http).toEqual({ status: 200, headers: { 'mcp-session-id': 's1' } });
    expect(initialized?.http?.status).toBe(202);
    expect(answer?.http?.status).toBe(200);
    expect(get).toMatchObject({ kind: 'http', http: { status: 405 }, message: { http: 'GET http://h/mcp?api_key=<redacted>' } });
  });

  it('trace:appended is coalesced per server: after a batch at once, then one for the rest of the window', async () => {
    const ring = new TraceRing({ coalesceMs: 300 });
    const events: Array<{ server: string; lastSeq: number }> = [];
    const sub = ring.onAppended((e) => events.push(e));
    for (let i = 0; i < 100; i++) ring.message('a', 'send', request(i));
    ring.message('b', 'send', request(1));
    expect(events).toEqual([]); // recorded, not yet processed (that happens after this turn, or on a read)
    ring.flush();
    expect(events).toEqual([
      { server: 'a', lastSeq: 99 },
      { server: 'b', lastSeq: 0 },
    ]);
    // More within the window (synchronously, so well within it): one event at its end, with the newest seq.
    for (let i = 100; i < 150; i++) ring.message('a', 'send', request(i));
    ring.flush();
    for (let i = 150; i < 160; i++) ring.message('a', 'send', request(i));
    ring.flush();
    expect(events).toHaveLength(2);
    await waitFor(() => events.length === 3, 5000, 'the trailing event');
    expect(events[2]).toEqual({ server: 'a', lastSeq: 159 });
    // Without a read, the batch is processed after the current turn.
    ring.message('c', 'send', request(1));
    await waitFor(() => events.length === 4, 5000, 'the batch after this turn');
    expect(events[3]).toEqual({ server: 'c', lastSeq: 0 });
    sub.dispose();
    ring.dispose();
    ring.dispose(); // idempotent
    ring.message('a', 'send', request(1000));
    ring.flush();
    expect(events).toHaveLength(4);
  });

  it('estimates sizes without serializing (exact for ASCII)', () => {
    const samples: unknown[] = [
      request(12, 'tools/call', { name: 'echo', arguments: { text: 'hello', n: 1.5, ok: true, none: null, list: [1, 'a', {}] } }),
      response(3, { content: [{ type: 'text', text: 'x'.repeat(1000) }] }),
      [],
    ];
    for (const sample of samples) expect(approxJsonSize(sample)).toBe(JSON.stringify(sample).length);
  });
});
