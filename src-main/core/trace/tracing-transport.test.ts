import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProcessTransport } from '../process/transport';
import { startEverything, tempDir, waitFor } from '../../test-support/processes';
import { JsonlTraceWriter, teeRecorder } from './jsonl-writer';
import { createRedactor } from './redact';
import { TraceRing, type TraceRecord } from './trace-ring';
import { traceTransport, tracingFetch } from './tracing-transport';

const fixture = join(import.meta.dirname, 'fixtures', 'trace-server.mjs');
const everything = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const env = { PATH: process.env.PATH ?? '' };

type Mode = 'auto' | 'legacy';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

function newClient(mode: Mode, capabilities: Record<string, unknown> = {}): Client {
  const client = new Client({ name: 'trace-test', version: '1' }, { capabilities, versionNegotiation: { mode } });
  clients.push(client);
  return client;
}

const msg = (r: TraceRecord): { id?: unknown; method?: unknown; params?: Record<string, unknown>; result?: Record<string, unknown> } => r.message as never;
const requestsOf = (entries: TraceRecord[], method: string): TraceRecord[] =>
  entries.filter((e) => e.direction === 'send' && msg(e).method === method && msg(e).id !== undefined);
const responseTo = (entries: TraceRecord[], request: TraceRecord): TraceRecord | undefined => entries.find((e) => e.pairedWith === request.seq);

