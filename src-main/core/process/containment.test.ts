import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupDirOf, Containment, detectCgroupBase } from './containment';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { pidsWith, tempDir, waitFor } from '../../test-support/processes';

const escapes = join(__dirname, '..', 'fixtures', 'escapes.mjs');
const base = detectCgroupBase();
const haveCgroup = base.ok;
const havePerl = existsSync('/usr/bin/perl') || existsSync('/bin/perl');

async function hostWith(servers: Record<string, unknown>, dataDir = tempDir()): Promise<Host> {
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return createHost({
    mode: 'headless',
    configPath: config,
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy: { restartBaseDelayMs: 100, graceMs: 300, startTimeoutMs: 10_000 },
  });
}

const view = async (host: Host, name: string) => (await host.api['servers:list']()).find((v) => v.name === name);

/** The cgroup v2 path of a live process, from /proc/PID/cgroup. */
function cgroupOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'))
      ?.slice(3);
  } catch {
    return undefined;
  }
}

function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return []; // gone meanwhile
  }
}

/** Our host directories left in the cgroup base (there must be none once every host is disposed). */
function hostDirs(): string[] {
  return base.ok ? readdirSync(base.dir).filter((n) => n.startsWith(`switchboard-${process.pid}-`)) : [];
}

describe('finding our cgroup v2 directory', () => {
  it('maps /proc/self/cgroup through the cgroup2 mount, including a hybrid layout and a mount of a subtree', () => {
    const hybrid = '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory';
    expect(cgroupDirOf('4:memory:/x\n0::/\n', hybrid)).toEqual({ dir: '/sys/fs/cgroup/unified' });
    expect(cgroupDirOf('0::/user.slice/user-1000.slice/app.scope\n', '25 1 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw')).toEqual({
      dir: '/sys/fs/cgroup/user.slice/user-1000.slice/app.scope',
    });
    // A container that sees only its own subtree mounted (mount root /docker/abc), and escaped spaces in the mount point.
    expect(cgroupDirOf('0::/docker/abc/inner\n', '25 1 0:22 /docker/abc /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw')).toEqual({
      dir: '/sys/fs/my cgroup/inner',
    });
    expect(cgroupDirOf('0::/elsewhere\n', '25 1 0:22 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw')).toMatchObject({
      reason: expect.stringContaining('not visible'),
      info: { code: 'cgroup-not-visible', data: { own: '/elsewhere', mounts: '/sys/fs/cgroup' } },
    });
    expect(cgroupDirOf('1:name=systemd:/\n', hybrid)).toMatchObject({ reason: expect.stringContaining('no cgroup v2') });
    expect(cgroupDirOf('0::/\n', '30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory')).toMatchObject({
      reason: 'no cgroup2 file system is mounted',
      info: { code: 'no-cgroup2-mount' },
    });
  });

  it('SWITCHBOARD_CONTAINMENT=process-group (and any platform without cgroups) falls back to process groups, saying why', () => {
    const off = new Containment('process-group');
    expect(off.describe()).toEqual({ kind: 'process-group', reason: 'turned off (SWITCHBOARD_CONTAINMENT=process-group)', reasonInfo: { code: 'turned-off' } });
    expect(off.scope('x')).toBeUndefined();
    off.dispose();
    const auto = new Containment('auto');
    expect(auto.describe()).toEqual(base.ok ? { kind: 'cgroup', path: base.dir } : { kind: 'process-group', reason: base.reason, reasonInfo: base.info });
    auto.dispose();
  });
});

