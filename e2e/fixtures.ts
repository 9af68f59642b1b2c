import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type Browser, type Page, type TestInfo } from '@playwright/test';
import { launchDesktopApp, startHeadlessHost } from '../src-main/kit/launch';
import { describeProcesses, endLeftovers, type ProcessInfo } from '../src-main/kit/processes';

/*
 * Specs are written once against `page`. The `web` project gets it from headless mode (`switchboard serve`) in
 * Chromium; the `electron` project from the built Electron app. Either way each test gets a fresh host on a
 * temp config and a temp HOME, and on teardown the host must stop and leave no process behind. Starting the host,
 * stopping it and the leftover check are the QA kit's own (src-main/kit/launch.ts, processes.ts): one implementation
 * for this project's specs and for QA teams'.
 */

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const calculatorScript = join(repoRoot, 'resources', 'calculator.mjs');

export type HostMode = 'web' | 'electron';

/** A servers-config entry as the specs write it (the Claude-Desktop format). */
export interface ServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
}

export function calculatorServer(): ServerConfig {
  return { command: process.execPath, args: [calculatorScript, '--debug'], env: { CALC_PRECISION: '8' } };
}

/** The default config: the calculator, and a server whose program does not exist. */
export function defaultServers(): Record<string, ServerConfig> {
  return {
    calculator: calculatorServer(),
    broken: { command: 'definitely-not-a-real-command-xyz' },
  };
}

export interface HostOptions {
  hostMode: HostMode;
  /** The `mcpServers` written to the temp config; override with `test.use({ mcpServers: … })`. */
  mcpServers: Record<string, ServerConfig>;
  /** Exact text for the config file instead of `mcpServers` (to test a broken file). */
  configText: string | undefined;
  /** Extra environment for the host process (e.g. `OPENAI_BASE_URL` of a fake provider); override with `test.use` or a fixture. */
  hostEnv: Record<string, string>;
}

export interface HostHandle {
  mode: HostMode;
  /** The test's own temp folder; every path the host gets lives under it. */
  dir: string;
  configPath: string;
  /** Some configured server runs the bundled calculator (so teardown must have seen and ended it). */
  runsCalculator: boolean;
  /** Web only: SIGTERMs the headless host now (teardown still checks that nothing is left). */
  terminate(): Promise<void>;
  /** Extra environment the host process gets. */
  env: Record<string, string>;
  /** Page errors matching this are expected by the test (any other fails it). */
  allowPageErrors(pattern: RegExp): void;
  readonly allowedPageErrors: RegExp[];
}

interface TestFixtures {
  mcpServers: Record<string, ServerConfig>;
  configText: string | undefined;
  hostEnv: Record<string, string>;
  host: HostHandle;
  page: Page;
}

interface WorkerFixtures {
  hostMode: HostMode;
  /** Launched lazily, once per worker, in the web project only. */
  webBrowser: Browser | undefined;
}

const electronInstalled = (): boolean => existsSync(join(repoRoot, 'node_modules', 'electron', 'path.txt'));

/** The HOME and XDG folders of a test's host, under its temp dir: also for a CLI process that shares its data. */
export function isolatedDirs(dir: string): Record<'HOME' | 'XDG_CONFIG_HOME' | 'XDG_DATA_HOME' | 'XDG_STATE_HOME' | 'XDG_CACHE_HOME', string> {
  const home = join(dir, 'home');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
}

