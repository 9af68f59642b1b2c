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
import { echo, hostWith, threadCpuUs } from './common';

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

type Envelope = 'none' | 'switchboard' | 'elicitationOnly';

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const round = (n: number, digits = 3): number => Number(n.toFixed(digits));

/** One echo server spoken to in raw JSON-RPC lines, every request carrying the same envelope. */
class RawEchoClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, () => void>();
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
      const id = (JSON.parse(line) as { id?: unknown; error?: { message?: string } }).id;
      if (typeof id === 'number') {
        this.waiting.get(id)?.();
        this.waiting.delete(id);
      }
      end = this.buffered.indexOf('\n');
    }
  }

  call(text: string): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: this.meta } })}\n`);
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

/** Checks that the server answers a request with this envelope with a result (not an error), once. */
async function answered(capabilities: Record<string, unknown>): Promise<void> {
  const child = spawn(process.execPath, [echo], { stdio: ['pipe', 'pipe', 'ignore'] });
  const line = await new Promise<string>((resolve) => {
    child.stdout.setEncoding('utf8');
    let got = '';
    child.stdout.on('data', (chunk: string) => {
      got += chunk;
      if (got.includes('\n')) resolve(got.slice(0, got.indexOf('\n')));
    });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'ok' }, _meta: meta } })}\n`);
  });
  child.stdin.end();
  const message = JSON.parse(line) as { result?: { content?: Array<{ text?: string }> }; error?: { message?: string } };
  if (message.result?.content?.[0]?.text !== 'ok') throw new Error(`the echo server did not answer a raw 2026-07-28 call: ${line}`);
}

export async function measureServerEnvelope(options: { quick?: boolean; capabilities: Record<string, unknown> }): Promise<ServerEnvelopeResult> {
  const calls = options.quick ? 300 : 2000;
  const pipelined = options.quick ? 500 : 2000;
  const envelopes: Record<Envelope, Record<string, unknown>> = {
    none: {},
    switchboard: options.capabilities,
    elicitationOnly: 'elicitation' in options.capabilities ? { elicitation: options.capabilities.elicitation } : {},
  };
  for (const capabilities of Object.values(envelopes)) await answered(capabilities);
  const names = Object.keys(envelopes) as Envelope[];
  const clients = Object.fromEntries(names.map((k) => [k, new RawEchoClient(envelopes[k])])) as Record<Envelope, RawEchoClient>;
  try {
    for (let i = 0; i < 200; i++) for (const k of names) await clients[k].call('warm');
    const samples = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Envelope, number[]>;
    for (let i = 0; i < calls; i++) {
      const order = names.map((_, j) => names[(i + j) % names.length] as Envelope);
      for (const k of order) {
        const t = performance.now();
        await clients[k].call('hello');
        samples[k].push(performance.now() - t);
      }
    }
    const tp = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Envelope, number[]>;
    const cpu = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Envelope, number[]>;
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
      callP50Ms: { none: round(p50('none')), switchboard: round(p50('switchboard')), elicitationOnly: round(p50('elicitationOnly')) },
      callsPerSec: { none: Math.round(perSec('none')), switchboard: Math.round(perSec('switchboard')), elicitationOnly: Math.round(perSec('elicitationOnly')) },
      serverCpuUsPerCall: { none: round(percentile(cpu.none, 50), 1), switchboard: round(percentile(cpu.switchboard, 50), 1), elicitationOnly: round(percentile(cpu.elicitationOnly, 50), 1) },
      calls,
    };
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }
}

/** The client capabilities the core's client sends on 2026-07-28, as the echo server reports them. */
export async function coreCapabilities(): Promise<Record<string, unknown>> {
  const host = await hostWith({ echo: { command: process.execPath, args: [echo] } });
  try {
    await host.settled();
    const declared = await host.api['tools:call']({ server: 'echo', tool: 'client-capabilities', args: {} });
    return JSON.parse(declared.content[0]?.type === 'text' ? declared.content[0].text : '{}') as Record<string, unknown>;
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
