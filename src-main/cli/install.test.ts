import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packBundle } from '../test-support/bundle-fixture';
import { evilDoc, startFakeRegistry, type FakeRegistry } from '../test-support/fake-registry';
import { hasTerminal, runOnTerminal, runPiped, type Piped } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

const main = join(import.meta.dirname, 'main.ts');

/** The CLI as a child (asynchronously: the registry it talks to answers from this process). */
function cli(args: string[], home: string): Promise<Piped> {
  return runPiped([main, ...args], { PATH: process.env.PATH ?? '', HOME: home });
}

function emptyConfig(): string {
  const file = join(tempDir(), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: {} }, null, 2));
  return file;
}

const configOf = (file: string): { mcpServers: Record<string, Record<string, unknown>> } =>
  JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
const secretsOf = (home: string): Record<string, string> =>
  JSON.parse(readFileSync(join(home, '.config', 'Switchboard', 'secrets.json'), 'utf8')) as Record<string, string>;

let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(() => registry.close());

describe('switchboard registry', () => {
  it('search: one row per server (name, version, kinds, status), --json the whole page', async () => {
    const home = tempDir();
    const r = await cli(['--config', emptyConfig(), 'registry', 'search', 'weather', '--registry', registry.url], home);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/io\.github\.example\/weather\s+1\.4\.2\s+npm\s+active\s+Forecasts/);
    expect(r.stdout).toMatch(/io\.github\.example\/old-weather\s+0\.9\.0\s+npm\s+deprecated/);
    const json = await cli(['--json', '--config', emptyConfig(), 'registry', 'search', 'notes', '--registry', registry.url], home);
    expect(JSON.parse(json.stdout)).toMatchObject({ registry: registry.url, servers: [{ name: 'com.example/notes', kinds: ['remote'], status: 'active' }] });
  });

  it('add: shows the full command; without a terminal it needs --set for required values and --yes to add', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const base = ['--config', config, 'registry', 'add', 'io.github.example/weather', '--registry', registry.url];
    const missing = await cli(base, home);
    expect(missing.status).toBe(2);
    expect(missing.stdout).toContain('npx -y @example/weather-mcp@1.4.2 --units=<units>');
    expect(missing.stderr).toContain('needs WEATHER_API_KEY: give --set WEATHER_API_KEY=VALUE');
    const unconfirmed = await cli([...base, '--set', 'WEATHER_API_KEY=k-9'], home);
    expect([unconfirmed.status, unconfirmed.stdout.includes('Nothing added. Re-run with --yes')]).toEqual([0, true]);
    expect(configOf(config).mcpServers).toEqual({});
    const added = await cli([...base, '--set', 'WEATHER_API_KEY=k-9', '--set', 'units=imperial', '--yes'], home);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain('Stored as secrets: weather.WEATHER_API_KEY');
    expect(added.stdout).toContain('asks you to approve it before it starts it');
    expect(configOf(config).mcpServers.weather).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2', '--units=imperial'],
      env: { WEATHER_API_KEY: '${secret:weather.WEATHER_API_KEY}' },
    });
    expect(secretsOf(home)['weather.WEATHER_API_KEY']).toBe('k-9');
    // The value is never written into the config file.
    expect(readFileSync(config, 'utf8')).not.toContain('k-9');
    const again = await cli([...base, '--set', 'WEATHER_API_KEY=k', '--yes'], home);
    expect([again.status, again.stderr]).toEqual([2, expect.stringContaining('A server named "weather" is already in the config')]);
  });

  it('deprecated and deleted entries are refused (exit 1); an unknown name says how to find one', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const old = await cli(['--config', config, 'registry', 'add', 'io.github.example/old-weather', '--yes', '--registry', registry.url], home);
    expect([old.status, old.stderr]).toEqual([
      1,
      expect.stringContaining('is deprecated in the registry (use io.github.example/weather); it is not installed'),
    ]);
    const gone = await cli(['--config', config, 'registry', 'add', 'io.github.example/gone', '--yes', '--registry', registry.url], home);
    expect([gone.status, gone.stderr]).toEqual([1, expect.stringContaining('was deleted from the registry')]);
    const unknown = await cli(['--config', config, 'registry', 'add', 'io.github.example/nope', '--registry', registry.url], home);
    expect([unknown.status, unknown.stderr]).toEqual([2, expect.stringContaining('switchboard registry search TERM')]);
    expect(configOf(config).mcpServers).toEqual({});
    const usage = await cli(['registry', 'frobnicate'], home);
    expect([usage.status, usage.stderr]).toEqual([2, expect.stringContaining('registry needs search TERM or add NAME')]);
  });

  it('an entry whose npm identifier is a URL is refused (exit 1), naming the field, the value and the rule; nothing is added', async () => {
    const local = await startFakeRegistry([evilDoc]);
    try {
      const home = tempDir();
      const config = emptyConfig();
      const r = await cli(['--config', config, 'registry', 'add', 'com.example/evil', '--yes', '--registry', local.url], home);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`the npm package's identifier "https://evil.example/pkg.tgz#" is not an npm package name (lowercase letters`);
      expect(r.stdout).not.toContain('npx');
      expect(configOf(config).mcpServers).toEqual({});
    } finally {
      await local.close();
    }
  });
});

