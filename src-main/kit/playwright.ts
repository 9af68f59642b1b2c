/*
 * `switchboard/playwright`: Playwright fixtures for QA teams testing Switchboard from a repository of their own
 * (docs/testing.md). Built to plain JavaScript (scripts/build-kit.mjs → out/kit/); it imports only Node and
 * @playwright/test (a peer dependency), and drives the installed app as a person's shell would: the package's own
 * `switchboard` command, `serve --data-dir DIR --port 0 --json --wait-ready`, one per test, in a folder of its own —
 * or, where an Electron binary is found (or `SWITCHBOARD_KIT_MODE=electron`), the desktop app through Playwright's
 * Electron launcher, with the same options.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  expect,
  test as base,
  type Locator,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
  type TestType,
} from '@playwright/test';
import { homeFolders } from './home';
import { launchDesktopApp, startHeadlessHost, type DesktopApp, type HeadlessHost } from './launch';
import { electronBinary, kitMode } from './mode';
import { expectSettled, sendChat, serverRow } from './page-objects';
import { endLeftovers } from './processes';

export { expect };

/** A server's status as the page shows it (`data-status` of its row). */
export type ServerStatus = 'stopped' | 'starting' | 'ready' | 'error' | 'crash-loop' | 'needs-approval' | 'needs-login';

/** One entry of `mcpServers` (the Claude Desktop format; see docs/configuration.md for every field). */
export type ServerEntry = Record<string, unknown>;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The app under test and page objects over the selectors of docs/testing.md. */
export interface Switchboard {
  /** The servers config the app follows (in `dataDir` unless `configText`/`servers` were given, then beside it). */
  configPath: string;
  /** This test's own data folder (settings, secrets, approvals, logs), removed after the test. */
  dataDir: string;
  /** The page's URL, with its access token. */
  url: string;
  /** Runs `switchboard ARGS…` on this test's config and data folder. */
  cli(args: readonly string[]): Promise<CliResult>;
  /** Rewrites the config's `mcpServers`; resolves once the page shows exactly those servers, settled. */
  setServers(mcpServers: Record<string, ServerEntry>): Promise<void>;
  chat: {
    /** Types a line in the chat box and sends it (a `/tool {json}` command, or a message to the model). */
    send(text: string): Promise<void>;
    /**
     * The newest call: a `/tool` call's card (`data-state`: pending, ok, error, cancelled) or a tool call of the model
     * (`data-status`: awaiting-approval, running, done, error, denied, cancelled).
     */
    lastCall(): Locator;
    /** Waits until no call runs and the model is not answering (a call waiting for approval is not waited on). */
    waitIdle(): Promise<void>;
  };
  servers: {
    row(name: string): Locator;
    expectStatus(name: string, status: ServerStatus): Promise<void>;
  };
  requests: {
    /** Approves the oldest pending request on the page: a tool call, sampling, or a form (submitted as filled). */
    approve(): Promise<void>;
    /** Declines the oldest pending request on the page. */
    decline(): Promise<void>;
  };
  /**
   * Stops the app now, as its teardown would (SIGTERM to `serve`; the desktop app closed): to test what the page does
   * when the app goes away. The teardown's checks (clean exit, no leftovers) still run after the test.
   */
  terminate(): Promise<void>;
  /** With `pageErrors: 'fail'`: errors matching `pattern` are expected by this test (any other still fails it). */
  allowPageErrors(pattern: RegExp): void;
}

export interface SwitchboardOptions {
  /** The servers config's `mcpServers`; undefined (default): a true first run, the bundled calculator. */
  servers: Record<string, ServerEntry> | undefined;
  /** The config file's exact text (JSONC), instead of `servers`: to test a broken file, comments, … */
  configText: string | undefined;
  /** Extra environment for the app (provider keys, `OPENAI_BASE_URL` of a fake model, …). */
  env: Record<string, string>;
  /** The UI's and the CLI's language. */
  lang: 'en' | 'zh-CN';
  /**
   * Servers `setServers` adds are approved (true, default) or left `needs-approval` (false). The servers the test
   * starts with are approved either way: the app approves a config it sees for the first time.
   */
  approvedAll: boolean;
  /**
   * `page` waits for every server to settle (true, default); false hands the page over as soon as it is loaded (and
   * `serve` prints its line without `--wait-ready`): to watch servers while they start.
   */
  settle: boolean;
  /** `fail`: a test fails when its page throws or logs a `console.error` (see `allowPageErrors`); `ignore` (default). */
  pageErrors: 'fail' | 'ignore';
  /**
   * Headless mode: also a temporary `HOME` and XDG folders for the app and the servers it starts, the data folder the
   * app's default one under it (`HOME/.config/Switchboard`). False (default): only the data folder is the test's own
   * (servers keep your HOME, e.g. npx's cache). The desktop app always gets a temporary HOME.
   */
  isolateHome: boolean;
  /**
   * The Node arguments that run the `switchboard` command, in place of the package's own bin (e.g. `['--import',
   * 'tsx', 'src-main/cli/main.ts']` to run a checkout's source); used for `serve` and `cli()`. Headless mode only.
   */
  command: readonly string[] | undefined;
}

