/**
 * MCP Apps figures for `npm run bench` (`-- --apps`: these alone), against the real app server from npm
 * (`@modelcontextprotocol/server-basic-vanillajs`, tool `get-time`):
 * - appFirstRenderMs: in Chromium against the built UI in headless mode (its sandbox origin on a port of its own),
 *   from pressing Enter on `/get-time {}` (the call, its result, the card) until the app's
 *   `ui/notifications/initialized` reaches the page; warm (the first run is left out), median.
 * - appToolCallAddedMs: the app's `tools/call` as the host runs it (`apps:call-tool`: frame lookup, rate and size
 *   checks, visibility, the audit entry) minus the same direct `tools:call`, same server, interleaved; p50 difference.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { createHost, type Host } from '../src-main/core/host';
import { packageRoot } from '../src-main/core/support/paths';
import { nodeRuntime } from '../src-main/core/config/runtime';
import { StaticSettings } from '../src-main/core/settings/store';
import { startHeadless } from '../src-main/headless/server';
import { startSandboxServer } from '../src-main/headless/sandbox';
import { tempDir } from '../src-main/test-support/processes';
import { percentile, round } from './common';

export interface AppsFigures {
  appFirstRenderMs: number;
  appToolCallAddedMs: number;
  figures: {
    firstRenderRunsMs: number[];
    /** The first (cold) run: the page's first app, the server's resource read the first time. */
    firstRenderColdMs: number;
    /** The app's HTML alone in a sandboxed srcdoc frame on a blank page → its ui/initialize (warm median). */
    appAloneToInitializeMs: number;
    /** Warm medians since Enter: the frame element in the card, the proxy's sandbox-proxy-ready, the app's ui/initialize. */
    firstRenderStepsMs: { appView: number; proxyReady: number; appInitialize: number };
    callP50Ms: { direct: number; app: number };
    calls: number;
  };
}

const chromiumPath = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const vanilla = join(packageRoot(), 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');

// In-page script as a string: the bench runs under tsx, whose helpers (e.g. __name) do not exist in the page.
/**
 * Resolves with ms from the keydown (Enter) to the app's `ui/notifications/initialized` (posted to this page), and the
 * steps on the way: the app view in the card, the proxy's `sandbox-proxy-ready`, the app's `ui/initialize`.
 */
const watchInitialized = `new Promise((resolve) => {
  let start = 0;
  const steps = {};
  const since = () => performance.now() - start;
  document.querySelector('[data-testid="chat-input"]').addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if (start === 0 || steps.view !== undefined || document.querySelectorAll('[data-testid="app-frame"]').length === 0) return;
    steps.view = since();
    observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  const onMessage = (event) => {
    const data = event.data;
    if (start === 0 || !data || typeof data.method !== 'string') return;
    if (data.method === 'ui/notifications/sandbox-proxy-ready') steps.proxyReady = since();
    if (data.method === 'ui/initialize') steps.initialize = since();
    if (data.method !== 'ui/notifications/initialized') return;
    window.removeEventListener('message', onMessage, true);
    resolve({ total: since(), ...steps });
  };
  window.addEventListener('message', onMessage, true);
})`;

/**
 * The app alone: ms from putting its HTML in a sandboxed `srcdoc` frame (as the proxy does) on a blank page to its
 * `ui/initialize` — what the app's own page costs, whatever the host.
 */
const appAlone = (html: string): string => `new Promise((resolve) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  let start = 0;
  const onMessage = (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.method !== 'ui/initialize') return;
    window.removeEventListener('message', onMessage);
    const ms = performance.now() - start;
    frame.remove();
    resolve(ms);
  };
  window.addEventListener('message', onMessage);
  start = performance.now();
  frame.srcdoc = ${JSON.stringify(html)};
  document.body.appendChild(frame);
})`;

interface RenderRun {
  total: number;
  view?: number;
  proxyReady?: number;
  initialize?: number;
}

async function appsHost(dataDir: string): Promise<Host> {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { basic: { command: process.execPath, args: [vanilla, '--stdio'] } } }));
  return createHost({
    mode: 'headless',
    configPath: join(dataDir, 'mcp.json'),
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    hostEnv: { PATH: process.env.PATH },
    // The call figure measures the path, not the per-frame rate limit (20 a second) it would otherwise hit.
    appLimits: { ratePerSecond: 1e9, burst: 1e9 },
  });
}

