// Shutdown and recovery through the CLI, as a person sees it: exit codes that hold whatever the servers do, and a
// host killed with SIGKILL whose leftovers the next command ends. Real processes throughout; every test kills what it
// started, even when it fails.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectCgroupBase } from '../core/process/containment';
import { pidsWith, tempDir, waitFor } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];
const fixtures = join(__dirname, '..', 'core', 'fixtures');
const escapes = join(fixtures, 'escapes.mjs');
const hostile = join(fixtures, 'hostile.mjs');
const base = detectCgroupBase();
const havePerl = existsSync('/usr/bin/perl') || existsSync('/bin/perl');
type Containment = 'auto' | 'process-group';

function configFile(servers: Record<string, unknown>): string {
  const file = join(tempDir(), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

function envFor(home: string, containment: Containment): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_CONTAINMENT: containment };
}

/**
 * A cgroup of the test's own below vitest's, for a test that SIGKILLs a host and expects its leftovers to wait for the
 * next command: a host's cgroups live below the cgroup it runs in, and every host that starts ends the cgroups of
 * dead hosts it finds there — so hosts of other test files running at the same time would otherwise end them first.
 * Removed after the test (once empty).
 */
function ownCgroup(): string | undefined {
  if (!base.ok) return undefined;
  const dir = join(base.dir, `shutdown-test-${process.pid}-${started.cgroups.length}-${Date.now()}`);
  mkdirSync(dir);
  started.cgroups.push(dir);
  return dir;
}

