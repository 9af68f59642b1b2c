/**
 * What a 2026-07-28 request's client capabilities cost the server, with no client library in the way: a minimal
 * JSON-RPC line client (this file's, a few lines) sends the same `tools/call` to the echo server (the SDK's
 * McpServer), with `_meta` envelopes that differ only in `io.modelcontextprotocol/clientCapabilities`: none (`{}`,
 * what a bare SDK client declares), Switchboard's (as the echo server reported them for the core's client), and
 * Switchboard's elicitation capability alone. One server process per envelope, serial calls interleaved (order
 * rotated) and pipelined rounds in ABBA order, so that all see the same machine noise; each server's main-thread CPU
 * per pipelined call too. The ratios are the server's alone: the core's `callLatencyRatio` and `throughputRatio`
 * are measured against a bare client declaring no capabilities, so they include them.
 *
 * Standalone: `node --import tsx bench/server-envelope.ts [--quick]` prints one JSON line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { declaredCapabilities, echo, hostWith, percentile, round, threadCpuUs } from './common';

export interface ServerEnvelopeResult {
  /** p50 ÷ p50 with no capabilities, serial calls. */
  latencyRatio: { switchboard: number; elicitationOnly: number };
  /** Pipelined calls/s ÷ the same with no capabilities. */
  throughputRatio: { switchboard: number; elicitationOnly: number };
  callP50Ms: Record<Envelope, number>;
  callsPerSec: Record<Envelope, number>;
  /** The echo server's main-thread CPU per pipelined call (Linux; NaN elsewhere). */
  serverCpuUsPerCall: Record<Envelope, number>;
  calls: number;
}

const envelopeNames = ['none', 'switchboard', 'elicitationOnly'] as const;
type Envelope = (typeof envelopeNames)[number];
/** One value per envelope. */
const byEnvelope = <T>(value: (k: Envelope) => T): Record<Envelope, T> => Object.fromEntries(envelopeNames.map((k) => [k, value(k)])) as Record<Envelope, T>;

/** What the echo server answered: its result (an echo's text content), or its error. */
interface RawAnswer {
  result?: { content?: Array<{ text?: string }> };
  error?: { message?: string };
}

/** One echo server spoken to in raw JSON-RPC lines, every request carrying the same envelope. */
class RawEchoClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (answer: RawAnswer) => void>();
  private buffered = '';
  private nextId = 1;
  private readonly meta: Record<string, unknown>;

  constructor(capabilities: Record<string, unknown>) {
    this.meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    this.child = spawn(process.execPath, [echo], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    let end = this.buffered.indexOf('\n');
    while (end >= 0) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const answer = JSON.parse(line) as RawAnswer & { id?: unknown };
      if (typeof answer.id === 'number') {
        this.waiting.get(answer.id)?.(answer);
        this.waiting.delete(answer.id);
      }
      end = this.buffered.indexOf('\n');
    }
  }

  call(text: string): Promise<RawAnswer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: this.meta } })}\n`,
      );
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

export async function measureServerEnvelope(options: { quick?: boolean; capabilities: Record<string, unknown> }): Promise<ServerEnvelopeResult> {
  const calls = options.quick ? 300 : 2000;
  const pipelined = options.quick ? 500 : 2000;
  const envelopes: Record<Envelope, Record<string, unknown>> = {
    none: {},
    switchboard: options.capabilities,
    elicitationOnly: 'elicitation' in options.capabilities ? { elicitation: options.capabilities.elicitation } : {},
  };
  const names = envelopeNames;
  const clients = byEnvelope((k) => new RawEchoClient(envelopes[k]));
  try {
    // Each envelope is answered with a result, not refused.
    for (const k of names) {
      const answer = await clients[k].call('ok');
      if (answer.result?.content?.[0]?.text !== 'ok') throw new Error(`the echo server did not answer a raw 2026-07-28 call (${k}): ${JSON.stringify(answer)}`);
    }
    for (let i = 0; i < 200; i++) for (const k of names) await clients[k].call('warm');
    const samples = byEnvelope((): number[] => []);
    for (let i = 0; i < calls; i++) {
      const order = names.map((_, j) => names[(i + j) % names.length] ?? 'none');
      for (const k of order) {
        const t = performance.now();
        await clients[k].call('hello');
        samples[k].push(performance.now() - t);
      }
    }
    const tp = byEnvelope((): number[] => []);
    const cpu = byEnvelope((): number[] => []);
    for (let r = 0; r < 3; r++) {
      for (const k of [...names, ...[...names].reverse()]) {
        const before = threadCpuUs(clients[k].pid);
        const t = performance.now();
        await Promise.all(Array.from({ length: pipelined }, (_, i) => clients[k].call(`t${i}`)));
        tp[k].push(pipelined / ((performance.now() - t) / 1000));
        cpu[k].push((threadCpuUs(clients[k].pid) - before) / pipelined);
      }
    }
    const p50 = (k: Envelope): number => percentile(samples[k], 50);
    const perSec = (k: Envelope): number => percentile(tp[k], 50);
    return {
      latencyRatio: { switchboard: round(p50('switchboard') / p50('none')), elicitationOnly: round(p50('elicitationOnly') / p50('none')) },
      throughputRatio: { switchboard: round(perSec('switchboard') / perSec('none')), elicitationOnly: round(perSec('elicitationOnly') / perSec('none')) },
      callP50Ms: byEnvelope((k) => round(p50(k))),
      callsPerSec: byEnvelope((k) => Math.round(perSec(k))),
      serverCpuUsPerCall: byEnvelope((k) => round(percentile(cpu[k], 50), 1)),
      calls,
    };
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }
}

/** The client capabilities the core's client sends on 2026-07-28, as the echo server reports them. */
async function coreCapabilities(): Promise<Record<string, unknown>> {
  const host = await hostWith({ echo: { command: process.execPath, args: [echo] } });
  try {
    await host.settled();
    return await declaredCapabilities(host);
  } finally {
    await host.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  coreCapabilities()
    .then((capabilities) => measureServerEnvelope({ quick: process.argv.includes('--quick'), capabilities }))
    .then(
      (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
}
