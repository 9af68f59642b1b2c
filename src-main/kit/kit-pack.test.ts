// SLOW (packs the package, installs it into a project of its own, runs Playwright in Chromium; about a minute or
// two): the QA kit works as an outside QA team gets it — `npm pack`, installed beside @playwright/test, a spec that
// imports `switchboard/playwright` and nothing of this checkout. Needs the build (out/renderer, out/cli, out/kit:
// `npm run build`) and a Chromium (CHROMIUM_PATH or /usr/bin/chromium): `npm run test:kit` runs it after the build.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/support/paths';
import { probeInitialize, serverNameOf } from '../test-support/initialize-probe';
import { tempDir } from '../test-support/processes';
import { testServerNames } from './testing';

const root = packageRoot();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const chromium = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const built = ['out/renderer/index.html', 'out/cli/main.mjs', 'out/kit/playwright.mjs', 'out/kit/testing.mjs'].every((f) => existsSync(join(root, f)));
/** This checkout's @playwright/test: the test project links it rather than downloading another copy. */
const playwrightDir = dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json'));

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', timeout: options.timeout ?? 60_000 });
  if (r.error) throw r.error;
  return r;
}

/** The package as `npm pack` in the checkout makes it, staged in a temp folder (prepack's build is already done). */
function stagePackage(): string {
  const stage = tempDir('switchboard-kit-pack-');
  for (const entry of ['package.json', 'bin', 'resources', 'README.md', 'out/cli', 'out/kit', 'out/renderer', 'out/main', 'out/preload']) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  return stage;
}

const firstRunSpec = `import { test, expect } from 'switchboard/playwright';

test('first run: /add gives 5', async ({ page, switchboard }) => {
  await switchboard.servers.expectStatus('calculator', 'ready');
  await switchboard.chat.send('/add {"a":2,"b":3}');
  await expect(switchboard.chat.lastCall()).toHaveAttribute('data-state', 'ok');
  await expect(switchboard.chat.lastCall().getByTestId('result-text')).toHaveText('5');
  const call = await switchboard.cli(['call', 'calculator', 'add', '{"a":1,"b":1}']);
  expect(call).toEqual({ code: 0, stdout: '2\\n', stderr: '' });
  await expect(page.getByTestId('chat-input')).toHaveValue('');
});
`;

const crashingSpec = `import { test, expect } from 'switchboard/playwright';
import { testServer } from 'switchboard/testing';

test.use({ servers: { crashing: testServer('crashing', { 'exit-code': 3, message: 'boom: no such database' }) } });

test('a crashing server: its status and why, its one stderr line shown once', async ({ switchboard }) => {
  const row = switchboard.servers.row('crashing');
  await expect(row).toHaveAttribute('data-status', /^(error|crash-loop)$/);
  await row.getByTestId('server-expand').click();
  await expect(row.getByTestId('server-error')).toContainText('exited with code 3');
  await expect(row.getByTestId('server-error')).toContainText('boom: no such database');
  await expect(row.getByTestId('server-stderr')).toHaveCount(0);
});
`;

const fakeModelSpec = `import { test as kit, expect } from 'switchboard/playwright';
import { startFakeModel, calculatorModel } from 'switchboard/testing';

const test = kit.extend({
  fake: async ({}, use) => {
    const fake = await startFakeModel({ script: calculatorModel() });
    await use(fake);
    await fake.close();
  },
  env: async ({ fake }, use) => {
    await use(fake.env);
  },
});

test('the model calls a tool; approved, it answers 5', async ({ page, switchboard, fake }) => {
  await expect(page.getByTestId('model-picker')).toHaveValue(fake.model);
  await switchboard.chat.send('what is 2+3');
  await expect(switchboard.chat.lastCall()).toHaveAttribute('data-status', 'awaiting-approval');
  await switchboard.requests.approve();
  await switchboard.chat.waitIdle();
  await expect(switchboard.chat.lastCall()).toHaveAttribute('data-status', 'done');
  await expect(switchboard.chat.lastCall().getByTestId('result-text')).toHaveText('5');
  expect(fake.requests[1]?.toolResults[0]?.content).toBe('5');
});
`;

