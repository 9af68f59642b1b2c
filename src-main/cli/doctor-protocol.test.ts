// `switchboard doctor` says which protocol revision each server speaks and why: pinned by the entry's
// "protocolVersion", negotiated (auto), or auto fallen back to the 2025 era for a push-style server (remembered in
// era-cache.json). Against push-style-server.mjs, as the CLI runs it (its own HOME and data folder).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];
const fixture = join(__dirname, '..', 'core', 'fixtures', 'push-style-server.mjs');

function cli(args: string[], home: string): { status: number | null; stdout: string; stderr: string } {
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('doctor: the protocol line', () => {
  it('pinned, negotiated, and fallen back for push-style requests (text and --json)', () => {
    const home = tempDir();
    const config = join(home, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          auto: { command: process.execPath, args: [fixture] },
          pinned: { command: process.execPath, args: [fixture, '--pinned'], protocolVersion: '2025-06-18' },
          fellback: { command: process.execPath, args: [fixture, '--fell-back'], protocolVersion: 'auto' },
        },
      }),
    );
    // What an earlier run remembered for `fellback` (see era-fallback.ts): keyed by its command line.
    const dataDir = join(home, '.config', 'Switchboard');
    mkdirSync(dataDir, { recursive: true });
    const key = JSON.stringify([process.execPath, [fixture, '--fell-back'], process.cwd()]);
    writeFileSync(join(dataDir, 'era-cache.json'), JSON.stringify({ [key]: { kind: 'legacy', pushStyle: 'elicitation/create' } }));

    const text = cli(['--config', config, 'doctor'], home);
    expect(text.status, text.stderr).toBe(0);
    const block = (name: string): string => text.stdout.split(`] ${name} (stdio)`)[1]?.split('\n[')[0] ?? '';
    expect(block('auto')).toMatch(/\n {2}protocol: 2026-07-28 \(auto: negotiated\)\n/);
    expect(block('pinned')).toMatch(/\n {2}protocol: 2025-06-18 \(pinned by "protocolVersion" in the config\)\n/);
    expect(block('fellback')).toMatch(
      /\n {2}protocol: 2025-11-25 \(auto: fell back from 2026-07-28 because the server sends elicitation\/create to the host push-style\)\n/,
    );
    expect(block('pinned')).toMatch(/status: {2}ready, protocol 2025-06-18 \(legacy\)/);

    const json = cli(['--config', config, '--json', 'doctor'], home);
    const report = JSON.parse(json.stdout) as { servers: Array<Record<string, unknown>> };
    expect(report.servers.map(({ name, protocolVersion, protocolPin, eraFallback }) => ({ name, protocolVersion, protocolPin, eraFallback }))).toEqual([
      { name: 'auto', protocolVersion: '2026-07-28', protocolPin: 'auto', eraFallback: undefined },
      { name: 'pinned', protocolVersion: '2025-06-18', protocolPin: '2025-06-18', eraFallback: undefined },
      { name: 'fellback', protocolVersion: '2025-11-25', protocolPin: 'auto', eraFallback: 'elicitation/create' },
    ]);
  }, 90_000);

  it('a protocolVersion that is not a revision: the error names the entry and the allowed values', () => {
    const home = tempDir();
    const config = join(home, 'mcp.json');
    writeFileSync(config, '{\n  "mcpServers": {\n    "py": { "command": "python3", "protocolVersion": "2025-13-01" }\n  }\n}\n');
    const r = cli(['--config', config, 'doctor'], home);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `${config}:3:35: mcpServers.py.protocolVersion must be one of auto, 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, got a string ("2025-13-01")`,
    );
  }, 60_000);
});
