/**
 * `npm run bench` — Switchboard's core measured side by side with the bare SDK, in one run, against the same
 * trivial echo server. Prints ratios (the targets are about ratios, since these machines are shared and noisy)
 * and absolute figures. `npm run -s bench -- --json` prints one JSON object; `-- --calls` measures the calls alone.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, LOG_LEVEL_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SupervisionPolicy } from '../src-main/core/servers/policy';
import { startHeadless } from '../src-main/headless/server';
import { openBridge } from '../src-main/test-support/bridge-client';
import { tempDir } from '../src-main/test-support/processes';
import { declaredCapabilities, declaredLogLevel, echo, hostWith, percentile, round, threadCpuUs } from './common';
import { measureRender } from './render';
import { measureApps, type AppsFigures } from './apps';
import { measureStdioLimits } from './stdio-limits';
import { measureBridgeFanout } from './bridge-fanout';
import { measureListChanged } from './list-changed';
import { measureTraceOverhead } from './trace-overhead';
import { measureCliStartup } from './cli-startup';
import { measureServerEnvelope } from './server-envelope';
import { measureToolSearch } from './tool-search';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
/** `--calls`: only the call latency and throughput figures (section 1), to compare changes on the call path quickly. */
const callsOnly = process.argv.includes('--calls');
/** `--apps`: only the MCP Apps figures (appFirstRenderMs, appToolCallAddedMs; bench/apps.ts). */
const appsOnly = process.argv.includes('--apps');
const serial = quick ? 100 : 500;
const pipelined = quick ? 500 : 2000;
const fleet = 20;
const log = (line: string): void => {
  if (!json) process.stdout.write(`${line}\n`);
};

/**
 * A bare SDK client of its own echo server; `serverPid` is that server's. `ownSession`: the server runs in a session
 * of its own (setsid(1), which execs it in place), as Switchboard's servers do (spawned detached, so that their whole
 * process tree can be ended); on Linux with autogroup scheduling that also puts it in a scheduling group of its own.
 */
async function bareClient(capabilities: ClientCapabilities = {}, ownSession = false): Promise<Client & { serverPid: number | undefined }> {
  const client = new Client({ name: 'bench-bare', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities });
  const launch = ownSession ? { command: 'setsid', args: [process.execPath, echo] } : { command: process.execPath, args: [echo] };
  const transport = new StdioClientTransport({ ...launch, stderr: 'ignore' });
  await client.connect(transport);
  return Object.assign(client, { serverPid: transport.pid ?? undefined });
}

/** Whether setsid(1) is there to run a bare client's server in a session of its own. */
function hasSetsid(): boolean {
  return process.platform === 'linux' && spawnSync('setsid', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Times `n` sequential calls of each function, interleaved (order rotated) so that all see the same machine noise. */
async function interleaved(fns: Record<string, () => Promise<unknown>>, n: number): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const fn of Object.values(fns)) for (let i = 0; i < 20; i++) await fn(); // warm-up
  const entries = Object.entries(fns);
  for (let i = 0; i < n; i++) {
    // Rotated each round: a call right after another process's call is slower (that process was just scheduled),
    // so a fixed order would charge that to whichever side always comes second.
    for (let k = 0; k < entries.length; k++) {
      const [name, fn] = entries[(i + k) % entries.length] as [string, () => Promise<unknown>];
      const t = performance.now();
      await fn();
      samples[name]?.push(performance.now() - t);
    }
  }
  return samples;
}

async function throughput(call: (i: number) => Promise<unknown>, n: number): Promise<number> {
  const t = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  return n / ((performance.now() - t) / 1000);
}

