import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, expect, test as base, type Browser, type ElectronApplication, type Page, type TestInfo } from '@playwright/test';
import { descendantsOf, isRunning, processesMentioning, waitUntil, type ProcessInfo } from './processes';

/*
 * Specs are written once against `page`. The `web` project gets it from headless mode (`switchboard serve`) in
 * Chromium; the `electron` project from the built Electron app. Either way each test gets a fresh host on a
 * temp config and a temp HOME, and on teardown the host must stop and leave no process behind.
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

/** Hosts this worker started and has not seen exit: a last resort if the worker goes away mid-test. */
const liveHosts = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveHosts) child.kill('SIGKILL');
});

async function startWeb(host: HostHandle, browser: Browser | undefined, testInfo: TestInfo): Promise<Started> {
  if (!browser) throw new Error('the web project needs a browser');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'src-main', 'cli', 'main.ts'), '--config', host.configPath, 'serve', '--port', '0'],
    { cwd: repoRoot, env: { ...isolatedEnv(host.dir), ...host.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  liveHosts.add(child);
  child.once('exit', () => liveHosts.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  let url: string;
  try {
    url = await firstLine(child, 60_000);
    expect(url, 'the first stdout line of `serve` is the URL').toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
  } catch (error) {
    killTree(child);
    await exited;
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- host output ---\n${output}`);
  }

  let tree: ProcessInfo[] = [];
  let terminated: Promise<void> | undefined;
  const terminate = (): Promise<void> =>
    (terminated ??= (async () => {
      // Stop first, judge after: a failed check must never leave the host running.
      try {
        tree = descendantsOf(requirePid(child));
      } finally {
        child.kill('SIGTERM');
      }
      let exit: { code: number | null; signal: NodeJS.Signals | null };
      try {
        exit = await withTimeout(exited, 20_000, 'the headless host to exit after SIGTERM');
      } catch (error) {
        killTree(child, tree);
        throw error;
      }
      await testInfo.attach('host-processes', { body: describe(tree), contentType: 'text/plain' });
      if (host.runsCalculator) {
        expect(describe(tree), 'the calculator ran as a child of the host').toContain(calculatorScript);
      }
      expect(exit, 'serve exits cleanly on SIGTERM').toEqual({ code: 0, signal: null });
    })());
  host.terminate = terminate;

  const context = await browser.newContext();
  const page = await context.newPage();
  return {
    page,
    url,
    output: () => output,
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

async function startElectron(host: HostHandle): Promise<Started> {
  // package.json's "main" names the built entry; electron-vite names the file after the entry source.
  const main = ['out/main/index.js', 'out/main/main.js'].find((file) => existsSync(join(repoRoot, file)));
  if (!main) throw new Error('The Electron main process is not built: run `npx electron-vite build` first.');
  const app: ElectronApplication = await _electron.launch({
    args: [main],
    cwd: repoRoot,
    env: { ...isolatedEnv(host.dir), ...host.env, SWITCHBOARD_CONFIG: host.configPath } as Record<string, string>,
  });
  let output = '';
  app.process().stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  app.process().stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const page = await app.firstWindow();
  return {
    page,
    output: () => output,
    async stop() {
      const pid = app.process().pid;
      const tree = pid === undefined ? [] : descendantsOf(pid);
      try {
        await withTimeout(app.close(), 20_000, 'Electron to quit');
      } catch (error) {
        app.process().kill('SIGKILL');
        for (const p of tree) {
          try {
            process.kill(p.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        throw error;
      }
      await expectAllGone(tree, host.dir);
    },
  };
}

/** SIGKILL for a host that would not stop, and for everything it had started. */
function killTree(child: ChildProcess, tree: ProcessInfo[] = child.pid === undefined ? [] : descendantsOf(child.pid)): void {
  child.kill('SIGKILL');
  for (const p of tree) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function requirePid(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('the host process has no pid');
  return child.pid;
}

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => finish(new Error(`no URL on stdout within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) finish(undefined, buffer.slice(0, newline).trim());
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish(new Error(`the host exited (code ${code}, signal ${signal}) before printing its URL`));
    const finish = (error?: Error, line?: string): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(line ?? '');
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const describe = (processes: ProcessInfo[]): string => processes.map((p) => `${p.pid} (parent ${p.ppid}) ${p.args}`).join('\n') || '(none)';

/** Everything the host had started, and anything naming the test's temp dir, must be gone. */
async function expectAllGone(tree: ProcessInfo[], dir: string): Promise<void> {
  const leftovers = (): ProcessInfo[] => [...tree.filter((p) => isRunning(p.pid)), ...processesMentioning(dir)];
  // A moment for the kernel to reap; a host that returns before its children die still fails.
  await waitUntil(() => leftovers().length === 0, 1_000);
  const left = leftovers();
  // Report them, but do not let them outlive the test.
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  expect(describe(left), 'processes left behind by the host').toBe('(none)');
}
