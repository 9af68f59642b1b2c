import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-shared/contract/chat';
import { calculatorPath } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

/** `switchboard call` is audited like the app's direct calls: a real process, the bundled calculator, the data folder's audit.jsonl. */

const cliArgs = ['--import', 'tsx', join(import.meta.dirname, 'main.ts')];

function cli(args: string[], home: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function auditOf(home: string): AuditEntry[] {
  return readFileSync(join(home, '.config', 'Switchboard', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEntry);
}

describe('switchboard call → audit log', () => {
  it('records each call (source cli, direct) with its outcome, arguments shortened like other entries, exit codes kept', () => {
    const home = tempDir();
    const config = join(home, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));

    const ok = cli(['--config', config, 'call', 'calculator', 'add', '{"a":2,"b":3}'], home);
    expect([ok.status, ok.stdout], ok.stderr).toEqual([0, '5\n']);
    const toolError = cli(['--config', config, 'call', 'calculator', 'divide', '{"a":1,"b":0}'], home);
    expect(toolError.status, toolError.stderr).toBe(1);
    const missing = cli(['--config', config, 'call', 'calculator', 'no-such-tool'], home);
    expect(missing.status, missing.stderr).toBe(1);
    // A long argument is shortened in the audit (the tool still gets all of it).
    const long = 'x'.repeat(5000);
    const longCall = cli(['--config', config, 'call', 'calculator', 'add', JSON.stringify({ a: 1, b: 2, note: long })], home);
    expect(longCall.status, longCall.stderr).not.toBe(2);

    const calls = auditOf(home).filter((e) => e.kind === 'call');
    expect(calls).toHaveLength(4);
    for (const entry of calls) {
      expect(entry).toMatchObject({ source: 'cli', direct: true, server: 'calculator' });
      expect(typeof entry.callId).toBe('string');
      expect(typeof entry.durationMs).toBe('number');
      expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    }
    const [add, divide, noSuch, withLong] = calls;
    expect(add).toMatchObject({ tool: 'add', args: '{"a":2,"b":3}', outcome: 'ok' });
    expect(divide).toMatchObject({ tool: 'divide', args: '{"a":1,"b":0}', outcome: 'tool-error' });
    expect(noSuch).toMatchObject({ tool: 'no-such-tool', args: '{}', outcome: 'failed' });
    expect(noSuch?.detail).toContain('no-such-tool');
    expect(withLong?.args).toContain('… (');
    expect(withLong?.args?.length).toBeLessThan(2100);
    expect(withLong?.args).not.toContain(long);
    // Different calls, different ids.
    expect(new Set(calls.map((e) => e.callId)).size).toBe(4);
  });
});