async function timeToReady(servers: number, parallel: boolean, policy: Partial<SupervisionPolicy> = {}, dataDir?: string, script = echo): Promise<number> {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < servers; i++) entries[`e${i}`] = { command: process.execPath, args: [script, `--n=${i}`], disabled: true };
  const host = await hostWith(entries, policy, dataDir);
  const names = Object.keys(entries);
  const t = performance.now();
  if (parallel) await Promise.all(names.map((n) => host.fleet.get(n).start()));
  else for (const n of names) await host.fleet.get(n).start();
  const elapsed = performance.now() - t;
  const views = await host.api['servers:list']();
  if (views.some((v) => v.status !== 'ready')) throw new Error(`not all ready: ${JSON.stringify(views.map((v) => [v.name, v.status, v.error]))}`);
  await host.dispose();
  return elapsed;
}

/** The MCP Apps figures, printed (or as JSON) against their targets. */
function reportApps(apps: AppsFigures): void {
  log(
    `apps          first render (Enter on /get-time → ui/notifications/initialized, warm) ${apps.appFirstRenderMs} ms (runs ${apps.figures.firstRenderRunsMs.join(' / ')} ms, the first cold; warm steps: frame in the card ${apps.figures.firstRenderStepsMs.appView}, sandbox-proxy-ready ${apps.figures.firstRenderStepsMs.proxyReady}, ui/initialize ${apps.figures.firstRenderStepsMs.appInitialize} ms; the app alone, srcdoc → ui/initialize ${apps.figures.appAloneToInitializeMs} ms); tools/call from the app p50 ${apps.figures.callP50Ms.app} ms vs direct ${apps.figures.callP50Ms.direct} ms: +${apps.appToolCallAddedMs} ms over ${apps.figures.calls} calls each`,
  );
}

