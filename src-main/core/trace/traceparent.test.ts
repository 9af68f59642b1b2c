// W3C trace context on the wire: a real stdio server (fixtures/traced-server.mjs, built on the SDK) reads
// `_meta.traceparent` off each request it gets, in both protocol eras. A direct call is a trace of its own; requests
// outside any call (the handshake, lists) get theirs; the protocol trace shows each request's trace id on it and on
// its response; a chat turn's calls share one trace id.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURE_ERAS, hostPerTest } from '../../test-support/features-fixture';
import { disposeHarnesses, harness } from '../../test-support/chat-harness';
import { say, sequence } from '../../test-support/fake-providers';
import { tempDir, waitFor } from '../../test-support/processes';
import type { ToolResult } from '../../../src-shared/host-api';
import type { TraceEntry } from '../../../src-shared/contract/trace';
import { parseTraceparent } from './trace-context';

export const tracedServer = join(import.meta.dirname, '..', 'fixtures', 'traced-server.mjs');
const traceparentShape = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;

/** What the fixture's `traced` tool saw in its call's `_meta`. */
function seen(result: ToolResult): { traceparent?: string; logLevel?: string } {
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as { traceparent?: string; logLevel?: string };
}

/** The fixture's `--record` file: one `[method, traceparent]` per request it received. */
function recorded(file: string): Array<[string, string]> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ') as [string, string]);
}

const { hostWith } = hostPerTest();
afterEach(disposeHarnesses);

describe.each(FEATURE_ERAS)('traceparent in _meta ($era)', ({ era, versionMode }) => {
  it('each direct call is a trace of its own; lists and the handshake get theirs; the trace shows the id', async () => {
    const record = join(tempDir('switchboard-traced-'), 'requests.txt');
    const host = await hostWith({ traced: { command: process.execPath, args: [tracedServer, `--record=${record}`] } }, { versionMode });
    if (era === 'modern') await host.api['logs:set-level']({ server: 'traced', level: 'debug' });

    const first = seen(await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {} }));
    const second = seen(await host.api['tools:call']({ server: 'traced', tool: 'traced', args: {}, callId: 'second-call' }));
    expect(first.traceparent).toMatch(traceparentShape);
    expect(second.traceparent).toMatch(traceparentShape);
    const a = parseTraceparent(first.traceparent);
    const b = parseTraceparent(second.traceparent);
    expect(a?.traceId).not.toBe(b?.traceId);
    // The log level still travels in `_meta` beside it on 2026-07-28 (the legacy era has setLevel instead).
    if (era === 'modern') expect(first.logLevel).toBe('debug');

    // The handshake and lists: each its own trace (not the calls').
    const requests = recorded(record);
    const others = requests.filter(([method]) => method !== 'tools/call');
    expect(others.length).toBeGreaterThan(0);
    for (const [, traceparent] of requests) expect(traceparent).toMatch(traceparentShape);
    const otherTraces = new Set(others.map(([, tp]) => parseTraceparent(tp)?.traceId));
    expect(otherTraces.has(a?.traceId)).toBe(false);
    expect(otherTraces.size).toBe(others.length);

    // The protocol trace: the call's request and its response carry the trace id the server saw.
    const entries = await host.api['trace:list']({ server: 'traced' });
    const sent = entries.find((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tools/call');
    expect(sent?.traceId).toBe(a?.traceId);
    const answer = entries.find((e) => e.pairedWith === sent?.seq);
    expect(answer?.traceId).toBe(a?.traceId);

    // The debug bundle carries it with each entry.
    const bundle = await host.api['debug:bundle']({});
    const written = JSON.parse(readFileSync(bundle.path, 'utf8')) as { traces: Record<string, TraceEntry[]> };
    const inBundle = (written.traces.traced ?? []).filter((e) => e.traceId === b?.traceId);
    expect(inBundle.map((e) => e.direction).sort()).toEqual(['receive', 'send']);
  });
});

describe('traceparent of a chat turn', () => {
  it('every tools/call of one turn shares the trace id, each its own span; the next turn has another', async () => {
    const h = await harness(
      'openai',
      sequence(
        {
          kind: 'stream',
          events: [{ toolCall: { id: 'c1', name: 'traced__traced', args: {} } }, { toolCall: { id: 'c2', name: 'traced__traced', args: {} } }],
        },
        say('done'),
        { kind: 'stream', events: [{ toolCall: { id: 'c3', name: 'traced__traced', args: {} } }] },
        say('again'),
      ),
      { servers: { traced: { command: process.execPath, args: [tracedServer] } } },
    );
    h.decide('always');
    const turn = await h.send('call it twice');
    const secondTurn = await h.send('once more', turn.conversationId);
    await waitFor(() => h.tools(secondTurn.runId).length === 1, 5000, 'the second turn’s call');
    const contexts = [...h.tools(turn.runId), ...h.tools(secondTurn.runId)].map((part) => parseTraceparent(seen(part.result as ToolResult).traceparent));
    expect(contexts).toHaveLength(3);
    const [c1, c2, c3] = contexts;
    expect(c1?.traceId).toBeDefined();
    expect(c1?.traceId).toBe(c2?.traceId);
    expect(c1?.spanId).not.toBe(c2?.spanId);
    expect(c3?.traceId).toBeDefined();
    expect(c3?.traceId).not.toBe(c1?.traceId);
  });
});
