// `serve --data-dir DIR --port 0 --json --wait-ready`: how a test harness (the QA kit, docs/testing.md) starts the app
// in a folder of its own and learns where it is, once every server has settled.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../src-shared/host-api';
import { calculatorPath } from '../core/support/paths';
import { openBridge } from '../test-support/bridge-client';
import { runCliSync } from '../test-support/cli-process';
import { tempDir, waitFor } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(import.meta.dirname, 'main.ts')];
const fixtures = join(import.meta.dirname, '..', 'core', 'fixtures');
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

/** Starts serve with `args` (a UI folder of the test's own: the real build may not exist yet); resolves with its first stdout line. */
async function serve(args: string[], home = tempDir()): Promise<{ child: ChildProcessWithoutNullStreams; line: string; home: string }> {
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test UI</title>');
  const child = spawn(process.execPath, [...cliArgs, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_UI_DIR: rendererDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  await waitFor(() => stdout.includes('\n') || child.exitCode !== null, 30_000, 'the first stdout line').catch((error: unknown) => {
    throw new Error(`${String(error)}\nstderr: ${stderr}`);
  });
  return { child, line: stdout.split('\n')[0] ?? '', home };
}

async function serversOf(url: string): Promise<ServerView[]> {
  const tab = await openBridge(url);
  try {
    const listed = await tab.call('servers:list', []);
    if (listed.kind !== 'response' || !listed.envelope.ok) throw new Error('servers:list failed');
    return listed.envelope.value as ServerView[];
  } finally {
    tab.close();
  }
}

const readySchema = (line: string): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>;

describe('serve --data-dir --port 0 --json --wait-ready', () => {
  it('runs in a new data folder (made 0700) with its first-run config, and prints where once the calculator is ready', async () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const { child, line, home } = await serve(['--data-dir', dataDir, 'serve', '--port', '0', '--json', '--wait-ready']);
    const ready = readySchema(line);
    expect(Object.keys(ready).sort()).toEqual(['configPath', 'dataDir', 'pid', 'sandboxOrigin', 'url']);
    expect(ready).toMatchObject({ pid: child.pid, dataDir, configPath: join(dataDir, 'mcp.json') });
    expect(String(ready.url)).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/\?token=/);
    expect(String(ready.sandboxOrigin)).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // A true first run: the bundled calculator, settled before the line was printed.
    expect(Object.keys((JSON.parse(readFileSync(join(dataDir, 'mcp.json'), 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['calculator']);
    expect((await serversOf(String(ready.url))).map((v) => [v.name, v.status])).toEqual([['calculator', 'ready']]);
    // Nothing in the app's own folder under HOME.
    expect(existsSync(join(home, '.config', 'Switchboard'))).toBe(false);
  }, 60_000);

  it('waits for a slow server and a failing one to settle before the line', async () => {
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          slow: { command: process.execPath, args: [join(fixtures, 'slow-server.mjs'), '--busy=1500'] },
          broken: { command: process.execPath, args: [join(fixtures, 'slow-server.mjs'), '--import-error'] },
          calculator: { command: process.execPath, args: [calculatorPath()] },
        },
      }),
    );
    const { line } = await serve(['--config', config, '--data-dir', tempDir(), 'serve', '--port', '0', '--json', '--wait-ready']);
    const ready = readySchema(line);
    expect(ready.configPath).toBe(config);
    const statuses = Object.fromEntries((await serversOf(String(ready.url))).map((v) => [v.name, v.status]));
    expect(statuses).toEqual({ slow: 'ready', broken: 'error', calculator: 'ready' });
  }, 60_000);

  it('--port 0 takes a free port even when the data folder remembers one', async () => {
    const dataDir = tempDir();
    const first = await serve(['--data-dir', dataDir, 'serve', '--port', '0', '--json']);
    const port = new URL(String(readySchema(first.line).url)).port;
    expect(JSON.parse(readFileSync(join(dataDir, 'serve.json'), 'utf8'))).toMatchObject({ port: Number(port) });
    // The first still holds its port: a second run on the same folder must not fail on it (nor wait for it).
    const second = await serve(['--data-dir', dataDir, 'serve', '--port', '0', '--json']);
    expect(new URL(String(readySchema(second.line).url)).port).not.toBe(port);
  }, 60_000);

  it('refuses --wait-ready elsewhere and an empty --data-dir (exit 2, with the help)', () => {
    const list = runCliSync(['--data-dir', tempDir(), 'list', '--wait-ready'], {});
    expect(list.status).toBe(2);
    expect(list.stderr).toContain('--wait-ready is an option of serve');
    const empty = runCliSync(['--data-dir=', 'list'], {});
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('--data-dir needs a value');
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const notAFolder = runCliSync(['--data-dir', join(file, 'data'), 'list'], {});
    expect(notAFolder.status).toBe(2);
    expect(notAFolder.stderr).toContain(`cannot use ${join(file, 'data')} as the data folder`);
  });

  it('puts every file of a one-shot command in the data folder', () => {
    const dataDir = tempDir();
    const r = runCliSync(['--data-dir', dataDir, 'call', 'calculator', 'add', '{"a":2,"b":3}'], {});
    expect([r.status, r.stdout]).toEqual([0, '5\n']);
    expect(existsSync(join(dataDir, 'mcp.json'))).toBe(true);
  });
});