describe('switchboard install / uninstall (a bundle packed with the official mcpb CLI)', () => {
  it('installs, the server runs with its values (the secret by reference), uninstall removes files and entry', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const file = packBundle();
    const installed = await cli(['--config', config, 'install', file, '--yes', '--set', 'api_key=secret-1', '--set', 'greeting=Howdy'], home);
    expect(installed.status, installed.stderr).toBe(0);
    const folder = join(home, '.config', 'Switchboard', 'bundles', 'greeter');
    expect(installed.stdout).toContain(`node ${folder}/server/index.mjs`);
    expect(existsSync(join(folder, 'manifest.json'))).toBe(true);
    expect(configOf(config).mcpServers.greeter?.env).toEqual({ GREETER_KEY: '${secret:greeter.api_key}', GREETING: 'Howdy', BUNDLE_DIR: folder });
    const call = await cli(['--config', config, 'call', 'greeter', 'greet', '{"who":"Ann"}'], home);
    expect([call.status, call.stdout.trim()]).toEqual([0, `Howdy, Ann (key given, dir ${folder})`]);
    const removed = await cli(['--config', config, 'uninstall', 'greeter'], home);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Deleted its secrets: greeter.api_key');
    expect(existsSync(folder)).toBe(false);
    expect(configOf(config).mcpServers).toEqual({});
    expect((await cli(['--config', config, 'uninstall', 'greeter'], home)).status).toBe(2);
  });
});

describe.skipIf(!hasTerminal)(`registry add on a terminal${hasTerminal ? '' : ' — skipped: /usr/bin/script is not installed, so there is no terminal'}`, () => {
  it('asks for each value (the secret one without echo) and for a yes before adding', async () => {
    const home = tempDir();
    const config = emptyConfig();
    const answers: Array<[RegExp, string]> = [
      [/Units \(metric\/imperial\)|units.*\[metric\]: $/m, '\r'],
      [/WEATHER_API_KEY \(secret, not shown\): $/m, 'typed-secret\r'],
      [/WEATHER_CITY \(optional, Enter to skip\): $/m, 'Oslo\r'],
      [/Add "weather"\? \[y\/N\] $/m, 'y\r'],
    ];
    const run = await runOnTerminal(
      [main, '--config', config, 'registry', 'add', 'io.github.example/weather', '--registry', registry.url],
      { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb' },
      answers,
    );
    expect(run.status, run.output).toBe(0);
    expect(run.output).not.toContain('typed-secret');
    expect(configOf(config).mcpServers.weather).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2', '--units=metric'],
      env: { WEATHER_API_KEY: '${secret:weather.WEATHER_API_KEY}', WEATHER_CITY: 'Oslo' },
    });
    expect(secretsOf(home)['weather.WEATHER_API_KEY']).toBe('typed-secret');
  });
});