describe.skipIf(!haveCgroup)(`the cgroup wrapper${haveCgroup ? '' : ` — skipped: ${base.ok ? '' : base.reason}`}`, () => {
  it('runs the exact argv inside the cgroup (no shell parsing of the user’s strings), and refuses to run when it cannot move', () => {
    const containment = new Containment('auto');
    try {
      const scope = containment.scope('argv test');
      expect(scope?.path).toMatch(/\/1-argv_test$/);
      const tricky = ['a b', '$HOME', '"q"', "it's", 'x\ny', '*', '`id`', '$(id)', '-e', '', ';exit 3'];
      const launch = scope?.wrap(process.execPath, [
        '-e',
        'console.log(JSON.stringify([process.argv.slice(1), require("node:fs").readFileSync("/proc/self/cgroup", "utf8")]))',
        ...tricky,
      ]);
      const r = spawnSync(launch?.command ?? '', launch?.args ?? [], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const [argv, cgroup] = JSON.parse(r.stdout) as [string[], string];
      expect(argv).toEqual(tricky);
      expect(
        `${base.ok ? base.dir : ''}${
          cgroup
            .split('\n')
            .find((l) => l.startsWith('0::'))
            ?.slice(3) ?? ''
        }`,
      ).toBe(scope?.path);
      if (scope) containment.release(scope);
      // The cgroup is gone: the server must not start uncontained.
      const refused = spawnSync(launch?.command ?? '', launch?.args ?? [], { encoding: 'utf8' });
      expect(refused.status).toBe(126);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('switchboard: cannot move the server into its cgroup');
    } finally {
      containment.dispose();
    }
    expect(hostDirs()).toEqual([]);
  });
});

describe.skipIf(!haveCgroup)(`ending a cgroup${haveCgroup ? '' : ` — skipped: ${base.ok ? '' : base.reason}`}`, () => {
  for (const killFile of [true, false]) {
    it(`ends a process that keeps forking, ${killFile ? 'with cgroup.kill' : 'pid by pid (kernels without cgroup.kill)'}`, async () => {
      const containment = new Containment('auto');
      const tag = `--tag=${tempDir()}`;
      try {
        const scope = containment.scope('forker');
        expect(scope).toBeDefined();
        if (!scope) return;
        // Each process starts one more (in a new session) and ignores SIGTERM: a chain that grows while it is ended.
        const forker = `process.on("SIGTERM", () => {}); setTimeout(() => require("node:child_process").spawn(process.execPath, ["-e", process.env.FORKER, ...process.argv.slice(1)], { stdio: "ignore", detached: true }), 20); setInterval(() => {}, 1000)`;
        const launch = scope.wrap(process.execPath, ['-e', forker, 'forker', tag]);
        spawn(launch.command, launch.args, { stdio: 'ignore', detached: true, env: { PATH: process.env.PATH ?? '', FORKER: forker } }).unref();
        await waitFor(() => scope.pids().length >= 10, 10_000, 'a growing tree');
        await scope.kill({ killFile });
        expect(scope.populated()).toBe(false);
        expect(pidsWith(tag)).toEqual([]);
        containment.release(scope);
        expect(existsSync(scope.path)).toBe(false);
      } finally {
        containment.dispose();
        for (const pid of pidsWith(tag)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        }
      }
    });
  }
});

describe.skipIf(process.platform !== 'linux' || !havePerl)(
  `without a cgroup (process groups only)${process.platform !== 'linux' ? ' — skipped: not Linux' : havePerl ? '' : ' — skipped: perl is not installed (the setpgid helper uses it)'}`,
  () => {
    let host: Host | undefined;
    const saved = process.env.SWITCHBOARD_CONTAINMENT;
    const tags: string[] = [];
    afterEach(async () => {
      await host?.dispose();
      host = undefined;
      if (saved === undefined) delete process.env.SWITCHBOARD_CONTAINMENT;
      else process.env.SWITCHBOARD_CONTAINMENT = saved;
      for (const pid of tags.splice(0).flatMap(pidsWith)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    });

    it('a setpgid helper still ends on stop: it left the group but not the session', async () => {
      process.env.SWITCHBOARD_CONTAINMENT = 'process-group';
      const tag = `--tag=${tempDir()}`;
      tags.push(tag);
      host = await hostWith({ s: { command: process.execPath, args: [escapes, '--mode=setpgid', tag] } });
      await host.settled();
      expect((await view(host, 's'))?.launch?.containment).toEqual({
        kind: 'process-group',
        reason: 'turned off (SWITCHBOARD_CONTAINMENT=process-group)',
        reasonInfo: { code: 'turned-off' },
      });
      await waitFor(() => pidsWith(tag).some((p) => argvOf(p).includes('setpgid-child')), 5000, 'the setpgid helper');
      await host.fleet.get('s').stop();
      expect(pidsWith(tag)).toEqual([]);
    });
  },
);

// Each fixture mode starts a helper that leaves the server's process group one way or another; with a cgroup per
// server, stop and dispose still end it. (Where no cgroup can be had these cannot hold: skipped, with the reason.)
describe.skipIf(!haveCgroup)(`escapes are contained by a cgroup per server${haveCgroup ? '' : ` — skipped: ${base.ok ? '' : base.reason}`}`, () => {
  let host: Host | undefined;
  const tags: string[] = [];
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    // Whatever a failed test left (escaped helpers included).
    for (const pid of tags.splice(0).flatMap(pidsWith)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  const modes = [
    { mode: 'setsid', helper: 'setsid-child' },
    { mode: 'setpgid', helper: 'setpgid-child', needs: havePerl ? undefined : 'perl is not installed' },
    { mode: 'daemon', helper: 'daemon' },
  ];

  for (const { mode, helper, needs } of modes) {
    it.skipIf(needs !== undefined)(
      `${mode}: the helper ends on stop, and again on host dispose after a restart${needs ? ` (skipped: ${needs})` : ''}`,
      async () => {
        const tag = `--tag=${tempDir()}`;
        tags.push(tag);
        host = await hostWith({ s: { command: process.execPath, args: [escapes, `--mode=${mode}`, tag] } });
        await host.settled();
        const s = await view(host, 's');
        expect(s?.status).toBe('ready');
        // doctor's field: this start's own cgroup, which the server is in.
        expect(s?.launch?.containment).toMatchObject({
          kind: 'cgroup',
          path: expect.stringMatching(new RegExp(`/switchboard-${process.pid}-\\d+-[0-9a-f]+/\\d+-s$`)),
        });
        expect(`${base.ok ? base.dir : ''}${cgroupOf(s?.pid ?? 0) ?? ''}`.replace(/\/+/g, '/')).toBe(s?.launch?.containment?.path);
        const helperLine = (): number[] => pidsWith(tag).filter((p) => argvOf(p).includes(helper));
        await waitFor(() => helperLine().length === 1, 5000, `the ${helper} process`);
        const [helperPid = 0] = helperLine();
        // It did leave the server's process group (that is the escape).
        const pgidOf = (pid: number): string | undefined => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[2];
        expect(pgidOf(helperPid)).not.toBe(String(s?.pid));

        await host.fleet.get('s').stop();
        expect(pidsWith(tag)).toEqual([]);

        await host.api['servers:restart']('s');
        await waitFor(() => helperLine().length === 1, 5000, `the ${helper} process after the restart`);
        await host.dispose();
        expect(pidsWith(tag)).toEqual([]);
        expect(hostDirs()).toEqual([]);
      },
    );
  }
});
