import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as kitTest, expect } from '../src-main/kit/playwright';
import { homeFolders } from '../src-main/kit/home';
import { kitMode } from '../src-main/kit/mode';

/*
 * This project's specs run on the QA kit's own fixture (src-main/kit/playwright.ts, docs/testing.md): one fixture for
 * them and for QA teams. What is added here is only this project's way of using it: the CLI run from source (no CLI
 * build needed between edits), a temporary HOME, pages handed over before the servers settle (specs watch them
 * start), page errors failing a test, a default config with a broken server beside the calculator, and the names the
 * specs were written with (`mcpServers`, `hostEnv`, `host`).
 */

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const calculatorScript = join(repoRoot, 'resources', 'calculator.mjs');

export type HostMode = 'web' | 'electron';

/** A servers-config entry as the specs write it (the Claude-Desktop format); a type, so it is one of the kit's entries. */
export type ServerConfig = {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
};

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
  /** The project (`web` or `electron`); a project whose mode is not the kit's this run is skipped. */
  hostMode: HostMode;
  /** The kit's `servers`: the `mcpServers` written to the temp config; override with `test.use({ mcpServers: … })`. */
  mcpServers: Record<string, ServerConfig>;
  /** The kit's `env`: extra environment for the host (e.g. `OPENAI_BASE_URL` of a fake provider). */
  hostEnv: Record<string, string>;
}

/** The kit's `switchboard` handle as the specs knew it. */
export interface HostHandle {
  mode: HostMode;
  /** The test's own temp folder; every path the host gets lives under it (HOME is `dir/home`). */
  dir: string;
  configPath: string;
  /** Stops the host now (teardown still checks that it exited cleanly and left nothing). */
  terminate(): Promise<void>;
  /** Extra environment the host process gets. */
  env: Record<string, string>;
  /** Page errors matching this are expected by the test (any other fails it). */
  allowPageErrors(pattern: RegExp): void;
}

/** The HOME and XDG folders the kit gives a test's host (`isolateHome`): also for a CLI process that shares its data. */
export const isolatedDirs = homeFolders;

/** The mode of this run (SWITCHBOARD_KIT_MODE; playwright.config.ts makes it `web` unless set). */
const runMode = kitMode(repoRoot);

interface E2eFixtures {
  mcpServers: Record<string, ServerConfig>;
  hostEnv: Record<string, string>;
  host: HostHandle;
  hostModeCheck: void;
}

export const test = kitTest.extend<E2eFixtures, { hostMode: HostMode }>({
  hostMode: ['web', { option: true, scope: 'worker' }],
  mcpServers: [defaultServers(), { option: true }],
  hostEnv: [{}, { option: true }],

  servers: async ({ mcpServers }, use) => {
    await use(mcpServers);
  },
  env: async ({ hostEnv }, use) => {
    await use(hostEnv);
  },
  settle: false,
  pageErrors: 'fail',
  isolateHome: true,
  // From source: a spec sees the CLI as it is now, without a rebuild of the CLI bundle.
  command: ['--import', 'tsx', join(repoRoot, 'src-main', 'cli', 'main.ts')],

  // Before any app starts: a project whose mode is not this run's is skipped, with the way to run it.
  hostModeCheck: [
    async ({ hostMode }, use) => {
      test.skip(hostMode !== runMode, `this run drives the ${runMode} app: run the ${hostMode} project with SWITCHBOARD_KIT_MODE=${hostMode}`);
      await use();
    },
    { auto: true },
  ],

  host: async ({ hostMode, switchboardServe, switchboardPageErrors, hostEnv }, use) => {
    await use({
      mode: hostMode,
      dir: switchboardServe.root,
      configPath: switchboardServe.configPath,
      env: hostEnv,
      terminate: () => switchboardServe.terminate(),
      allowPageErrors(pattern) {
        switchboardPageErrors.allowed.push(pattern);
      },
    });
  },
});

export { expect };
