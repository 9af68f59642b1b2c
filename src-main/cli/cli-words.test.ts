import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMain, runCliSync, runPiped } from '../test-support/cli-process';
import { startFakeRemote } from '../test-support/fake-remote';
import { tempDir } from '../test-support/processes';

/* What the CLI says matches what is true: export and secrets Claude cannot resolve, doctor and a server that needs no
 * sign-in, the list table's ERROR column. */

const slowServer = join(import.meta.dirname, '..', 'core', 'fixtures', 'slow-server.mjs');

function configFile(servers: Record<string, unknown>): string {
  const file = join(tempDir(), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

describe('export to Claude with ${secret:…} references', () => {
  const servers = {
    weather: {
      command: 'npx',
      args: ['-y', 'weather-mcp', '--token=${secret:WEATHER_TOKEN}'],
      env: { API_KEY: '${secret:WEATHER_KEY}', PLAIN: 'x' },
    },
    calc: { command: 'node', args: ['calc.mjs'] },
  };

  it('keeps them and names each entry and field on stderr; --inline-secrets writes the values, the file made 0600', () => {
    const home = tempDir();
    const config = configFile(servers);
    const env = { HOME: home };
    expect(runCliSync(['secret', 'set', 'WEATHER_KEY', 'k-123'], env).status).toBe(0);
    expect(runCliSync(['secret', 'set', 'WEATHER_TOKEN', 't-456'], env).status).toBe(0);

    const kept = runCliSync(['--config', config, 'export'], env);
    expect(kept.status, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout).mcpServers.weather.env.API_KEY).toBe('${secret:WEATHER_KEY}');
    const warnings = kept.stderr.split('\n').filter(Boolean);
    expect(warnings).toHaveLength(2);
    expect(warnings.find((l) => l.includes('"weather" args[2]'))).toContain('${secret:WEATHER_TOKEN}');
    expect(warnings.find((l) => l.includes('"weather" env.API_KEY'))).toContain('--inline-secrets');

    const out = join(tempDir(), 'claude.json');
    const fd = openSync(out, 'w', 0o644);
    const inlined = spawnSync(process.execPath, ['--import', 'tsx', cliMain, '--config', config, 'export', '--inline-secrets'], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    closeSync(fd);
    expect(inlined.status, inlined.stderr).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { mcpServers: Record<string, { env?: Record<string, string>; args: string[] }> };
    expect(written.mcpServers.weather?.env).toEqual({ API_KEY: 'k-123', PLAIN: 'x' });
    expect(written.mcpServers.weather?.args[2]).toBe('--token=t-456');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(inlined.stderr).toContain('WEATHER_TOKEN, WEATHER_KEY');
    expect(inlined.stderr).toContain('0600');
  });

  it('--inline-secrets with a secret not set exits 1 naming it, and prints nothing', () => {
    const r = runCliSync(['--config', configFile(servers), 'export', '--inline-secrets'], {});
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('switchboard secret set WEATHER_KEY');
  });

  it('--inline-secrets is refused on other commands (exit 2)', () => {
    expect(runCliSync(['--config', configFile({}), 'list', '--inline-secrets'], {}).status).toBe(2);
  });
});

describe('doctor and list say what is true', () => {
  it('doctor: a local HTTP server that never asked for a sign-in needs none', async () => {
    const remote = await startFakeRemote();
    try {
      const home = tempDir();
      const config = configFile({ local: { url: remote.url } });
      const r = await runPiped([cliMain, '--config', config, 'doctor'], { PATH: process.env.PATH ?? '', HOME: home });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/sign-in:\s+no sign-in needed/);
      expect(r.stdout).not.toContain('not signed in');
    } finally {
      await remote.stop();
    }
  });

  it("list: a crashed server's ERROR cell shows its last stderr line, not the heading above it", () => {
    const marker = tempDir();
    mkdirSync(join(marker, 'm'));
    const config = configFile({ broken: { command: process.execPath, args: [slowServer, `--marker=${join(marker, 'm')}`, '--import-error'] } });
    const r = runCliSync(['--config', config, 'list'], {});
    expect(r.status, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith('broken'));
    expect(row).toContain("ModuleNotFoundError: No module named 'fastmcp'");
    expect(row).not.toMatch(/Last stderr lines:\s*$/);
  });
});
