/**
 * The stdio reader under abuse, each measured in a fresh process (`node --import tsx bench/stdio-limits.ts PHASE`
 * prints one JSON line; `measureStdioLimits()` runs both phases for `npm run bench`):
 *
 * - `big-line`: a server writes one 50 MB non-JSON line, then behaves. Time from start to ready (the host must read
 *   past the line), and the host's peak RSS and JS-heap growth while it does. The per-message limit (16 MiB) means
 *   the line is dropped as it streams, never held.
 * - `drain`: a server floods 10⁶ `notifications/message` through the host while a bridge client (the headless
 *   WebSocket, as the browser UI uses it) asks `servers:list` every 20 ms. The longest event-loop stall
 *   (`perf_hooks.monitorEventLoopDelay`) and the slowest bridge round trip during the drain.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import WebSocket from 'ws';
import { startHeadless } from '../src-main/headless/server';
import { tempDir } from '../src-main/test-support/processes';
import { hostWith, round } from './common';

const edge = join(import.meta.dirname, '..', 'src-main', 'core', 'fixtures', 'edge-server.mjs');

export interface StdioLimitsResult {
  bigLineMs: number;
  /** Peak growth of the host's RSS while it reads past the line. */
  bigLineMB: number;
  /** Peak growth of the host's JS heap meanwhile. */
  bigLineHeapMB: number;
  /** Time to ready of the same server without the big line (context for bigLineMs). */
  plainStartMs: number;
  notificationDrainStallMs: number;
  notificationDrain: {
    notifications: number;
    drainMs: number;
    perSecond: number;
    /** p99 of the event-loop delay during the drain. */
    stallP99Ms: number;
    /** CPU time of this process (all its threads) during its longest stall: how much of it was ours; the rest is the machine (shared cores). */
    longestStallCpuMs: number;
    /** The longest event-loop stall while idle (host connected, nothing flowing) just before: the machine's noise. */
    idleStallMs: number;
    bridgeMaxRoundTripMs: number;
    bridgeRoundTrips: number;
  };
}

async function bigLine(): Promise<Pick<StdioLimitsResult, 'bigLineMs' | 'plainStartMs' | 'bigLineMB' | 'bigLineHeapMB'>> {
  const timeToReady = async (args: string[]): Promise<number> => {
    const host = await hostWith({ edge: { command: process.execPath, args: [edge, ...args], disabled: true } }, { startTimeoutMs: 120_000 });
    const t = performance.now();
    await host.fleet.get('edge').start();
    const elapsed = performance.now() - t;
    const [view] = await host.api['servers:list']();
    await host.dispose();
    if (view?.status !== 'ready') throw new Error(`edge server not ready: ${view?.error ?? view?.status ?? 'missing'}`);
    return elapsed;
  };
  await timeToReady([]); // warm-up: modules loaded before the baseline
  const plainStartMs = await timeToReady([]);
  const rss0 = process.memoryUsage().rss;
  const heap0 = getHeapStatistics().used_heap_size;
  let rssPeak = rss0;
  let heapPeak = heap0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
  }, 5);
  const bigLineMs = await timeToReady(['--big-line-mb=50']);
  clearInterval(sampler);
  return {
    bigLineMs: Math.round(bigLineMs),
    plainStartMs: Math.round(plainStartMs),
    bigLineMB: round((rssPeak - rss0) / 2 ** 20, 1),
    bigLineHeapMB: round((heapPeak - heap0) / 2 ** 20, 1),
  };
}

async function drain(count: number): Promise<Pick<StdioLimitsResult, 'notificationDrainStallMs' | 'notificationDrain'>> {
  const host = await hostWith({ edge: { command: process.execPath, args: [edge] } });
  await host.settled();
  const headless = await startHeadless({ api: host.api, rendererDir: tempDir('switchboard-bench-ui-') });
  const u = new URL(headless.url);
  const ws = new WebSocket(`ws://${u.host}/bridge?token=${u.searchParams.get('token') ?? ''}`, { headers: { origin: u.origin } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, () => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { kind?: string; id?: number };
    if (message.kind === 'response' && message.id !== undefined) waiting.get(message.id)?.();
  });
  const roundTrip = (): Promise<number> =>
    new Promise((resolve) => {
      const id = next++;
      const t = performance.now();
      waiting.set(id, () => {
        waiting.delete(id);
        resolve(performance.now() - t);
      });
      ws.send(JSON.stringify({ id, channel: 'servers:list', args: [] }));
    });
  await roundTrip();
  let draining = true;
  let bridgeMax = 0;
  let trips = 0;
  const prober = (async () => {
    while (draining) {
      bridgeMax = Math.max(bridgeMax, await roundTrip());
      trips++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await new Promise((r) => setTimeout(r, 2000));
  idle.disable();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // A 2 ms ticker that notes, for the longest gap between its ticks, how much CPU this process used meanwhile.
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let longest = { wallMs: 0, cpuMs: 0 };
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    if (now - last > longest.wallMs) longest = { wallMs: now - last, cpuMs: (cpu.user + cpu.system) / 1000 };
    last = now;
    lastCpu = process.cpuUsage();
  }, 2);
  const t = performance.now();
  await host.api['tools:call']({ server: 'edge', tool: 'flood', args: { count } });
  const drainMs = performance.now() - t;
  loop.disable();
  clearInterval(ticker);
  draining = false;
  await prober;
  ws.close();
  await headless.dispose();
  await host.dispose();
  return {
    notificationDrainStallMs: round(loop.max / 1e6, 1),
    notificationDrain: {
      notifications: count,
      drainMs: Math.round(drainMs),
      perSecond: Math.round(count / (drainMs / 1000)),
      stallP99Ms: round(loop.percentile(99) / 1e6, 1),
      longestStallCpuMs: round(longest.cpuMs, 1),
      idleStallMs: round(idle.max / 1e6, 1),
      bridgeMaxRoundTripMs: round(bridgeMax, 1),
      bridgeRoundTrips: trips,
    },
  };
}

function inFreshProcess<T>(phase: string, extra: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'stdio-limits.ts'), phase, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/stdio-limits.ts ${phase} failed (${code}): ${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T);
    });
  });
}

/** Both phases, each in a fresh process (so neither sees the other's, or the caller's, heap and allocator). */
export async function measureStdioLimits(options: { quick?: boolean } = {}): Promise<StdioLimitsResult> {
  const big = await inFreshProcess<Awaited<ReturnType<typeof bigLine>>>('big-line');
  const flood = await inFreshProcess<Awaited<ReturnType<typeof drain>>>('drain', [String(options.quick ? 100_000 : 1_000_000)]);
  return { ...big, ...flood };
}

const phase = process.argv[2];
if (import.meta.filename === process.argv[1] && (phase === 'big-line' || phase === 'drain')) {
  const work = phase === 'big-line' ? bigLine() : drain(Number(process.argv[3] ?? 1_000_000));
  work.then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