/** The app under test, started for one test (headless or desktop). */
interface Served {
  url: string;
  configPath: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The test's own folder: data folder, config, HOME (when made) all live under it. */
  root: string;
  output(): string;
  /** Stops the app now; the teardown's checks follow after the test. Once: later calls share it. */
  terminate(): Promise<void>;
  /** Desktop mode: the app's first window. */
  window?: Page;
}

/** Page errors seen, and those the test expects. */
interface PageErrorLog {
  seen: string[];
  allowed: RegExp[];
}

interface KitFixtures extends SwitchboardOptions {
  switchboardServe: Served;
  switchboardPageErrors: PageErrorLog;
  switchboard: Switchboard;
}

/** The package's own command: this file is out/kit/playwright.mjs, two folders below the package root. */
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(packageRoot, 'bin', 'switchboard.mjs');

interface Folder {
  root: string;
  dataDir: string;
  configPath?: string;
  /** HOME and XDG folders, when the app gets a HOME of its own. */
  homeEnv?: Record<string, string>;
}

/** A test's own folder: its data folder, its config when the test gives one, and (when asked) its HOME. */
function prepareFolder(servers: Record<string, ServerEntry> | undefined, configText: string | undefined, withHome: boolean): Folder {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-qa-'));
  let folder: Folder = { root, dataDir: join(root, 'data') };
  if (withHome) {
    const homeEnv = homeFolders(root);
    for (const dir of Object.values(homeEnv)) mkdirSync(dir, { recursive: true });
    // The app's default data folder under that HOME: what a person's first run would use.
    folder = { root, dataDir: join(homeEnv.XDG_CONFIG_HOME, 'Switchboard'), homeEnv };
  }
  if (servers === undefined && configText === undefined) return folder;
  mkdirSync(join(root, 'config'));
  const configPath = join(root, 'config', 'mcp.json');
  writeFileSync(configPath, configText ?? `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
  return { ...folder, configPath };
}

/** Page errors are collected from the moment the page exists. */
function watchPageErrors(page: Page, log: PageErrorLog): void {
  page.on('pageerror', (error) => log.seen.push(error.stack ?? error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') log.seen.push(`console.error: ${message.text()}`);
  });
}

/** After the test: a picture of a failed test's page, and (with `pageErrors: 'fail'`) no page error it did not expect. */
async function finishPage(page: Page, log: PageErrorLog, pageErrors: 'fail' | 'ignore', testInfo: TestInfo): Promise<void> {
  if (testInfo.status !== testInfo.expectedStatus) {
    const shot = await page.screenshot().catch(() => undefined);
    if (shot) await testInfo.attach('screenshot-at-failure', { body: shot, contentType: 'image/png' });
  }
  if (pageErrors === 'fail') {
    const unexpected = log.seen.filter((e) => !log.allowed.some((pattern) => pattern.test(e)));
    expect(unexpected, 'the page logged errors').toEqual([]);
  }
}

/** The leftover check, once the app is stopped: nothing it started (or naming the test's folder) may still run. */
async function judgeStopped(root: string, tree: Parameters<typeof endLeftovers>[0], stoppedCleanly: () => void): Promise<void> {
  const left = await endLeftovers(tree, root);
  rmSync(root, { recursive: true, force: true });
  stoppedCleanly();
  expect(left.map((p) => `${p.pid} ${p.args}`).join('\n') || '(none)', 'processes the test started outlived it').toBe('(none)');
}

const kitBase = base.extend<KitFixtures>({
  servers: [undefined, { option: true }],
  configText: [undefined, { option: true }],
  env: [{}, { option: true }],
  lang: ['en', { option: true }],
  approvedAll: [true, { option: true }],
  settle: [true, { option: true }],
  pageErrors: ['ignore', { option: true }],
  isolateHome: [false, { option: true }],
  command: [undefined, { option: true }],

  // eslint-disable-next-line no-empty-pattern
  switchboardPageErrors: async ({}, use) => {
    await use({ seen: [], allowed: [] });
  },

  // The browser's language is the UI's (until one is picked in Settings).
  locale: async ({ lang }, use) => {
    await use(lang);
  },

  // Each mode below gives its own. (Playwright reads a fixture's dependencies from its first parameter's pattern.)
  // eslint-disable-next-line no-empty-pattern
  switchboardServe: async ({}, _use) => {
    throw new Error('switchboard/playwright: no app for this mode');
  },

  switchboard: async ({ page, switchboardServe, switchboardPageErrors, approvedAll, command }, use) => {
    const { configPath, dataDir, url } = switchboardServe;
    const row = (name: string): Locator => serverRow(page, name);
    const sb: Switchboard = {
      configPath,
      dataDir,
      url,
      cli: (args) => runCli(command ?? [bin], ['--data-dir', dataDir, '--config', configPath, ...args], switchboardServe.env),
      async setServers(mcpServers) {
        // Written beside and renamed: the app never reads half a file.
        const temp = `${configPath}.kit-${process.pid}`;
        writeFileSync(temp, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
        renameSync(temp, configPath);
        const names = Object.keys(mcpServers);
        await expect(page.getByTestId('server-row')).toHaveCount(names.length, { timeout: 30_000 });
        for (const name of names) await expect(row(name)).toHaveCount(1);
        if (approvedAll) {
          for (const name of names) {
            await expect(row(name)).not.toHaveAttribute('data-status', 'starting', { timeout: 30_000 });
            if ((await row(name).getAttribute('data-status')) === 'needs-approval') await row(name).getByTestId('server-approve').click();
          }
        }
        await expectSettled(page, names);
      },
      chat: {
        send: (text) => sendChat(page, text),
        lastCall: () => page.locator(callCards).last(),
        async waitIdle() {
          const busy =
            '[data-testid="call-card"][data-state="pending"], [data-testid="tool-card"][data-status="running"], [data-testid="assistant-message"][data-status="streaming"], [data-testid="chat-stop"]';
          await expect(page.locator(busy)).toHaveCount(0, { timeout: 60_000 });
        },
      },
      servers: {
        row,
        async expectStatus(name, status) {
          await expect(row(name)).toHaveAttribute('data-status', status, { timeout: 30_000 });
        },
      },
      requests: {
        approve: () => page.locator(approveButtons).first().click(),
        decline: () => page.locator(declineButtons).first().click(),
      },
      terminate: () => switchboardServe.terminate(),
      allowPageErrors(pattern) {
        switchboardPageErrors.allowed.push(pattern);
      },
    };
    await use(sb);
  },
});

/** A call typed as `/tool {…}` (call-card), or one the model made (tool-card; approval-card while it waits for approval). */
const callCards = ['call-card', 'tool-card', 'approval-card'].map((id) => `[data-testid="${id}"]`).join(', ');
const approveButtons = ['approve-once', 'request-approve', 'request-accept', 'request-send'].map((id) => `[data-testid="${id}"]:visible`).join(', ');
const declineButtons = ['approve-deny', 'request-decline', 'request-cancel'].map((id) => `[data-testid="${id}"]:visible`).join(', ');

/** The config's server names when it is plain JSON (undefined for JSONC or a broken file: the page is then waited on as it is). */
function serverNames(configPath: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(configPath, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('mcpServers' in parsed)) return undefined;
    const servers: unknown = parsed.mcpServers;
    return typeof servers === 'object' && servers !== null ? Object.keys(servers) : undefined;
  } catch {
    return undefined;
  }
}

function parseReady(line: string): { url: string; configPath: string; dataDir: string } {
  const value: unknown = JSON.parse(line);
  if (typeof value !== 'object' || value === null) throw new Error(`not the JSON line of serve --json: ${line}`);
  const field = (name: string): string => {
    const v: unknown = (value as Record<string, unknown>)[name];
    if (typeof v !== 'string') throw new Error(`serve --json gave no "${name}": ${line}`);
    return v;
  };
  return { url: field('url'), configPath: field('configPath'), dataDir: field('dataDir') };
}

function runCli(command: readonly string[], args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Headless mode in Chromium: `switchboard --data-dir DIR [--config FILE] serve --port 0 --json --wait-ready`. */
const webTest = kitBase.extend<KitFixtures>({
  switchboardServe: async ({ servers, configText, env, lang, settle, isolateHome, command }, use, testInfo) => {
    const folder = prepareFolder(servers, configText, isolateHome);
    const args = ['--data-dir', folder.dataDir, ...(folder.configPath ? ['--config', folder.configPath] : [])];
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...folder.homeEnv, ...env, SWITCHBOARD_LANG: lang };
    delete childEnv.SWITCHBOARD_CONFIG;
    let host: HeadlessHost;
    try {
      host = await startHeadlessHost([...(command ?? [bin]), ...args, 'serve', '--port', '0', '--json', ...(settle ? ['--wait-ready'] : [])], {
        env: childEnv,
      });
    } catch (error) {
      rmSync(folder.root, { recursive: true, force: true });
      throw error;
    }
    const ready = parseReady(host.firstLine);
    await use({
      url: ready.url,
      configPath: ready.configPath,
      dataDir: ready.dataDir,
      env: childEnv,
      root: folder.root,
      output: host.output,
      terminate: async () => {
        await host.stop();
      },
    });

    // Stop first, judge after: a failed check must never leave anything running.
    const { exit, tree } = await host.stop();
    const output = host.output();
    if (output) await testInfo.attach('switchboard-output', { body: output, contentType: 'text/plain' });
    await judgeStopped(folder.root, tree, () => expect(exit, 'switchboard serve exits cleanly on SIGTERM').toEqual({ code: 0, signal: null }));
  },

  page: async ({ page, switchboardServe, switchboardPageErrors, settle, pageErrors }, use, testInfo) => {
    watchPageErrors(page, switchboardPageErrors);
    await page.goto(switchboardServe.url);
    if (settle) await expectSettled(page, serverNames(switchboardServe.configPath));
    await use(page);
    await finishPage(page, switchboardPageErrors, pageErrors, testInfo);
  },
});

/**
 * The desktop app through Playwright's Electron launcher, on a temporary HOME: `--data-dir DIR [--config FILE]
 * --lang=LANG`. Chromium is not used (the builtin `page` is not asked for).
 */
const electronTest = kitBase.extend<KitFixtures>({
  switchboardServe: async ({ servers, configText, env, lang }, use, testInfo) => {
    const electron = electronBinary(packageRoot);
    if (!electron)
      throw new Error(
        'SWITCHBOARD_KIT_MODE=electron, but no Electron binary: set SWITCHBOARD_KIT_ELECTRON_PATH to a packaged QA build, or install the electron package (with its binary) beside the kit.',
      );
    const folder = prepareFolder(servers, configText, true);
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...folder.homeEnv,
      ...env,
      SWITCHBOARD_LANG: lang,
      SWITCHBOARD_NO_UPDATES: '1',
    };
    delete childEnv.SWITCHBOARD_CONFIG;
    const args = [
      ...(electron.main ? [electron.main] : []),
      '--data-dir',
      folder.dataDir,
      ...(folder.configPath ? ['--config', folder.configPath] : []),
      `--lang=${lang}`,
    ];
    let desktop: DesktopApp;
    try {
      desktop = await launchDesktopApp({ executablePath: electron.executablePath, args, env: childEnv });
    } catch (error) {
      rmSync(folder.root, { recursive: true, force: true });
      throw error;
    }
    const configPath = folder.configPath ?? join(folder.dataDir, 'mcp.json');
    await use({
      url: desktop.page.url(),
      configPath,
      dataDir: folder.dataDir,
      env: childEnv,
      root: folder.root,
      output: desktop.output,
      terminate: async () => {
        await desktop.stop();
      },
      window: desktop.page,
    });

    const { closed, tree } = await desktop.stop();
    const output = desktop.output();
    if (output) await testInfo.attach('switchboard-output', { body: output, contentType: 'text/plain' });
    await judgeStopped(folder.root, tree, () => expect(closed, 'the app quits when closed').toBe(true));
  },

  page: async ({ switchboardServe, switchboardPageErrors, settle, pageErrors }, use, testInfo) => {
    const page = switchboardServe.window;
    if (!page) throw new Error('the desktop app has no window');
    watchPageErrors(page, switchboardPageErrors);
    if (settle) await expectSettled(page, serverNames(switchboardServe.configPath));
    await use(page);
    await finishPage(page, switchboardPageErrors, pageErrors, testInfo);
  },
});

/**
 * The kit's test: headless mode in Chromium or the desktop app, by {@link kitMode}; the same fixtures either way.
 * Typed from `@playwright/test` itself, so the shipped .d.ts names only the peer dependency a consumer installed
 * (left to inference, tsc named the package playwright/test, which a strict package manager does not resolve).
 */
export const test: TestType<PlaywrightTestArgs & PlaywrightTestOptions & KitFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions> =
  kitMode(packageRoot) === 'electron' ? electronTest : webTest;
