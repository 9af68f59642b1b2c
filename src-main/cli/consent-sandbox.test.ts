import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorPath, packageRoot } from '../core/support/paths';
import { findBubblewrap } from '../core/process/sandbox/bubblewrap';
import { tempDir } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];

function cli(args: string[], home: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const calculator = { command: process.execPath, args: [calculatorPath()] };

interface DoctorServer {
  name: string;
  status: string;
  approved?: boolean;
  consent?: { reason: string; command: string; args: string[] };
  sandbox?: { kind: string; network: boolean; read: string[] } | null;
}

describe('doctor: consent and sandbox', () => {
  it('runs an entry the app has not approved (the CLI never blocks a script) and lists it as not approved', () => {
    const home = tempDir();
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator } }));
    // The first sight of this config approves what it holds.
    const first = JSON.parse(cli(['--config', config, '--json', 'doctor'], home).stdout) as { servers: DoctorServer[] };
    expect(first.servers).toEqual([expect.objectContaining({ name: 'calculator', status: 'ready', approved: true })]);

    writeFileSync(config, JSON.stringify({ mcpServers: { calculator, pasted: { ...calculator, args: [calculatorPath(), '--debug'] } } }));
    const json = cli(['--config', config, '--json', 'doctor'], home);
    expect(json.status).toBe(0);
    const pasted = (JSON.parse(json.stdout) as { servers: DoctorServer[] }).servers.find((s) => s.name === 'pasted');
    expect(pasted).toMatchObject({
      status: 'ready',
      approved: false,
      consent: { reason: 'new', command: process.execPath, args: [calculatorPath(), '--debug'] },
    });
    const text = cli(['--config', config, 'doctor'], home);
    expect(text.stdout).toContain('Not approved in the app (it asks before starting them): pasted');
    expect(text.stdout).toMatch(/\[OK\] pasted \(stdio\)\n[\s\S]*consent: NOT APPROVED \(new\)/);
  });

  const bwrap = process.platform === 'linux' ? findBubblewrap(process.env.PATH) : { ok: false as const, reason: 'not Linux' };
  it.skipIf(!bwrap.ok)(bwrap.ok ? 'shows the sandbox in force' : `shows the sandbox in force (skipped: ${bwrap.reason})`, () => {
    const home = tempDir();
    const dir = tempDir();
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { boxed: { ...calculator, sandbox: { allowRead: ['data'], network: false } } } }));
    const json = cli(['--config', config, '--json', 'doctor'], home);
    expect(json.status).toBe(0);
    const [boxed] = (JSON.parse(json.stdout) as { servers: DoctorServer[] }).servers;
    // The calculator's own package (this checkout) is listed: the CLI runs in it, and the host's working folder is
    // hidden from sandboxes but for the server's own package in it.
    const read = [packageRoot(), join(dir, 'data')];
    expect(boxed).toMatchObject({ status: 'ready', sandbox: { kind: 'bubblewrap', network: false, read } });
    expect(cli(['--config', config, 'doctor'], home).stdout).toContain(
      `sandbox: bubblewrap: system read-only, home hidden, private /tmp; read: ${read.join(', ')}; write: -; network: no`,
    );
  });
});
