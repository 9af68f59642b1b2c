import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

/** `switchboard apps`, and MCP Apps in `tools` and `call`, against the apps fixture (a real child process). */

const cliArgs = ['--import', 'tsx', join(import.meta.dirname, 'main.ts')];
const fixture = join(import.meta.dirname, '..', 'core', 'fixtures', 'apps-server.mjs');

function cli(args: string[], servers: Record<string, unknown>, home = tempDir()): { status: number | null; stdout: string; stderr: string } {
  const config = join(home, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const r = spawnSync(process.execPath, [...cliArgs, '--config', config, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_LANG: 'en' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const apps = { command: process.execPath, args: [fixture] };
/** A server that cannot start: `apps apps` must not start it. */
const missing = { command: join(tempDir(), 'no-such-program') };

describe('switchboard apps', () => {
  it('--json lists each tool with a UI (visibility, CSP, permissions); exit 1 for the invalid one, named on stderr', () => {
    const r = cli(['--json', 'apps', 'apps'], { apps, missing });
    expect(r.status, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.tool, row.resourceUri, row.visibility, row.status])).toEqual([
      ['show_clock', 'ui://apps/clock.html', ['model', 'app'], 'ok'],
      ['broken_view', 'ui://apps/broken.html', ['model', 'app'], 'invalid'],
      ['refresh_clock', 'ui://apps/clock.html', ['app'], 'ok'],
      ['slow_refresh', 'ui://apps/clock.html', ['app'], 'ok'],
    ]);
    expect(rows[0]).toMatchObject({
      server: 'apps',
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
    });
    expect(r.stderr).toContain('apps/broken_view');
    expect(r.stderr).toContain('text/html;profile=mcp-app');
    // Only the server named was started.
    expect(r.stderr).not.toContain('missing');
  });

  it('prints a table; exit 0 when every UI resource is valid, 1 when the server named is not ready, 2 for usage', () => {
    const table = cli(['apps'], { calc: { command: process.execPath, args: [calculatorPath()] } });
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('No tool of a ready server has an app');
    const withApps = cli(['apps', 'apps'], { apps });
    expect(withApps.stdout).toMatch(/SERVER\s+TOOL\s+UI RESOURCE\s+VISIBILITY\s+APP/);
    expect(withApps.stdout).toMatch(/refresh_clock\s+ui:\/\/apps\/clock\.html\s+app\s+ok/);
    expect(withApps.stdout).toContain('apps/show_clock: asks for clipboardWrite');
    expect(cli(['apps', 'missing'], { missing }).status).toBe(1);
    expect(cli(['apps', 'a', 'b'], { apps }).status).toBe(2);
  });

  it('tools marks the app-only tool and --json keeps _meta; call --json keeps the result _meta and refuses the app-only tool', () => {
    const home = tempDir();
    const table = cli(['tools', 'apps'], { apps }, home);
    expect(table.stdout).toContain('refresh_clock [app only]');
    const tools = JSON.parse(cli(['--json', 'tools', 'apps'], { apps }, home).stdout) as Array<{ name: string; _meta?: unknown }>;
    expect(tools.find((t) => t.name === 'refresh_clock')?._meta).toEqual({ ui: { resourceUri: 'ui://apps/clock.html', visibility: ['app'] } });
    const called = cli(['--json', 'call', 'apps', 'show_clock'], { apps }, home);
    expect(called.status, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ _meta: { 'example.com/stamp': 'fixed' } });
    const refused = cli(['call', 'apps', 'refresh_clock'], { apps }, home);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('only for its app');
  });
});
