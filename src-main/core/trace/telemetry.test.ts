// Span export over OTLP/HTTP (JSON) to a real loopback collector: the spans of a direct call and of a chat turn, their
// shared trace ids, the traceparent the server received naming the exported span, the headers sent, redaction, and
// nothing at all sent while the setting is off.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostPerTest } from '../../test-support/features-fixture';
import { disposeHarnesses, harness } from '../../test-support/chat-harness';
import { say, sequence } from '../../test-support/fake-providers';
import type { ToolResult } from '../../../src-shared/host-api';
import { createRedactor } from './redact';
import { Telemetry } from './telemetry';
import { parseTraceparent } from './trace-context';

const tracedServer = join(import.meta.dirname, '..', 'fixtures', 'traced-server.mjs');

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
}
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpBody {
  resourceSpans: Array<{ resource?: { attributes: Array<{ key: string; value: OtlpValue }> }; scopeSpans: Array<{ spans: ExportedSpan[] }> }>;
}

/** A loopback OTLP/HTTP collector that keeps what it is sent (JSON bodies and their headers). */
async function collector(): Promise<{
  url: string;
  posts: Array<{ headers: IncomingHttpHeaders; body: OtlpBody }>;
  spans(): ExportedSpan[];
  close(): Promise<void>;
}> {
  const posts: Array<{ headers: IncomingHttpHeaders; body: OtlpBody }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    posts,
    spans: () => posts.flatMap((p) => p.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function attribute(span: ExportedSpan | undefined, key: string): string | number | undefined {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.doubleValue);
}

function seenTraceparent(result: ToolResult): string | undefined {
  const first = result.content[0];
  return (JSON.parse(first?.type === 'text' ? first.text : '{}') as { traceparent?: string }).traceparent;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await disposeHarnesses();
  for (const close of closers.splice(0)) await close();
});
const { hostWith } = hostPerTest();

async function started(): Promise<Awaited<ReturnType<typeof collector>>> {
  const c = await collector();
  closers.push(c.close);
  return c;
}

describe('span export (OTLP/HTTP JSON)', () => {
  it('a direct call: its span and its request span, named by the traceparent the server received', async () => {
    const otlp = await started();
    const host = await hostWith({ traced: { command: process.execPath, args: [tracedServer] } });
    await host.api['settings:update']({ telemetry: { enabled: true, endpoint: otlp.url, headers: { 'x-collector-key': 'k-123' } } });
    await host.telemetry.flush();
    expect(host.telemetry.exporting).toBe(true);

    const traceparent = seenTraceparent(await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {} }));
    await host.api['tools:call']({ server: 'traced', tool: 'fail', args: {} });
    await host.telemetry.flush();

    const sent = parseTraceparent(traceparent);
    const spans = otlp.spans();
    const request = spans.find((s) => s.spanId === sent?.spanId);
    expect(request?.name).toBe('tools/call traced.traced');
    expect(request?.traceId).toBe(sent?.traceId);
    expect(attribute(request, 'switchboard.server')).toBe('traced');
    expect(attribute(request, 'mcp.method.name')).toBe('tools/call');
    expect(attribute(request, 'gen_ai.tool.name')).toBe('traced');
    expect(attribute(request, 'switchboard.outcome')).toBe('ok');
    expect(typeof attribute(request, 'switchboard.duration_ms')).toBe('number');
    const call = spans.find((s) => s.spanId === request?.parentSpanId);
    expect(call?.name).toBe('direct call traced.traced');
    expect(call?.traceId).toBe(sent?.traceId);
    expect(attribute(call, 'switchboard.kind')).toBe('direct-call');

    const failed = spans.find((s) => s.name === 'tools/call traced.fail');
    expect(attribute(failed, 'switchboard.outcome')).toBe('tool-error');
    expect(failed?.traceId).not.toBe(sent?.traceId);
    expect(otlp.posts[0]?.headers['x-collector-key']).toBe('k-123');
    expect(otlp.posts[0]?.headers['content-type']).toContain('application/json');
    const resource = otlp.posts[0]?.body.resourceSpans[0]?.resource?.attributes.find((a) => a.key === 'service.name');
    expect(resource?.value.stringValue).toBe('switchboard');
  });

  it('a chat turn: one trace, the turn span the parent of each tools/call span', async () => {
    const otlp = await started();
    const h = await harness(
      'openai',
      sequence(
        {
          kind: 'stream',
          events: [{ toolCall: { id: 'c1', name: 'traced__traced', args: {} } }, { toolCall: { id: 'c2', name: 'traced__traced', args: {} } }],
        },
        say('done'),
      ),
      { servers: { traced: { command: process.execPath, args: [tracedServer] } } },
    );
    h.decide('always');
    await h.host.api['settings:update']({ telemetry: { enabled: true, endpoint: otlp.url, headers: {} } });
    await h.host.telemetry.flush();
    const turn = await h.send('twice');
    await h.host.telemetry.flush();

    const received = h.tools(turn.runId).map((part) => parseTraceparent(seenTraceparent(part.result as ToolResult)));
    expect(received).toHaveLength(2);
    const spans = otlp.spans();
    const turnSpan = spans.find((s) => s.name === 'chat turn');
    expect(turnSpan).toBeDefined();
    expect(attribute(turnSpan, 'switchboard.outcome')).toBe('ok');
    for (const sent of received) {
      expect(sent?.traceId).toBe(turnSpan?.traceId);
      const request = spans.find((s) => s.spanId === sent?.spanId);
      expect(request?.name).toBe('tools/call traced.traced');
      expect(request?.parentSpanId).toBe(turnSpan?.spanId);
    }
  });

  it('off (the default): nothing is sent; switched off again, nothing more', async () => {
    const otlp = await started();
    const host = await hostWith({ traced: { command: process.execPath, args: [tracedServer] } });
    await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {} });
    await host.telemetry.flush();
    expect(host.telemetry.exporting).toBe(false);
    expect(otlp.posts).toHaveLength(0);

    await host.api['settings:update']({ telemetry: { enabled: true, endpoint: otlp.url, headers: {} } });
    await host.telemetry.flush();
    await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {} });
    await host.api['settings:update']({ telemetry: { enabled: false, endpoint: otlp.url, headers: {} } });
    await host.telemetry.flush();
    const whileOn = otlp.spans().length;
    expect(whileOn).toBeGreaterThan(0);
    await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {} });
    await host.telemetry.flush();
    expect(otlp.spans().length).toBe(whileOn);
    expect(host.telemetry.exporting).toBe(false);
  });

  it('never puts a known secret into a span', async () => {
    const otlp = await started();
    const telemetry = new Telemetry({ redactor: createRedactor({ secretValues: () => ['hunter2-secret-value'] }) });
    await telemetry.configure({ enabled: true, endpoint: otlp.url, headers: {} });
    telemetry.requestSpans('srv-hunter2-secret-value')('tools/call', { name: 'lookup' })?.end('ok');
    await telemetry.dispose();
    const text = JSON.stringify(otlp.posts.map((p) => p.body));
    expect(text).toContain('tools/call');
    expect(text).not.toContain('hunter2-secret-value');
  });
});

describe('the telemetry setting', () => {
  it('is refused without an http(s) endpoint when on', async () => {
    const host = await hostWith({});
    await expect(host.api['settings:update']({ telemetry: { enabled: true, endpoint: 'localhost:4318', headers: {} } })).rejects.toThrow(/endpoint/);
    const view = await host.api['settings:update']({ telemetry: { enabled: false, endpoint: '', headers: {} } });
    expect(view.telemetry).toEqual({ enabled: false, endpoint: '', headers: {} });
  });
});