describe('traceTransport over stdio (our ProcessTransport, a real server, a real SDK Client)', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`pairs each request with its response (same id, durationMs ≥ 0) — ${mode} era negotiation`, async () => {
      const ring = new TraceRing();
      const inner = new ProcessTransport({ command: process.execPath, args: [fixture], env });
      const transport = traceTransport(inner, ring, { server: 'fx' });
      // A decorator: what only the concrete transport knows is read from the one it wraps.
      expect(transport.inner).toBe(inner);
      const client = newClient(mode);
      await client.connect(transport);
      expect(transport.pid).toBe(inner.pid);
      expect(transport.pid).toBeGreaterThan(0);
      expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
      const result = await client.callTool({ name: 'echo', arguments: { text: 'traced' } });
      expect(JSON.stringify(result.content)).toContain('traced');

      const entries = ring.list('fx');
      const handshake = requestsOf(entries, mode === 'auto' ? 'server/discover' : 'initialize')[0];
      expect(handshake).toBeDefined();
      const [call] = requestsOf(entries, 'tools/call');
      if (!call || !handshake) throw new Error('requests missing from the trace');
      for (const request of [handshake, call]) {
        const response = responseTo(entries, request);
        expect(response?.direction).toBe('receive');
        expect(msg(response as TraceRecord).id).toBe(msg(request).id);
        expect(response?.durationMs).toBeGreaterThanOrEqual(0);
        expect(response?.seq).toBeGreaterThan(request.seq);
        expect(response?.size).toBe(Buffer.byteLength(JSON.stringify(response?.message)));
      }
      expect(JSON.stringify(responseTo(entries, call)?.message)).toContain('traced');
      // Seq increases by one, entries oldest first.
      expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i));
      await client.close();
      ring.dispose();
    });
  }

  it('the SDK negotiates the same era, version and tools through the decorator as without it (SDK stdio transport: sibling probe)', async () => {
    const outcome = async (traced: boolean): Promise<unknown> => {
      const ring = new TraceRing();
      const inner = new StdioClientTransport({ command: process.execPath, args: [fixture], env, stderr: 'ignore' });
      const transport: Transport = traced ? traceTransport(inner, ring, { server: 's' }) : inner;
      // SDK 2.4.0 detects stdio structurally: the decorator must keep `stderr` and `pid` visible.
      expect('stderr' in transport && 'pid' in transport).toBe(true);
      const client = newClient('auto');
      await client.connect(transport);
      const tools = await client.listTools();
      const view = {
        era: client.getProtocolEra(),
        version: client.getNegotiatedProtocolVersion(),
        tools: tools.tools.map((t) => t.name).sort(),
        pid: typeof (transport as StdioClientTransport).pid,
      };
      if (traced) expect(requestsOf(ring.list('s'), 'tools/list')).toHaveLength(1);
      await client.close();
      return view;
    };
    const plain = await outcome(false);
    expect(await outcome(true)).toEqual(plain);
    expect(plain).toMatchObject({ era: 'modern', pid: 'number' });
  });

  it('a recorder that throws never breaks the connection; a handler set before wrapping is kept (and recorded)', async () => {
    const broken = {
      begin: () => undefined,
      message: () => {
        throw new Error('sink full');
      },
    };
    const client = newClient('legacy');
    await client.connect(traceTransport(new ProcessTransport({ command: process.execPath, args: [fixture], env }), broken, { server: 'fx' }));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'still works' } });
    expect(JSON.stringify(result.content)).toContain('still works');

    const ring = new TraceRing();
    const inner = new ProcessTransport({ command: process.execPath, args: [fixture], env });
    const early: unknown[] = [];
    inner.onmessage = (m) => early.push(m);
    const transport = traceTransport(inner, ring, { server: 'pre' });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await waitFor(() => early.length === 1, 10_000, 'the reply');
    expect(ring.list('pre').map((e) => e.direction)).toEqual(['send', 'receive']);
    expect(ring.list('pre')[1]?.pairedWith).toBe(0);
    await transport.close();
  });

  it('a send set on it is read back; a wrapper calling the send it read is recorded once', async () => {
    const ring = new TraceRing();
    const transport = traceTransport(new ProcessTransport({ command: process.execPath, args: [fixture], env }), ring, { server: 'w' });
    const seen: unknown[] = [];
    const recording: Transport['send'] = transport.send;
    const wrapper: Transport['send'] = (message, options) => {
      seen.push((message as { method?: unknown }).method);
      return recording.call(transport, message, options);
    };
    transport.send = wrapper;
    expect(transport.send).toBe(wrapper);
    const client = newClient('legacy');
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'once' } });
    expect(JSON.stringify(result.content)).toContain('once');
    expect(seen).toContain('tools/call');
    expect(requestsOf(ring.list('w'), 'tools/call')).toHaveLength(1);
  });

  it('groups progress notifications under their request (2026-07-28 era)', async () => {
    const ring = new TraceRing();
    const client = newClient('auto');
    await client.connect(traceTransport(new ProcessTransport({ command: process.execPath, args: [fixture], env }), ring, { server: 'fx' }));
    // (The trace sees all three even when the SDK's onprogress does not: SDK 2.4.0 drops progress that arrives in
    // the same read as the response, on its own stdio transport too.)
    await client.callTool({ name: 'steps', arguments: { count: 3 } }, { onprogress: () => undefined });
    const entries = ring.list('fx');
    const [call] = requestsOf(entries, 'tools/call');
    if (!call) throw new Error('no tools/call');
    const progress = entries.filter((e) => msg(e).method === 'notifications/progress');
    expect(progress).toHaveLength(3);
    for (const p of progress) expect(p.groupOf).toBe(call.seq);
    expect(responseTo(entries, call)?.groupOf).toBeUndefined(); // a plain response: paired, no group of its own
  });

  it('groups an MRTR round (input_required, then the retried request) under the first request', async () => {
    const ring = new TraceRing();
    const client = newClient('auto', { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(traceTransport(new ProcessTransport({ command: process.execPath, args: [fixture], env }), ring, { server: 'fx' }));
    expect(client.getProtocolEra()).toBe('modern');
    const result = await client.callTool({ name: 'confirm', arguments: {} });
    expect(JSON.stringify(result.content)).toContain('confirmed');
    const entries = ring.list('fx');
    const calls = requestsOf(entries, 'tools/call');
    expect(calls).toHaveLength(2);
    const [first, retry] = calls as [TraceRecord, TraceRecord];
    expect(msg(first).id).not.toBe(msg(retry).id); // a fresh id per leg
    expect(msg(retry).params?.inputResponses).toBeDefined();
    expect(retry.groupOf).toBe(first.seq);
    const firstResponse = responseTo(entries, first);
    expect(firstResponse && msg(firstResponse).result?.resultType).toBe('input_required');
    expect(firstResponse?.groupOf).toBeUndefined(); // the first leg is the group's root
    const finalResponse = responseTo(entries, retry);
    expect(finalResponse?.groupOf).toBe(first.seq);
    expect(JSON.stringify(finalResponse?.message)).toContain('confirmed');
  });
});