/** node … run in `cgroup` (moved there by a shell before it execs), or as it is. */
function command(args: string[], cgroup: string | undefined): [string, string[]] {
  if (cgroup === undefined) return [process.execPath, args];
  return ['/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, process.execPath, ...args]];
}

function cli(args: string[], home: string, containment: Containment = 'auto', cgroup?: string): { status: number | null; stdout: string; stderr: string } {
  const [file, argv] = command([...cliArgs, ...args], cgroup);
  const r = spawnSync(file, argv, { env: envFor(home, containment), encoding: 'utf8', timeout: 90_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return []; // gone meanwhile
  }
}

const runDir = (home: string): string => join(home, '.config', 'Switchboard', 'run');
const ledgers = (home: string): string[] => (existsSync(runDir(home)) ? readdirSync(runDir(home)) : []);

/** Hosts and tags the running test started: killed afterwards whatever happened. */
const started: { hosts: ChildProcess[]; tags: string[]; cgroups: string[] } = { hosts: [], tags: [], cgroups: [] };
afterEach(() => {
  for (const host of started.hosts) host.kill('SIGKILL');
  for (const tag of started.tags) {
    for (const pid of pidsWith(tag)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  for (const dir of started.cgroups) {
    try {
      rmdirSync(dir);
    } catch {
      // still holds something: left for the next host's orphan reaping
    }
  }
  started.hosts = [];
  started.tags = [];
  started.cgroups = [];
});

function newTag(): string {
  const tag = `--tag=${tempDir()}`;
  started.tags.push(tag);
  return tag;
}

/**
 * A CLI host kept busy by a long tool call (which starts that server alone), or, for `every`, by serve (which starts
 * them all), killed with SIGKILL once `ready` holds: a crash of ours.
 */
async function crashHostDuringCall(
  config: string,
  home: string,
  server: string | { every: true },
  containment: Containment,
  ready: () => boolean,
  cgroup?: string,
): Promise<number> {
  let env = envFor(home, containment);
  let work = ['serve', '--port', '0'];
  if (typeof server === 'string') work = ['call', server, 'sleep', '{"ms":120000}'];
  else {
    const ui = tempDir();
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>test UI</title>');
    env = { ...env, SWITCHBOARD_UI_DIR: ui };
  }
  const [file, argv] = command([...cliArgs, '--config', config, ...work], cgroup);
  const host = spawn(file, argv, { env, stdio: 'ignore' });
  started.hosts.push(host);
  const exited = new Promise((resolve) => host.once('exit', resolve));
  await waitFor(() => ready() && ledgers(home).length === 1, 30_000, 'the servers and the ledger of the host');
  host.kill('SIGKILL');
  await exited;
  return host.pid ?? 0;
}

describe('finding 5: exit codes and clean-up hold whatever the servers do', () => {
  for (const containment of ['process-group', 'auto'] as const) {
    it(`after the host is SIGKILLed with a SIGTERM-deaf server running, the next command prints its output and exits 0, and no process is left (${containment})`, async () => {
      const home = tempDir();
      const tag = newTag();
      const config = configFile({ deaf: { command: process.execPath, args: [escapes, '--mode=deaf', tag] } });
      const cgroup = containment === 'auto' ? ownCgroup() : undefined;
      // The server and its SIGTERM-deaf child; both ignore stdin EOF and the broken pipe, so they outlive the host.
      await crashHostDuringCall(config, home, 'deaf', containment, () => pidsWith(tag).length === 2, cgroup);
      expect(pidsWith(tag)).toHaveLength(2);

      const next = cli(['--config', config, '--json', 'list'], home, containment, cgroup);
      expect(next.status, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout)).toEqual([{ name: 'deaf', transport: 'stdio', status: 'ready', protocolVersion: '2025-06-18', tools: 3 }]);
      // The orphans were ended, and so was the copy `list` started itself (it needed SIGKILL too).
      expect(pidsWith(tag)).toEqual([]);
      expect(ledgers(home)).toEqual([]);
    });
  }

  it('`call` on a failing tool exits 1 every time, with a SIGTERM-deaf grandchild to tear down', () => {
    const home = tempDir();
    const tag = newTag();
    // npx-like launcher whose grandchild ignores SIGTERM: teardown must wait, then SIGKILL, before exiting.
    const config = configFile({ launched: { command: process.execPath, args: [hostile, '--mode=launcher', tag] } });
    const codes: Array<number | null> = [];
    for (let run = 0; run < 6; run++) {
      const r = cli(['--config', config, 'call', 'launched', 'pow', '{}'], home, run % 2 === 0 ? 'process-group' : 'auto');
      codes.push(r.status);
      expect(r.stderr).toContain('has no tool "pow"');
      expect(pidsWith(tag)).toEqual([]);
    }
    expect(codes).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('finding 6: a crashed host’s leftovers are reaped by process group even when the leader is gone', () => {
  it('an npx-like wrapper exits on stdin EOF and leaves its worker; the next start ends the worker', async () => {
    const home = tempDir();
    const tag = newTag();
    const config = configFile({ wrapped: { command: process.execPath, args: [escapes, '--mode=wrapper', tag] } });
    const worker = (): number[] => pidsWith(tag).filter((p) => argvOf(p).includes('worker'));
    // Process groups only (no cgroup): this is the fallback's own reaping.
    await crashHostDuringCall(config, home, 'wrapped', 'process-group', () => pidsWith(tag).length === 2);
    // The leader saw stdin close and left; its worker stays behind in the leaderless group.
    await waitFor(() => pidsWith(tag).length === 1, 10_000, 'the wrapper to exit');
    expect(worker()).toHaveLength(1);

    const next = cli(['--config', config, '--json', 'list'], home, 'process-group');
    expect(next.status, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject([{ name: 'wrapped', status: 'ready' }]);
    expect(pidsWith(tag)).toEqual([]);
    expect(ledgers(home)).toEqual([]);
  });
});

describe.skipIf(!base.ok)(`finding 7: servers whose helpers escape their process group${base.ok ? '' : ` — skipped: ${base.ok ? '' : base.reason}`}`, () => {
  it('setsid, setpgid and double-fork helpers of a SIGKILLed host are ended by the next start (their cgroups); doctor says cgroup', async () => {
    const home = tempDir();
    const tag = newTag();
    const modes = havePerl ? ['setsid', 'setpgid', 'daemon'] : ['setsid', 'daemon'];
    const helpers = { setsid: 'setsid-child', setpgid: 'setpgid-child', daemon: 'daemon' } as Record<string, string>;
    const config = configFile(Object.fromEntries(modes.map((mode) => [mode, { command: process.execPath, args: [escapes, `--mode=${mode}`, tag] }])));
    const helpersAlive = (): string[] => modes.filter((m) => pidsWith(tag).some((p) => argvOf(p).includes(helpers[m] ?? '?')));
    // All servers start with the host; it is killed once every helper runs.
    const cgroup = ownCgroup();
    const dead = await crashHostDuringCall(
      config,
      home,
      { every: true },
      'auto',
      () => helpersAlive().length === modes.length && pidsWith(tag).length === 2 * modes.length,
      cgroup,
    );
    // The servers exit on stdin EOF; their helpers do not.
    await waitFor(() => pidsWith(tag).length === modes.length, 10_000, 'the servers to exit');
    expect(helpersAlive()).toEqual(modes);

    const doctor = cli(['--config', config, '--json', 'doctor'], home, 'auto', cgroup);
    expect(doctor.status, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as { servers: Array<{ name: string; containment: { kind: string; path?: string } }> };
    for (const server of report.servers)
      expect(server.containment).toMatchObject({ kind: 'cgroup', path: expect.stringMatching(new RegExp(`/\\d+-${server.name}$`)) });
    expect(pidsWith(tag)).toEqual([]);
    // No cgroup of the dead host (nor of doctor, which is done) is left behind.
    const ours = (pid: number): string[] => readdirSync(cgroup ?? '/').filter((n) => n.startsWith(`switchboard-${pid}-`));
    expect(ours(dead)).toEqual([]);
    expect(report.servers.filter((s) => s.containment.path !== undefined && existsSync(s.containment.path))).toEqual([]);
  });

  it('doctor names the server’s own cgroup', () => {
    const config = configFile({ tiny: { command: process.execPath, args: [join(fixtures, 'tiny-server.mjs')] } });
    const r = cli(['--config', config, 'doctor'], tempDir());
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n {2}containment: cgroup v2 \(\/\S+\/switchboard-\d+-\d+-[0-9a-f]+\/1-tiny\): the whole tree ends with the server/);
  });
});

describe('doctor and the fallback', () => {
  it('says when containment falls back to process groups, and why (text and --json)', () => {
    const config = configFile({ tiny: { command: process.execPath, args: [join(fixtures, 'tiny-server.mjs')] } });
    const r = cli(['--config', config, 'doctor'], tempDir(), 'process-group');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '\n  containment: process group (turned off (SWITCHBOARD_CONTAINMENT=process-group)): children that leave the group or session can outlive the server\n',
    );
    const json = cli(['--config', config, '--json', 'doctor'], tempDir(), 'process-group');
    expect(JSON.parse(json.stdout)).toMatchObject({
      servers: [{ name: 'tiny', containment: { kind: 'process-group', reason: 'turned off (SWITCHBOARD_CONTAINMENT=process-group)' } }],
    });
  });
});