async function measureFirstRender(host: Host, runs: number, log: (line: string) => void): Promise<{ times: RenderRun[]; alone: number[] }> {
  const rendererDir = join(packageRoot(), 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    log('building the UI for the apps figures (electron-vite build)…');
    const built = spawnSync(process.execPath, [join(packageRoot(), 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: packageRoot(),
      stdio: 'ignore',
    });
    if (built.status !== 0) throw new Error('the UI could not be built (npx electron-vite build)');
  }
  // As `switchboard serve` does: the page may frame only the sandbox origin, started once the page's port is known.
  const frameSources: string[] = [];
  const headless = await startHeadless({ api: host.api, rendererDir, frameSources: () => frameSources });
  const sandbox = await startSandboxServer({
    page: (frameId) => host.apps.proxyResponse(frameId),
    parentOrigins: [`http://127.0.0.1:${headless.port}`, `http://localhost:${headless.port}`],
    host: '127.0.0.1',
  });
  frameSources.push(sandbox.origin);
  host.apps.useSandbox(sandbox);
  const browser = await chromium.launch({
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(headless.url);
    await page.locator('[data-testid="server-row"][data-server="basic"][data-status="ready"]').waitFor();
    const times: RenderRun[] = [];
    for (let i = 0; i < runs; i++) {
      // A new chat each time: one app on the page, as after a tool result in a fresh conversation.
      await page.getByTestId('new-chat').click();
      const input = page.getByTestId('chat-input');
      await input.fill('/get-time {}');
      const measured = page.evaluate<RenderRun>(watchInitialized);
      await input.press('Enter');
      times.push(
        await Promise.race([
          measured,
          new Promise<RenderRun>((_, reject) => setTimeout(() => reject(new Error('the app never sent ui/notifications/initialized (30 s)')), 30_000)),
        ]),
      );
    }
    // The app's own share: its HTML alone in a sandboxed srcdoc frame on a blank page, to its ui/initialize.
    const html = (await host.api['apps:read']({ server: 'basic', tool: 'get-time' })).html;
    const blank = await browser.newPage();
    await blank.goto('about:blank');
    const alone: number[] = [];
    for (let i = 0; i < runs; i++) alone.push(await blank.evaluate<number>(appAlone(html)));
    return { times, alone };
  } finally {
    host.apps.useSandbox(undefined);
    await browser.close();
    await sandbox.dispose();
    await headless.dispose();
  }
}

async function measureCallAdded(host: Host, calls: number): Promise<{ direct: number[]; app: number[] }> {
  host.apps.useSandbox({ frameUrl: (id) => ({ url: `http://127.0.0.1:9/frame/${id}`, origin: 'http://127.0.0.1:9' }), parentOrigins: [] });
  const frame = await host.api['apps:open']({ server: 'basic', tool: 'get-time' });
  let n = 0;
  const sides = {
    direct: () => host.api['tools:call']({ server: 'basic', tool: 'get-time', args: {} }),
    app: () => host.api['apps:call-tool']({ frameId: frame.frameId, tool: 'get-time', args: {}, callId: `bench-app-${n++}` }),
  };
  for (let i = 0; i < 30; i++) for (const side of Object.values(sides)) await side();
  const samples = { direct: [] as number[], app: [] as number[] };
  for (let i = 0; i < calls; i++) {
    // Order alternated: the second of two back-to-back calls finds the server just scheduled.
    const order = i % 2 === 0 ? (['direct', 'app'] as const) : (['app', 'direct'] as const);
    for (const side of order) {
      const t = performance.now();
      await sides[side]();
      samples[side].push(performance.now() - t);
    }
  }
  await host.api['apps:close']({ frameId: frame.frameId });
  host.apps.useSandbox(undefined);
  return samples;
}

export async function measureApps(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<AppsFigures> {
  const log = options.log ?? (() => undefined);
  const host = await appsHost(tempDir('switchboard-bench-apps-'));
  try {
    await host.settled();
    const calls = options.quick ? 200 : 1000;
    const { direct, app } = await measureCallAdded(host, calls);
    const { times: rendered, alone } = await measureFirstRender(host, options.quick ? 4 : 8, log);
    const runs = rendered.map((r) => r.total);
    const warm = runs.slice(1).sort((a, b) => a - b);
    const median = (pick: (r: RenderRun) => number | undefined): number => {
      const values = rendered.slice(1).flatMap((r) => pick(r) ?? []);
      return Math.round(percentile(values, 50));
    };
    const p50 = { direct: percentile(direct, 50), app: percentile(app, 50) };
    return {
      appFirstRenderMs: Math.round(warm[Math.floor(warm.length / 2)] ?? Number.NaN),
      appToolCallAddedMs: round(p50.app - p50.direct),
      figures: {
        firstRenderRunsMs: runs.map(Math.round),
        firstRenderColdMs: Math.round(runs[0] ?? Number.NaN),
        appAloneToInitializeMs: Math.round(percentile(alone.slice(1), 50)),
        firstRenderStepsMs: { appView: median((r) => r.view), proxyReady: median((r) => r.proxyReady), appInitialize: median((r) => r.initialize) },
        callP50Ms: { direct: round(p50.direct), app: round(p50.app) },
        calls,
      },
    };
  } finally {
    await host.dispose();
  }
}

// `node --import tsx bench/apps.ts` runs just these two.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureApps({ quick: process.argv.includes('--quick'), log: (l) => process.stderr.write(`${l}\n`) }).then(
    (figures) => {
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`apps bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