describe('traceTransport with server-everything', () => {
  let http: Awaited<ReturnType<typeof startEverything>>;
  let sse: Awaited<ReturnType<typeof startEverything>>;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  });
  afterAll(async () => {
    await Promise.all([http?.stop(), sse?.stop()]);
  });

  it('works the same over legacy HTTP+SSE: the GET stream and each POST recorded with their status', async () => {
    const ring = new TraceRing();
    const inner = new SSEClientTransport(new URL(`http://127.0.0.1:${sse.port}/sse`), { fetch: tracingFetch(ring, 'legacy') });
    const client = newClient('auto');
    await client.connect(traceTransport(inner, ring, { server: 'legacy' }));
    expect(client.getProtocolEra()).toBe('legacy');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'over sse' } });
    expect(JSON.stringify(result.content)).toContain('over sse');
    // The answer comes on the stream and may beat the POST's own 202 back: wait for the exchange to be attached.
    await waitFor(() => requestsOf(ring.list('legacy'), 'tools/call')[0]?.http !== undefined, 10_000, 'the POST exchange');
    const entries = ring.list('legacy');
    const get = entries.find((e) => e.kind === 'http' && String((e.message as { http: string }).http).startsWith('GET'));
    expect(get?.http?.status).toBe(200);
    expect(get?.http?.headers?.['content-type']).toMatch(/text\/event-stream/);
    const [call] = requestsOf(entries, 'tools/call');
    expect(call?.http?.status).toBe(202);
    expect(JSON.stringify(responseTo(entries, call as TraceRecord)?.message)).toContain('over sse');
  });

  it('groups the long-running operation’s progress under its tools/call (stdio, legacy server)', async () => {
    const ring = new TraceRing();
    const client = newClient('auto');
    await client.connect(traceTransport(new ProcessTransport({ command: process.execPath, args: [everything, 'stdio'], env }), ring, { server: 'everything' }));
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } }, { onprogress: () => undefined });
    const entries = ring.list('everything');
    const [call] = requestsOf(entries, 'tools/call');
    const progress = entries.filter((e) => msg(e).method === 'notifications/progress');
    expect(progress).toHaveLength(2);
    for (const p of progress) expect(p.groupOf).toBe(call?.seq);
    expect(responseTo(entries, call as TraceRecord)?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('records HTTP status and Mcp-Session-Id over Streamable HTTP; sessionId and terminateSession work through it; secrets never stored', async () => {
    const secret = 'sk-test-0123456789abcdefSECRET';
    const ring = new TraceRing({ redactor: createRedactor({ secretValues: () => [secret] }) });
    const file = join(tempDir(), 'trace.jsonl');
    const sink = new JsonlTraceWriter(file, { redactor: createRedactor({ secretValues: () => [secret] }) });
    const recorder = teeRecorder(ring, sink);
    const inner = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
      fetch: tracingFetch(recorder, 'remote'),
    });
    const transport = traceTransport(inner, recorder, { server: 'remote' });
    const client = newClient('auto');
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { message: `the key is ${secret}` } });
    expect(JSON.stringify(result.content)).toContain(secret); // the client got it; the trace must not keep it

    const entries = ring.list('remote');
    const [init] = requestsOf(entries, 'initialize');
    if (!init) throw new Error('no initialize in the trace');
    const initResponse = responseTo(entries, init);
    expect(init.http?.status).toBe(200);
    expect(initResponse?.http?.status).toBe(200);
    const session = initResponse?.http?.headers?.['mcp-session-id'];
    expect(session).toBeTruthy();
    expect(transport.sessionId).toBe(session);
    expect(transport.sessionId).toBe(inner.sessionId);
    // Later exchanges carry the negotiated version header.
    const [call] = requestsOf(entries, 'tools/call');
    expect(call?.http?.headers?.['mcp-protocol-version']).toBe(client.getNegotiatedProtocolVersion());
    // The initialized notification's POST (202) is attached to it.
    const initialized = entries.find((e) => msg(e).method === 'notifications/initialized');
    expect(initialized?.http?.status).toBe(202);

    await transport.inner.terminateSession();
    expect(inner.sessionId).toBeUndefined();
    const del = ring.list('remote').find((e) => e.kind === 'http' && String((e.message as { http: string }).http).startsWith('DELETE'));
    expect(del?.http?.status).toBeLessThan(300);
    await client.close();
    sink.dispose();
    sink.dispose(); // idempotent

    const everythingStored = JSON.stringify(ring.list('remote'));
    expect(everythingStored).not.toContain(secret);
    expect(everythingStored).toContain('<redacted>');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['time', 'server', 'direction', 'message']);
      expect(line.server).toBe('remote');
      expect(['send', 'receive']).toContain(line.direction);
      expect(typeof line.time).toBe('string');
    }
    expect(lines.filter((l) => (l.message as { method?: string }).method === 'tools/call')).toHaveLength(1);
  });
});