/** lang, configText (JSONC) and setServers: a server added to the file is approved (approvedAll) and settles. */
const optionsSpec = `import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { test, expect } from 'switchboard/playwright';

const calculator = join(dirname(createRequire(import.meta.url).resolve('switchboard/package.json')), 'resources', 'calculator.mjs');
const entry = { command: process.execPath, args: [calculator] };

test.use({ lang: 'zh-CN', configText: '{\\n  // JSONC, with a comment\\n  "mcpServers": { "calc": ' + JSON.stringify(entry) + ' }\\n}\\n' });

test('in Chinese, on a JSONC config; a server added later is approved and ready', async ({ switchboard }) => {
  await switchboard.servers.expectStatus('calc', 'ready');
  await expect(switchboard.servers.row('calc').getByTestId('server-status')).toHaveText('就绪');
  await switchboard.setServers({ calc: entry, second: entry });
  await switchboard.servers.expectStatus('second', 'ready');
  const list = await switchboard.cli(['--json', 'list']);
  expect(list.code).toBe(0);
  expect(JSON.parse(list.stdout).map((s) => s.name)).toEqual(['calc', 'second']);
});
`;

/** settle: false, pageErrors: 'fail' with allowPageErrors, isolateHome, terminate(): what the project's own e2e uses. */
const hostGoneSpec = `import { test, expect } from 'switchboard/playwright';

test.use({ settle: false, pageErrors: 'fail', isolateHome: true });

test('a HOME of its own; when the app goes away the page says so', async ({ page, switchboard }) => {
  expect(switchboard.dataDir).toMatch(/[\\\\/]home[\\\\/][.]config[\\\\/]Switchboard$/);
  await switchboard.servers.expectStatus('calculator', 'ready');
  switchboard.allowPageErrors(/./);
  await switchboard.terminate();
  await expect(page.getByTestId('disconnected-banner')).toBeVisible();
});
`;

// Run by `npm run test:kit` (after the build, in `npm test`), where a missing build or Chromium fails the test; the
// unit run leaves this file out (vitest.config.ts: it runs before the build).
describe('the QA kit from outside', () => {
  it('has what it needs: the build and a Chromium', () => {
    expect(built, 'out/renderer, out/cli and out/kit: run npm run build first').toBe(true);
    expect(chromium, 'a Chromium: CHROMIUM_PATH or /usr/bin/chromium').toBeDefined();
  });

  it.each(testServerNames.filter((name) => name !== 'crashing'))('the test server %s answers initialize as bundled in out/kit', async (name) => {
    const ran = await probeInitialize({ command: process.execPath, args: [join(root, 'out', 'kit', 'test-servers', `${name}.mjs`)] });
    expect(serverNameOf(ran.answer), ran.stderr).toEqual(expect.any(String));
  });

  it('packs, installs beside @playwright/test, and runs five specs green in Chromium', { timeout: 600_000 }, () => {
    const stage = stagePackage();
    const packed = run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', stage], { cwd: stage });
    expect(packed.status, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = (info?.files ?? []).map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'out/kit/playwright.mjs',
        'out/kit/playwright.d.ts',
        'out/kit/testing.mjs',
        'out/kit/testing.d.ts',
        'out/kit/test-servers/crashing.mjs',
        'out/kit/test-servers/many-tools.mjs',
        'out/cli/main.mjs',
        'out/renderer/index.html',
      ]),
    );

    const project = tempDir('switchboard-qa-project-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'qa-project', private: true, type: 'module' }, null, 2));
    const installed = run(npm, ['install', join(stage, info?.filename ?? ''), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
      env: { ...process.env, npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? project, '.npm') },
      timeout: 300_000,
    });
    expect(installed.status, installed.stderr).toBe(0);
    // @playwright/test as the project's own dependency: linked from this checkout (offline), one copy for kit and runner.
    mkdirSync(join(project, 'node_modules', '@playwright'), { recursive: true });
    symlinkSync(playwrightDir, join(project, 'node_modules', '@playwright', 'test'), 'dir');

    writeFileSync(
      join(project, 'playwright.config.js'),
      `export default {
  testDir: 'tests',
  workers: 1,
  timeout: 90_000,
  use: { browserName: 'chromium', launchOptions: { executablePath: ${JSON.stringify(chromium)}, args: ['--no-sandbox', '--disable-gpu'] } },
};
`,
    );
    mkdirSync(join(project, 'tests'));
    writeFileSync(join(project, 'tests', 'first-run.spec.js'), firstRunSpec);
    writeFileSync(join(project, 'tests', 'crashing.spec.js'), crashingSpec);
    writeFileSync(join(project, 'tests', 'fake-model.spec.js'), fakeModelSpec);
    writeFileSync(join(project, 'tests', 'options.spec.js'), optionsSpec);
    writeFileSync(join(project, 'tests', 'host-gone.spec.js'), hostGoneSpec);

    const started = Date.now();
    const result = run(process.execPath, [join(project, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=line'], {
      cwd: project,
      env: { ...process.env, CI: '1' },
      timeout: 240_000,
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('5 passed');
    expect(Date.now() - started).toBeLessThan(240_000);
  });
});