async function main(): Promise<void> {
  if (appsOnly) {
    const apps = await measureApps({ quick, log });
    if (json) {
      process.stdout.write(`${JSON.stringify(apps)}\n`);
      return;
    }
    reportApps(apps);
    log(`appFirstRenderMs      ${apps.appFirstRenderMs}  (target ≤ 300) ${apps.appFirstRenderMs <= 300 ? 'ok' : 'MISSED'}`);
    log(`appToolCallAddedMs    ${apps.appToolCallAddedMs}  (target ≤ 5) ${apps.appToolCallAddedMs <= 5 ? 'ok' : 'MISSED'}`);
    return;
  }
  log(`Switchboard benchmark — ${quick ? 'quick' : 'full'} run, Node ${process.version}, ${serial} serial calls, ${pipelined} pipelined`);

  // 1. Call latency and throughput: core vs bare SDK, same echo server, interleaved.
  const host = await hostWith({ echo: { command: process.execPath, args: [echo] } });
  await host.settled();
  const bare = await bareClient();
  const noProgressCb = (): void => undefined;
  // A bare SDK client declaring the client capabilities Switchboard declares (the echo server reports them), the
  // MCP Apps extension (`extensions["io.modelcontextprotocol/ui"]`) included: like for like, whatever the core adds.
  const capabilities = await declaredCapabilities(host);
  if (!JSON.stringify(capabilities).includes('io.modelcontextprotocol/ui'))
    throw new Error('bench: the echo server did not see the MCP Apps extension among the core client capabilities');
  const bareSame = await bareClient(capabilities as ClientCapabilities);
  // And the log level the core asks for in every 2026-07-28 request's `_meta` (its servers send log messages only for
  // requests that carry one), as a bare client asks for it: in the call's own `_meta`.
  const logLevel = await declaredLogLevel(host);
  const sameMeta = logLevel !== undefined ? { _meta: { [LOG_LEVEL_META_KEY]: logLevel } } : {};
  const headless = await startHeadless({ api: host.api, rendererDir: tempDir('switchboard-bench-ui-') });
  const bridge = await openBridge(headless.url);
  const args = { text: 'hello' };
  const latency = await interleaved(
    {
      bare: () => bare.callTool({ name: 'echo', arguments: args }),
      bareSame: () => bareSame.callTool({ name: 'echo', arguments: args, ...sameMeta }, { onprogress: noProgressCb, resetTimeoutOnProgress: true }),
      core: () => host.api['tools:call']({ server: 'echo', tool: 'echo', args }),
      bridge: () => bridge.call('tools:call', [{ server: 'echo', tool: 'echo', args }]),
    },
    serial,
  );
  const p50 = (k: string): number => percentile(latency[k] ?? [], 50);
  const p99 = (k: string): number => percentile(latency[k] ?? [], 99);
  // Alternate bare and core over several rounds (ABBA order) and keep each side's median round. A third side for
  // context, like for like: a bare SDK client that declares the client capabilities Switchboard declares on the
  // connection's era (sampling, elicitation, roots, the tasks extension: on 2026-07-28 they travel in every request's
  // `_meta`, which the client serializes and the server parses and validates each time) and asks for the same per-call
  // options (a progress token, so that a long tool's progress resets its timeout; the log level in `_meta`). The echo
  // server reports the capabilities and the log level the core's client sent. Two more split that side's cost in two: the same client without the per-call
  // options (the capabilities alone), and the bare client with them (the options alone).
  // Host CPU per call (this process only: the echo servers are children) is measured for each side, and so is each
  // side's echo server's (its main thread's CPU time): pipelined, the server is the bottleneck.
  const ownSession = hasSetsid() ? await bareClient({}, true) : undefined;
  // `bareBeside`: the bare client again, in the own-session rounds, so that the headline bare figure keeps its ABBA
  // rounds beside the core's and the own-session one is compared with its own neighbours.
  const sideNames = ['bare', 'bareProgress', 'core', 'capabilitiesOnly', 'progressOnly', 'ownSession', 'bareBeside'] as const;
  type Side = (typeof sideNames)[number];
  const rounds = Object.fromEntries(sideNames.map((k) => [k, { tp: [] as number[], cpu: [] as number[], serverCpu: [] as number[] }])) as Record<
    Side,
    { tp: number[]; cpu: number[]; serverCpu: number[] }
  >;
  const noProgress = (): void => undefined;
  const corePid = (await host.api['servers:list']()).find((v) => v.name === 'echo')?.pid;
  const serverPids: Record<Side, number | undefined> = {
    bare: bare.serverPid,
    bareProgress: bareSame.serverPid,
    core: corePid,
    capabilitiesOnly: bareSame.serverPid,
    progressOnly: bare.serverPid,
    ownSession: ownSession?.serverPid,
    bareBeside: bare.serverPid,
  };
  const callBare = (i: number): Promise<unknown> => bare.callTool({ name: 'echo', arguments: { text: `t${i}` } });
  const sides: Record<Side, (i: number) => Promise<unknown>> = {
    bare: callBare,
    bareProgress: (i) =>
      bareSame.callTool({ name: 'echo', arguments: { text: `t${i}` }, ...sameMeta }, { onprogress: noProgress, resetTimeoutOnProgress: true }),
    core: (i) => host.api['tools:call']({ server: 'echo', tool: 'echo', args: { text: `t${i}` } }),
    capabilitiesOnly: (i) => bareSame.callTool({ name: 'echo', arguments: { text: `t${i}` } }),
    ownSession: (i) => (ownSession ?? bare).callTool({ name: 'echo', arguments: { text: `t${i}` } }),
    bareBeside: callBare,
    progressOnly: (i) => bare.callTool({ name: 'echo', arguments: { text: `t${i}` } }, { onprogress: noProgress, resetTimeoutOnProgress: true }),
  };
  const run = async (side: Side): Promise<void> => {
    const cpu = process.cpuUsage();
    const serverCpu = threadCpuUs(serverPids[side]);
    rounds[side].tp.push(await throughput(sides[side], pipelined));
    const used = process.cpuUsage(cpu);
    rounds[side].cpu.push((used.user + used.system) / pipelined);
    rounds[side].serverCpu.push((threadCpuUs(serverPids[side]) - serverCpu) / pipelined);
  };
  for (let round = 0; round < 3; round++) {
    for (const side of ['bare', 'bareProgress', 'core', 'core', 'bareProgress', 'bare'] as const) await run(side);
    for (const side of ['capabilitiesOnly', 'progressOnly', 'progressOnly', 'capabilitiesOnly'] as const) await run(side);
    if (ownSession) for (const side of ['ownSession', 'bareBeside', 'bareBeside', 'ownSession'] as const) await run(side);
  }
  const median = (xs: number[]): number => percentile(xs, 50);
  const bareTp = median(rounds.bare.tp);
  const coreTp = median(rounds.core.tp);
  const bareProgressTp = median(rounds.bareProgress.tp);
  const cpuPerCall = {
    bare: round(median(rounds.bare.cpu), 1),
    bareSameCapabilitiesAndOptions: round(median(rounds.bareProgress.cpu), 1),
    core: round(median(rounds.core.cpu), 1),
  };
  const serverCpu = (side: Side): number => round(median(rounds[side].serverCpu), 1);
  const serverCpuPerCall = {
    bare: serverCpu('bare'),
    bareCapabilitiesOnly: serverCpu('capabilitiesOnly'),
    bareProgressTokenOnly: serverCpu('progressOnly'),
    bareSameCapabilitiesAndOptions: serverCpu('bareProgress'),
    core: serverCpu('core'),
  };
  const bareVariants = {
    capabilitiesOnly: round(median(rounds.capabilitiesOnly.tp) / bareTp),
    progressTokenOnly: round(median(rounds.progressOnly.tp) / bareTp),
    sameCapabilitiesAndOptions: round(bareProgressTp / bareTp),
    ownSession: ownSession ? round(median(rounds.ownSession.tp) / median(rounds.bareBeside.tp)) : Number.NaN,
  };
  await ownSession?.close();
  bridge.close();
  await headless.dispose();
  await bare.close();
  await bareSame.close();
  await host.dispose();

  if (callsOnly) {
    const calls = {
      callLatencyRatio: round(p50('core') / p50('bare')),
      callLatencyRatioSameOptions: round(p50('core') / p50('bareSame')),
      throughputRatio: round(coreTp / bareTp),
      throughputRatioSameOptions: round(coreTp / bareProgressTp),
      callP50Ms: { bare: round(p50('bare')), bareSameCapabilitiesAndOptions: round(p50('bareSame')), core: round(p50('core')) },
      throughputCallsPerSec: { bare: Math.round(bareTp), bareSameCapabilitiesAndOptions: Math.round(bareProgressTp), core: Math.round(coreTp) },
      hostCpuUsPerCall: cpuPerCall,
      serverCpuUsPerCall: serverCpuPerCall,
      bareClientThroughputRatios: bareVariants,
    };
    if (json) process.stdout.write(`${JSON.stringify(calls)}\n`);
    else for (const [key, value] of Object.entries(calls)) log(`${key.padEnd(28)} ${JSON.stringify(value)}`);
    return;
  }

  // 1b. The server's own cost of those capabilities: raw JSON-RPC lines, no client library (see server-envelope.ts).
  const serverEnvelope = await measureServerEnvelope({ quick, capabilities });

  // 2. Parallel vs sequential connect of 20 stdio servers.
  const sequentialMs = await timeToReady(fleet, false);
  const parallelMs = await timeToReady(fleet, true);
  // Context: the same with a dependency-free server, whose start costs little CPU (on 2 cores, 20 SDK-based
  // Node servers starting at once are bound by CPU, not by the host).
  const tiny = join(import.meta.dirname, '..', 'src-main', 'core', 'fixtures', 'tiny-server.mjs');
  const tinySequentialMs = await timeToReady(fleet, false, {}, undefined, tiny);
  const tinyParallelMs = await timeToReady(fleet, true, {}, undefined, tiny);

  // 3. Era probe: auto with a warm verdict cache vs pinned legacy, 5 servers started one after another (best of 3).
  const eraDir = tempDir('switchboard-bench-era-');
  await timeToReady(5, false, { versionMode: 'auto' }, eraDir); // warms the cache
  const autoWarm: number[] = [];
  const legacy: number[] = [];
  const autoCold: number[] = [];
  for (let i = 0; i < 3; i++) {
    legacy.push(await timeToReady(5, false, { versionMode: 'legacy' }));
    autoWarm.push(await timeToReady(5, false, { versionMode: 'auto' }, eraDir));
    autoCold.push(await timeToReady(5, false, { versionMode: 'auto' }));
  }
  const best = (xs: number[]): number => Math.min(...xs);

  // 4. Host RSS per idle connected server, in a fresh process (this one's allocator already holds pages freed
  // by the phases above, which would hide growth). Children are separate processes, so excluded by construction.
  const rssRun = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'rss.ts'), String(fleet)], { encoding: 'utf8' });
  if (rssRun.status !== 0) throw new Error(`bench/rss.ts failed: ${rssRun.stderr}`);
  const rss = JSON.parse(rssRun.stdout.trim().split('\n').pop() ?? '{}') as { rssBefore: number; rssAfter: number; heapBefore: number; heapAfter: number };
  const { rssBefore, rssAfter, heapBefore, heapAfter } = rss;

  // 5. The renderer, in Chromium: a 5 MB tool result, and scrolling a 10,000-message conversation.
  const render = await measureRender({ quick, log });

  // 6. Fan-out: the bytes one server's stderr line sends each tab, with 10,000 tools (old full event vs delta).
  const fanout = await measureBridgeFanout({ quick, log: () => undefined });

  // 7. The stdio reader under abuse: a 50 MB line without a newline, and 10⁶ notifications (fresh processes).
  const stdio = await measureStdioLimits({ quick });

  // 8. Live lists: a tool the server adds, from its list_changed to the new list on a tab (both eras).
  const listChanged = await measureListChanged({ quick });

  // 9. The protocol trace: call latency with the transport traced vs not.
  const traceOverhead = await measureTraceOverhead({ quick });

  // 10. The CLI's start-up: whole `switchboard tools` processes vs the MCP Inspector CLI's and a bare SDK script's.
  const cliStartup = await measureCliStartup({ quick });

  // 11. Tool search: the first request's tool JSON (search ÷ all), recall@5 on labelled queries, ranking 5,000 tools.
  const toolSearch = await measureToolSearch({ quick });

  // 12. MCP Apps: a tool result to its app's initialized (Chromium), and an app's tools/call minus a direct one.
  const apps = await measureApps({ quick, log });

  const result = {
    callLatencyRatio: round(p50('core') / p50('bare')),
    bridgeLatencyAddedMs: round(p50('bridge') - p50('core')),
    throughputRatio: round(coreTp / bareTp),
    parallelConnectRatio: round(parallelMs / sequentialMs),
    eraProbeRatio: round(best(autoWarm) / best(legacy)),
    rssPerServerMB: round((rssAfter - rssBefore) / fleet / (1024 * 1024)),
    bigResultRenderMs: render.bigResultRenderMs,
    scrollFrameP95Ms: render.scrollFrameP95Ms,
    appFirstRenderMs: apps.appFirstRenderMs,
    appToolCallAddedMs: apps.appToolCallAddedMs,
    bigLineMs: stdio.bigLineMs,
    bigLineMB: stdio.bigLineMB,
    notificationDrainStallMs: stdio.notificationDrainStallMs,
    changeEventBytes: fanout.changeEventBytes,
    listChangedRefreshMs: listChanged.listChangedRefreshMs,
    traceOverheadRatio: traceOverhead.traceOverheadRatio,
    cliToolsVsInspectorRatio: cliStartup.cliToolsVsInspectorRatio,
    cliToolsVsBareSdkRatio: cliStartup.cliToolsVsBareSdkRatio,
    cliHelpMs: cliStartup.cliHelpMs,
    toolSearchBytesRatio: toolSearch.toolSearchBytesRatio,
    toolSearchRecallAt5: toolSearch.toolSearchRecallAt5,
    toolSearchRankP95Ms: toolSearch.toolSearchRankP95Ms,
    figures: {
      callP50Ms: { bare: round(p50('bare')), bareSameCapabilitiesAndOptions: round(p50('bareSame')), core: round(p50('core')), bridge: round(p50('bridge')) },
      /** p50 core ÷ a bare SDK client with the same client capabilities and per-call options. */
      callLatencyRatioSameOptions: round(p50('core') / p50('bareSame')),
      callP99Ms: { bare: round(p99('bare')), core: round(p99('core')), bridge: round(p99('bridge')) },
      throughputCallsPerSec: { bare: Math.round(bareTp), bareSameCapabilitiesAndOptions: Math.round(bareProgressTp), core: Math.round(coreTp) },
      /** core ÷ a bare SDK client with the same client capabilities and per-call options. */
      throughputRatioSameOptions: round(coreTp / bareProgressTp),
      hostCpuUsPerCall: cpuPerCall,
      /** Each side's echo server's main-thread CPU per pipelined call (Linux; NaN elsewhere). */
      serverCpuUsPerCall: serverCpuPerCall,
      /** Throughput of bare SDK clients doing what the core does (its capabilities, a progress token, a server in a session of its own), ÷ the bare client's. */
      bareClientThroughputRatios: bareVariants,
      /** The echo server alone, spoken to in raw lines: requests carrying Switchboard's client capabilities ÷ none. */
      serverEnvelope,
      connect20Ms: { sequential: Math.round(sequentialMs), parallel: Math.round(parallelMs) },
      connect20LightServerMs: {
        sequential: Math.round(tinySequentialMs),
        parallel: Math.round(tinyParallelMs),
        ratio: round(tinyParallelMs / tinySequentialMs),
      },
      connect5SequentialMs: { pinnedLegacy: Math.round(best(legacy)), autoWarmCache: Math.round(best(autoWarm)), autoColdCache: Math.round(best(autoCold)) },
      hostRssMB: { before: round(rssBefore / 2 ** 20, 1), after20Servers: round(rssAfter / 2 ** 20, 1) },
      heapPlusExternalPerServerMB: round((heapAfter - heapBefore) / fleet / 2 ** 20),
      render: render.figures,
      apps: apps.figures,
      stdioLimits: { plainStartMs: stdio.plainStartMs, bigLineHeapMB: stdio.bigLineHeapMB, ...stdio.notificationDrain },
      fanout: fanout.figures,
      listChanged: listChanged.figures,
      traceOverhead: traceOverhead.figures,
      cliStartup: cliStartup.figures,
      toolSearch: toolSearch.figures,
    },
  };
  const targets: Array<[keyof typeof result, string, (v: number) => boolean]> = [
    ['callLatencyRatio', '≤ 1.05', (v) => v <= 1.05],
    ['bridgeLatencyAddedMs', '≤ 0.5', (v) => v <= 0.5],
    ['throughputRatio', '≥ 0.95', (v) => v >= 0.95],
    ['parallelConnectRatio', '≤ 0.6', (v) => v <= 0.6],
    ['eraProbeRatio', '≤ 1.15', (v) => v <= 1.15],
    ['rssPerServerMB', '≤ 1.0', (v) => v <= 1.0],
    ['bigResultRenderMs', '≤ 200', (v) => v <= 200],
    ['scrollFrameP95Ms', '≤ 20', (v) => v <= 20],
    ['appFirstRenderMs', '≤ 300', (v) => v <= 300],
    ['appToolCallAddedMs', '≤ 5', (v) => v <= 5],
    ['bigLineMs', '≤ 1000', (v) => v <= 1000],
    ['bigLineMB', '≤ 100', (v) => v <= 100],
    ['notificationDrainStallMs', '≤ 100', (v) => v <= 100],
    ['changeEventBytes', '≤ 4096', (v) => v <= 4096],
    ['listChangedRefreshMs', '≤ 100', (v) => v <= 100],
    ['traceOverheadRatio', '≤ 1.05', (v) => v <= 1.05],
    ['cliToolsVsInspectorRatio', '≤ 0.8', (v) => v <= 0.8],
    ['cliToolsVsBareSdkRatio', '≤ 1.2', (v) => v <= 1.2],
    ['cliHelpMs', '≤ 150', (v) => v <= 150],
    ['toolSearchBytesRatio', '≤ 0.10', (v) => v <= 0.1],
    ['toolSearchRecallAt5', '≥ 0.9', (v) => v >= 0.9],
    ['toolSearchRankP95Ms', '≤ 5', (v) => v <= 5],
  ];
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  log('');
  for (const [key, target, ok] of targets) {
    const value = result[key] as number;
    log(`${key.padEnd(22)} ${String(value).padStart(8)}   target ${target.padEnd(7)} ${ok(value) ? 'met' : 'MISSED'}`);
  }
  log('');
  log(
    `call p50 ms   bare ${result.figures.callP50Ms.bare}  bare, same capabilities+options ${result.figures.callP50Ms.bareSameCapabilitiesAndOptions} (core ÷ that ${result.figures.callLatencyRatioSameOptions})  core ${result.figures.callP50Ms.core}  bridge ${result.figures.callP50Ms.bridge}`,
  );
  log(`call p99 ms   bare ${result.figures.callP99Ms.bare}  core ${result.figures.callP99Ms.core}  bridge ${result.figures.callP99Ms.bridge}`);
  log(
    `calls/s       bare ${result.figures.throughputCallsPerSec.bare}  bare, same capabilities+options ${result.figures.throughputCallsPerSec.bareSameCapabilitiesAndOptions}  core ${result.figures.throughputCallsPerSec.core}  (core ÷ that ${result.figures.throughputRatioSameOptions})`,
  );
  log(`host CPU µs/call  bare ${cpuPerCall.bare}  bare, same capabilities+options ${cpuPerCall.bareSameCapabilitiesAndOptions}  core ${cpuPerCall.core}`);
  log(
    `server CPU µs/call  bare ${serverCpuPerCall.bare}  bare+capabilities ${serverCpuPerCall.bareCapabilitiesOnly}  bare+progress token ${serverCpuPerCall.bareProgressTokenOnly}  bare, both ${serverCpuPerCall.bareSameCapabilitiesAndOptions}  core ${serverCpuPerCall.core}  (the echo server's main thread)`,
  );
  log(
    `calls/s ÷ bare  bare+capabilities ${bareVariants.capabilitiesOnly}  bare+progress token ${bareVariants.progressTokenOnly}  bare, both ${bareVariants.sameCapabilitiesAndOptions}  its server in a session of its own ${bareVariants.ownSession}  (what a bare SDK client pays for doing what the core does)`,
  );
  const se = result.figures.serverEnvelope;
  log(
    `server alone  raw JSON-RPC, requests carrying Switchboard's capabilities ÷ none: p50 ${se.latencyRatio.switchboard} (elicitation alone ${se.latencyRatio.elicitationOnly}), calls/s ${se.throughputRatio.switchboard} (${se.throughputRatio.elicitationOnly}); server CPU µs/call ${se.serverCpuUsPerCall.none} → ${se.serverCpuUsPerCall.switchboard} (${se.serverCpuUsPerCall.elicitationOnly})`,
  );
  log(`20 servers    sequential ${result.figures.connect20Ms.sequential} ms  parallel ${result.figures.connect20Ms.parallel} ms`);
  log(
    `20 light      sequential ${result.figures.connect20LightServerMs.sequential} ms  parallel ${result.figures.connect20LightServerMs.parallel} ms  (ratio ${result.figures.connect20LightServerMs.ratio}, dependency-free server)`,
  );
  log(
    `5 servers     legacy ${result.figures.connect5SequentialMs.pinnedLegacy} ms  auto+warm ${result.figures.connect5SequentialMs.autoWarmCache} ms  auto+cold ${result.figures.connect5SequentialMs.autoColdCache} ms`,
  );
  log(
    `host RSS      ${result.figures.hostRssMB.before} MB → ${result.figures.hostRssMB.after20Servers} MB with ${fleet} idle servers; JS heap+external ${result.figures.heapPlusExternalPerServerMB} MB per server (fresh process)`,
  );
  log(
    `fan-out       one stderr line, ${result.figures.fanout.tools} tools: ${result.figures.fanout.changeEventBytes.before} B before → ${result.figures.fanout.changeEventBytes.after} B per tab now; main CPU ${result.figures.fanout.changeEventCpuMs.before} → ${result.figures.fanout.changeEventCpuMs.after} ms per change per tab`,
  );
  log(
    `renderer      5 MB result ${result.figures.render.bigResultRunsMs.join(' / ')} ms; scrolling ${result.figures.render.messages} messages: p50 ${result.figures.render.scrollFrameP50Ms} ms, p95 ${result.scrollFrameP95Ms} ms, max ${result.figures.render.scrollFrameMaxMs} ms over ${result.figures.render.scrollFrames} frames (Chromium)`,
  );
  reportApps(apps);
  const lc = result.figures.listChanged;
  const tr = result.figures.traceOverhead;
  log(`live lists    a tool added by the server reaches a tab in ${lc.modernMs} ms (2026-07-28) / ${lc.legacyMs} ms (legacy), median of ${lc.rounds}`);
  log(
    `trace         call p50 ${tr.callP50Ms.off} ms off → ${tr.callP50Ms.on} ms on; ${tr.recordMicros} µs of CPU per message recorded; ring held ${tr.ringEntries} entries`,
  );
  const ts = result.figures.toolSearch;
  log(
    `tool search   first request ${ts.firstRequestToolBytes.search} B (${ts.toolsOffered.search} tool) vs ${ts.firstRequestToolBytes.all} B (${ts.toolsOffered.all} tools); recall@1 ${ts.recallAt1} over ${ts.queries} queries; ${ts.rankTools} tools: p50 ${ts.rankP50Ms} ms, index built in ${ts.indexBuildMs} ms`,
  );
  const cs = result.figures.cliStartup;
  log(
    `cli start-up  tools: switchboard ${cs.medianMs.cliTools} ms, Inspector CLI ${cs.medianMs.inspectorTools} ms (its launcher ${cs.medianMs.inspectorLauncherTools} ms), bare SDK ${cs.medianMs.bareSdkTools} ms; --help ${cs.medianMs.cliHelp} ms; node -e 0 ${cs.medianMs.nodeEmpty} ms (medians of ${cs.rounds}; load ${cs.loadAverage.join(' ')})`,
  );
  const d = result.figures.stdioLimits;
  log(
    `stdio limits  50 MB line: ready in ${result.bigLineMs} ms (${d.plainStartMs} ms without it), peak RSS +${result.bigLineMB} MB, heap +${d.bigLineHeapMB} MB; ${d.notifications} notifications in ${d.drainMs} ms (${d.perSecond}/s): event-loop stall max ${result.notificationDrainStallMs} ms (p99 ${d.stallP99Ms}; ${d.longestStallCpuMs} ms of it our CPU; idle noise ${d.idleStallMs} ms), bridge round trip max ${d.bridgeMaxRoundTripMs} ms over ${d.bridgeRoundTrips}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
