import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPathOf, lockStaleMs, lockWaitMs } from '../core/support/file-lock';
import { packBundle } from '../test-support/bundle-fixture';
import { cliMain, runPiped, type Piped } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

/*
 * The data folder under concurrency: many CLI processes (real ones, started at once) changing the same files. Every
 * change lands, nothing is left behind, a dead holder's lock is taken over, and a lock held too long fails the writer
 * (exit 1) with a message saying so.
 */

const cli = (args: string[], home: string): Promise<Piped> =>
  runPiped([cliMain, ...args], { PATH: process.env.PATH ?? '', HOME: home }, { timeoutMs: 120_000 });
const dataDirOf = (home: string): string => join(home, '.config', 'Switchboard');
const secretsOf = (home: string): Record<string, string> => JSON.parse(readFileSync(join(dataDirOf(home), 'secrets.json'), 'utf8')) as Record<string, string>;
const configOf = (file: string): { mcpServers: Record<string, { env?: Record<string, string> }> } =>
  JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { env?: Record<string, string> }> };

function emptyConfig(): string {
  const file = join(tempDir(), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: {} }, null, 2));
  return file;
}

const holders: ChildProcess[] = [];
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL');
});

/**
 * Another process holding `file`'s lock the way a live writer does (proper-lockfile, refreshing it every second);
 * resolves once it holds it.
 */
function holdLock(file: string): Promise<ChildProcess> {
  const script = `
    require('proper-lockfile')
      .lock(process.argv[1], { realpath: false, lockfilePath: process.argv[2], stale: 2000, onCompromised: () => {} })
      .then(() => { process.stdout.write('held\\n'); setInterval(() => {}, 1000); }, (error) => { console.error(error); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script, file, lockPathOf(file)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before it held the lock`)));
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('the data folder under concurrency', () => {
  it('12 `secret set` at once: all exit 0 and all 12 are stored', async () => {
    const home = tempDir();
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => cli(['secret', 'set', `S${i + 1}`, `v${i + 1}`], home)));
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    expect(secretsOf(home)).toEqual(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`S${i + 1}`, `v${i + 1}`])));
  }, 180_000);

  it('8 bundle installs at once: 8 entries, each with its folder and secret, and no folder without an entry', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const bundles = Array.from({ length: 8 }, (_, i) => packBundle({ name: `x${i + 1}` }));
    const runs = await Promise.all(bundles.map((file, i) => cli(['--config', config, 'install', file, '--yes', '--set', `api_key=k${i + 1}`], home)));
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    const names = bundles.map((_, i) => `x${i + 1}`);
    expect(Object.keys(configOf(config).mcpServers).sort()).toEqual(names);
    const bundlesDir = join(dataDirOf(home), 'bundles');
    // One folder and one install record per entry; no unpacked copy left aside.
    expect(readdirSync(bundlesDir).sort()).toEqual([...names, ...names.map((n) => `${n}.install.json`)].sort());
    for (const name of names) expect(configOf(config).mcpServers[name]?.env?.BUNDLE_DIR).toBe(join(bundlesDir, name));
    expect(secretsOf(home)).toEqual(Object.fromEntries(names.map((n, i) => [`${n}.api_key`, `k${i + 1}`])));
  }, 240_000);

  it('the same bundle installed 8 times at once: one entry, one folder, nothing left aside', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const file = packBundle();
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => cli(['--config', config, 'install', file, '--yes', '--set', `api_key=k${i + 1}`], home)),
    );
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    expect(Object.keys(configOf(config).mcpServers)).toEqual(['greeter']);
    expect(readdirSync(join(dataDirOf(home), 'bundles')).sort()).toEqual(['greeter', 'greeter.install.json']);
    expect(Object.keys(secretsOf(home))).toEqual(['greeter.api_key']);
  }, 240_000);

  it('a lock left by a writer killed with SIGKILL is taken over: the next write waits for it to go stale, then lands', async () => {
    const home = tempDir();
    mkdirSync(dataDirOf(home), { recursive: true });
    const file = join(dataDirOf(home), 'secrets.json');
    const holder = await holdLock(file);
    holder.kill('SIGKILL');
    await exited(holder);
    expect(existsSync(lockPathOf(file))).toBe(true);
    const run = await cli(['secret', 'set', 'AFTER_CRASH', 'v'], home);
    expect(run.status, run.stderr).toBe(0);
    expect(secretsOf(home)).toEqual({ AFTER_CRASH: 'v' });
    expect(existsSync(lockPathOf(file))).toBe(false);
  }, 120_000);

  it(`a lock held by a live process past the wait (${lockWaitMs / 1000} s): the writer fails with exit 1, says why, and writes nothing`, async () => {
    expect(lockWaitMs).toBeGreaterThan(lockStaleMs);
    const home = tempDir();
    const first = await cli(['secret', 'set', 'BEFORE', 'v'], home);
    expect(first.status, first.stderr).toBe(0);
    const file = join(dataDirOf(home), 'secrets.json');
    const holder = await holdLock(file);
    const started = Date.now();
    const run = await cli(['secret', 'set', 'BLOCKED', 'v'], home);
    expect(Date.now() - started).toBeGreaterThanOrEqual(lockWaitMs);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Not saved: another Switchboard process is changing ${file}`);
    expect(run.stderr).toContain(`(it holds ${lockPathOf(file)})`);
    expect(run.stdout).not.toContain('Stored');
    expect(secretsOf(home)).toEqual({ BEFORE: 'v' });
    holder.kill('SIGKILL');
    await exited(holder);
  }, 120_000);
});
