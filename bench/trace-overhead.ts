/**
 * `traceOverheadRatio`: p50 tool-call latency with the protocol trace on (the transport wrapped by traceTransport,
 * recording into a TraceRing that redacts with a few known secret values) over the same with the trace off (the
 * transport not wrapped, which is what "off" means). The ring queues each message and does its work after the
 * turn, while the server works, so the latency it adds is the queueing plus whatever CPU the batch competes for. Real SDK clients over our ProcessTransport against the echo
 * server; two connections of each kind (four processes) so no one process's luck decides, all interleaved in one
 * run so that both sides see the same machine noise.
 *
 * Standalone: `node --import tsx bench/trace-overhead.ts [--quick]` prints one JSON line.
 */
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '../src-main/core/process/transport';
import { createRedactor } from '../src-main/core/trace/redact';
import { TraceRing } from '../src-main/core/trace/trace-ring';
import { traceTransport } from '../src-main/core/trace/tracing-transport';
import { echo, percentile, round } from './common';

export interface TraceOverheadResult {
  traceOverheadRatio: number;
  figures: {
    callP50Ms: { off: number; on: number };
    callP99Ms: { off: number; on: number };
    calls: number;
    /** CPU per message recorded (queueing, then redaction + pairing + ring in the batch), measured alone. */
    recordMicros: number;
    /** Entries the ring held at the end (bounded). */
    ringEntries: number;
  };
}

async function connect(ring: TraceRing | undefined, name: string): Promise<Client> {
  const client = new Client({ name: 'bench-trace', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const inner = new ProcessTransport({ command: process.execPath, args: [echo], env: { PATH: process.env.PATH ?? '' } });
  await client.connect(ring ? traceTransport(inner, ring, { server: name }) : inner);
  return client;
}

export async function measureTraceOverhead(options: { quick?: boolean } = {}): Promise<TraceOverheadResult> {
  const calls = options.quick ? 300 : 1500;
  const secrets = ['sk-bench-0123456789abcdef', 'another-secret-value-xyz', 'ghp_benchbenchbenchbench0000'];
  const ring = new TraceRing({ redactor: createRedactor({ secretValues: () => secrets }) });
  const clients = {
    off1: await connect(undefined, 'off1'),
    on1: await connect(ring, 'on1'),
    off2: await connect(undefined, 'off2'),
    on2: await connect(ring, 'on2'),
  };
  const samples: Record<'off' | 'on', number[]> = { off: [], on: [] };
  try {
    const args = { text: 'hello' };
    const entries = Object.entries(clients);
    for (let i = 0; i < 50; i++) for (const [, c] of entries) await c.callTool({ name: 'echo', arguments: args }); // warm-up
    for (let i = 0; i < calls; i++) {
      // Rotate the order each round so neither side always goes first.
      for (let k = 0; k < entries.length; k++) {
        const [key, client] = entries[(i + k) % entries.length] as [string, Client];
        const t = performance.now();
        await client.callTool({ name: 'echo', arguments: args });
        samples[key.startsWith('on') ? 'on' : 'off'].push(performance.now() - t);
      }
    }
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }

  // The recording alone, on a typical request/response pair.
  const solo = new TraceRing({ redactor: createRedactor({ secretValues: () => secrets }) });
  const n = 50_000;
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    solo.message('s', 'send', {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hello' }, _meta: { progressToken: i } },
    });
    solo.message('s', 'receive', { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: 'hello' }] } });
    if (i % 100 === 99) solo.flush(); // the batch work, as after each turn of the event loop
  }
  solo.flush();
  const recordMicros = ((performance.now() - t) * 1000) / (2 * n);
  const ringEntries = ring.list('on1').length;
  ring.dispose();
  solo.dispose();

  return {
    traceOverheadRatio: round(percentile(samples.on, 50) / percentile(samples.off, 50)),
    figures: {
      callP50Ms: { off: round(percentile(samples.off, 50)), on: round(percentile(samples.on, 50)) },
      callP99Ms: { off: round(percentile(samples.off, 99)), on: round(percentile(samples.on, 99)) },
      calls: samples.on.length,
      recordMicros: round(recordMicros, 2),
      ringEntries,
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  measureTraceOverhead({ quick: process.argv.includes('--quick') }).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`trace-overhead failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
