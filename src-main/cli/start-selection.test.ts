import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/processes';

/*
 * A command starts only the servers it names, checks its arguments before starting any, and ends promptly once its
 * work is done. Each server here is slow-server.mjs, which leaves a marker file per process it ran as.
 */

const cliArgs = ['--import', 'tsx', join(import.meta.dirname, 'main.ts')];
const slowServer = join(import.meta.dirname, '..', 'core', 'fixtures', 'slow-server.mjs');

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A home with a config of these servers (each one slow-server.mjs with these arguments and a marker folder). */
function setUp(
  servers: Record<string, string[]>,
  settings?: unknown,
  disabled: string[] = [],
): { cli: (...args: string[]) => Run; started: (name: string) => number } {
  const home = tempDir();
  const config = join(home, 'mcp.json');
  const entries: Record<string, unknown> = {};
  for (const [name, args] of Object.entries(servers)) {
    const marker = join(home, `markers-${name}`);
    mkdirSync(marker);
    entries[name] = {
      command: process.execPath,
      args: [slowServer, `--marker=${marker}`, `--name=${name}`, ...args],
      ...(disabled.includes(name) ? { disabled: true } : {}),
    };
  }
  writeFileSync(config, JSON.stringify({ mcpServers: entries }));
  if (settings !== undefined) {
    mkdirSync(join(home, '.config', 'Switchboard'), { recursive: true });
    writeFileSync(join(home, '.config', 'Switchboard', 'config.json'), JSON.stringify(settings));
  }
  return {
    cli: (...args) => {
      const r = spawnSync(process.execPath, [...cliArgs, '--config', config, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: home },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
    },
    started: (name) => readdirSync(join(home, `markers-${name}`)).length,
  };
}

const neighbours = { slow1: ['--busy=1500'], slow2: ['--busy=1500'], never: ['--never-ready'] };

describe('the CLI starts only what a command names', () => {
  it('call SERVER TOOL starts that server alone, not its slow or never-ready neighbours', () => {
    const { cli, started } = setUp({ tiny: [], ...neighbours });
    const r = cli('call', 'tiny', 'echo', '{"text":"hi"}');
    expect([r.status, r.stdout], r.stderr).toEqual([0, 'tiny:hi\n']);
    expect(started('tiny')).toBe(1);
    expect(['slow1', 'slow2', 'never'].map(started)).toEqual([0, 0, 0]);
  });

  it('usage errors exit 2 before any server starts: an unknown server (the configured names listed), bad ARGS_JSON', () => {
    const { cli, started } = setUp({ tiny: [], ...neighbours });
    const unknown = cli('call', 'nosuch', 'x');
    expect(unknown.status, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('"nosuch"');
    expect(unknown.stderr).toContain('tiny, slow1, slow2, never');
    const notJson = cli('call', 'tiny', 'echo', '{text:');
    expect(notJson.status, notJson.stderr).toBe(2);
    expect(notJson.stderr).toContain('ARGS_JSON');
    const notObject = cli('call', 'tiny', 'echo', '[1]');
    expect(notObject.status, notObject.stderr).toBe(2);
    expect(['tiny', 'slow1', 'slow2', 'never'].map(started)).toEqual([0, 0, 0, 0]);
  });

  it('a one-shot call ends without waiting out the grace for a server asking roots/list after the result', () => {
    // The longest grace (60 s): a host that waited it out on the server's own request would reach the run's 60 s
    // limit and be killed (a signal, no status), so finishing at all is the check — no duration is compared.
    const { cli, started } = setUp({ tiny: ['--ask-roots-after-call=300'] }, { supervision: { graceMs: 60_000 } });
    const r = cli('call', 'tiny', 'echo', '{"text":"hi"}');
    expect([r.status, r.signal, r.stdout], r.stderr).toEqual([0, null, 'tiny:hi\n']);
    expect(started('tiny')).toBe(1);
  }, 90_000);

  it('a server that fails on its own before any protocol byte is started once, its stderr line shown once', () => {
    const { cli, started } = setUp({ broken: ['--import-error'] });
    const r = cli('--json', 'list');
    expect(r.status, r.stderr).toBe(0);
    expect(started('broken')).toBe(1);
    const [row] = JSON.parse(r.stdout) as Array<{ status: string; error: string }>;
    expect(row?.status).toBe('error');
    expect((row?.error ?? '').split("No module named 'fastmcp'").length - 1).toBe(1);
  });

  it('tools with no server, when every server failed, says why and exits 1', () => {
    const { cli } = setUp({ broken: ['--import-error'], other: ['--import-error'] });
    const r = cli('tools');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^broken: [^]*No module named 'fastmcp'/m);
    expect(r.stderr).toMatch(/^other: /m);
  });

  it('tools SERVER on a disabled server says so and exits 1, starting nothing', () => {
    const { cli, started } = setUp({ tiny: [], off: [] }, undefined, ['off']);
    const r = cli('tools', 'off');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^off: /m);
    expect(['tiny', 'off'].map(started)).toEqual([0, 0]);
  });
});