/** A HOME and XDG folders under the test's temp dir, so nothing touches the real user's config. */
function isolatedEnv(dir: string): NodeJS.ProcessEnv {
  const home = join(dir, 'home');
  const env: NodeJS.ProcessEnv = { ...process.env, ...isolatedDirs(dir) };
  delete env.SWITCHBOARD_CONFIG;
  for (const key of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'] as const) {
    mkdirSync(env[key] ?? home, { recursive: true });
  }
  return env;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  hostMode: ['web', { option: true, scope: 'worker' }],
  mcpServers: [defaultServers(), { option: true }],
  configText: [undefined, { option: true }],
  hostEnv: [{}, { option: true }],

  webBrowser: [
    async ({ hostMode, playwright, launchOptions }, use) => {
      if (hostMode !== 'web') {
        await use(undefined);
        return;
      }
      const browser = await playwright.chromium.launch(launchOptions);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],

  host: async ({ hostMode, mcpServers, configText, hostEnv }, use) => {
    if (hostMode === 'electron') test.skip(!electronInstalled(), 'Electron binary not installed');
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, configText ?? `${JSON.stringify({ mcpServers }, null, 2)}\n`);
    const runsCalculator = configText === undefined && Object.values(mcpServers).some((s) => s.args?.includes(calculatorScript) === true);
    const handle: HostHandle = {
      mode: hostMode,
      dir,
      configPath,
      runsCalculator,
      env: hostEnv,
      terminate: () => Promise.reject(new Error('terminate() is available once the page is up, in the web project')),
      allowedPageErrors: [],
      allowPageErrors(pattern) {
        this.allowedPageErrors.push(pattern);
      },
    };
    await use(handle);
    rmSync(dir, { recursive: true, force: true });
  },

  page: async ({ host, webBrowser, viewport }, use, testInfo) => {
    const started = host.mode === 'web' ? await startWeb(host, webBrowser, testInfo) : await startElectron(host);
    const { page } = started;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
    });
    if (host.mode === 'web') {
      if (viewport) await page.setViewportSize(viewport);
      await page.goto(started.url ?? '');
    }

    await use(page);

    if (testInfo.status !== testInfo.expectedStatus) {
      const shot = await page.screenshot().catch(() => undefined);
      if (shot) await testInfo.attach('screenshot-at-failure', { body: shot, contentType: 'image/png' });
    }
    await started.stop();
    const output = started.output();
    if (output) await testInfo.attach('host-output', { body: output, contentType: 'text/plain' });
    const unexpected = pageErrors.filter((e) => !host.allowedPageErrors.some((pattern) => pattern.test(e)));
    expect(unexpected, 'the page logged errors').toEqual([]);
  },
});

export { expect };

interface Started {
  page: Page;
  url?: string;
  /** Ends the host, then checks that it and everything it started are gone. */
  stop(): Promise<void>;
  output(): string;
}

/** Headless mode from source, through the kit's launcher (src-main/kit/launch.ts): its first stdout line is the URL. */
async function startWeb(host: HostHandle, browser: Browser | undefined, testInfo: TestInfo): Promise<Started> {
  if (!browser) throw new Error('the web project needs a browser');
  const served = await startHeadlessHost(
    ['--import', 'tsx', join(repoRoot, 'src-main', 'cli', 'main.ts'), '--config', host.configPath, 'serve', '--port', '0'],
    {
      cwd: repoRoot,
      env: { ...isolatedEnv(host.dir), ...host.env },
      timeoutMs: 60_000,
    },
  );
  const url = served.firstLine;
  try {
    expect(url, 'the first stdout line of `serve` is the URL').toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
  } catch (error) {
    await served.stop();
    throw error;
  }

  let tree: ProcessInfo[] = [];
  let terminated: Promise<void> | undefined;
  const terminate = (): Promise<void> =>
    (terminated ??= (async () => {
      // Stop first, judge after: a failed check must never leave the host running.
      const stopped = await served.stop();
      tree = stopped.tree;
      if (stopped.exit === undefined) throw new Error('timed out after 20000 ms waiting for the headless host to exit after SIGTERM');
      await testInfo.attach('host-processes', { body: describeProcesses(tree), contentType: 'text/plain' });
      if (host.runsCalculator) {
        expect(describeProcesses(tree), 'the calculator ran as a child of the host').toContain(calculatorScript);
      }
      expect(stopped.exit, 'serve exits cleanly on SIGTERM').toEqual({ code: 0, signal: null });
    })());
  host.terminate = terminate;

  const context = await browser.newContext();
  const page = await context.newPage();
  return {
    page,
    url,
    output: served.output,
    async stop() {
      try {
        await context.close();
      } finally {
        await terminate();
      }
      await expectAllGone(tree, host.dir);
    },
  };
}

/** The built desktop app through the kit's Electron launcher (Playwright's `_electron`). */
async function startElectron(host: HostHandle): Promise<Started> {
  // package.json's "main" names the built entry; electron-vite names the file after the entry source.
  const main = ['out/main/index.js', 'out/main/main.js'].find((file) => existsSync(join(repoRoot, file)));
  if (!main) throw new Error('The Electron main process is not built: run `npx electron-vite build` first.');
  const desktop = await launchDesktopApp({
    args: [main],
    cwd: repoRoot,
    env: { ...isolatedEnv(host.dir), ...host.env, SWITCHBOARD_CONFIG: host.configPath },
  });
  return {
    page: desktop.page,
    output: desktop.output,
    async stop() {
      const { closed, tree } = await desktop.stop();
      if (!closed) throw new Error('timed out after 20000 ms waiting for Electron to quit');
      await expectAllGone(tree, host.dir);
    },
  };
}

/** Everything the host had started, and anything naming the test's temp dir, must be gone (the kit's leftover check). */
async function expectAllGone(tree: ProcessInfo[], dir: string): Promise<void> {
  const left = await endLeftovers(tree, dir);
  expect(describeProcesses(left), 'processes left behind by the host').toBe('(none)');
}
