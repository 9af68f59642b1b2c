import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

/** One-shot commands end before a server's lists could change: they never open the 2026-07-28 listen stream. */

const cliArgs = ['--import', 'tsx', join(import.meta.dirname, 'main.ts')];

function methodsSent(command: string[]): string[] {
  const home = tempDir();
  const config = join(home, 'mcp.json');
  const trace = join(home, 'trace.jsonl');
  writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
  const r = spawnSync(process.execPath, [...cliArgs, '--config', config, '--trace', trace, ...command], {
    env: { PATH: process.env.PATH ?? '', HOME: home },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.stringify(JSON.parse(line)))
    .flatMap((line) => [...line.matchAll(/"method":"([^"]+)"/g)].map((m) => m[1] ?? ''));
}

describe('one-shot CLI commands', () => {
  it.each([[['tools']], [['call', 'calculator', 'add', '{"a":2,"b":3}']]])('%j lists/calls without a subscriptions/listen request', (command) => {
    const methods = methodsSent(command);
    expect(methods).toContain(command[0] === 'tools' ? 'tools/list' : 'tools/call');
    expect(methods).not.toContain('subscriptions/listen');
  });
});
