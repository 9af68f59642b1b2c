import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Containment } from './containment';
import { ChildLedger } from './ledger';
import { processStartTime } from './tree';
import { alive, pidsWith, tempDir, waitFor } from '../../test-support/processes';

const linux = process.platform === 'linux';
const tags: string[] = [];
afterEach(() => {
  for (const tag of tags.splice(0)) {
    for (const pid of pidsWith(tag)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
});

/**
 * Like an npx wrapper: a process-group (and session) leader that starts a worker in its group and then exits.
 * Returns the leader's pid and start time (read while it lived) and the worker's pid.
 */
async function leaderlessGroup(): Promise<{ leader: number; leaderStart: string; worker: number; tag: string }> {
  const tag = `--tag=${tempDir()}`;
  tags.push(tag);
  const script = `require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "worker", ${JSON.stringify(tag)}], { stdio: "ignore" }); process.stdin.once("data", () => process.exit(0))`;
  const leader = spawn(process.execPath, ['-e', script, 'leader', tag], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  await waitFor(() => pidsWith(tag).length === 2, 5000, 'leader and worker');
  const leaderStart = processStartTime(leader.pid ?? 0) ?? '';
  const worker = pidsWith(tag).find((p) => p !== leader.pid) ?? 0;
  const exited = new Promise((resolve) => leader.once('exit', resolve));
  leader.stdin?.end('go\n');
  await exited;
  expect(alive(leader.pid ?? 0)).toBe(false);
  expect(pidsWith(tag)).toEqual([worker]);
  return { leader: leader.pid ?? 0, leaderStart, worker, tag };
}

function deadHostLedger(children: unknown[], owner: Record<string, unknown> = {}): string {
  const dir = join(tempDir(), 'run');
  mkdirSync(dir);
  writeFileSync(join(dir, '999999.json'), JSON.stringify({ owner: { pid: 999999, startTime: '1', ...owner }, children }));
  return dir;
}

async function reap(dir: string): Promise<number> {
  const ledger = new ChildLedger(dir, new Containment('process-group'));
  try {
    return await ledger.reapOrphans();
  } finally {
    ledger.dispose();
  }
}

describe.skipIf(!linux)(`reaping a dead host’s process groups (Linux: by /proc scan)${linux ? '' : ' — skipped: not Linux, there is no /proc to scan'}`, () => {
  it('ends the members of a group whose leader already exited', async () => {
    const { leader, leaderStart, tag } = await leaderlessGroup();
    const dir = deadHostLedger([{ pid: leader, startTime: leaderStart, server: 'wrapped' }]);
    expect(await reap(dir)).toBe(1);
    // (A killed orphan may linger as a zombie until init reaps it; pidsWith leaves zombies out.)
    expect(pidsWith(tag)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves a group alone whose members started before the recorded leader (not the group we started)', async () => {
    const { leader, leaderStart, worker, tag } = await leaderlessGroup();
    const later = String(BigInt(leaderStart) + 1_000_000n);
    expect(await reap(deadHostLedger([{ pid: leader, startTime: later, server: 'x' }]))).toBe(0);
    expect(pidsWith(tag)).toEqual([worker]);
  });

  it('never touches a live process that reused the pid, nor its group', async () => {
    const tag = `--tag=${tempDir()}`;
    tags.push(tag);
    const script = `require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "member", ${JSON.stringify(tag)}], { stdio: "ignore" }); setInterval(() => {}, 1000)`;
    const bystander = spawn(process.execPath, ['-e', script, 'bystander', tag], { detached: true, stdio: 'ignore' });
    bystander.unref();
    await waitFor(() => pidsWith(tag).length === 2, 5000, 'bystander and its member');
    // Same pid, another start time: somebody else's process now.
    expect(await reap(deadHostLedger([{ pid: bystander.pid, startTime: '12345', server: 'y' }]))).toBe(0);
    expect(pidsWith(tag)).toHaveLength(2);
  });

  it('does not act on a ledger from another boot (start times restart at boot)', async () => {
    const { leader, leaderStart, worker, tag } = await leaderlessGroup();
    const dir = deadHostLedger([{ pid: leader, startTime: leaderStart, server: 'x' }], { bootId: 'another-boot' });
    expect(await reap(dir)).toBe(0);
    expect(pidsWith(tag)).toEqual([worker]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('records the cgroup of a server that runs in one', () => {
    const dir = join(tempDir(), 'run');
    const ledger = new ChildLedger(dir, new Containment('process-group'));
    try {
      ledger.add(process.pid, 's', '/sys/fs/cgroup/switchboard-1-2-ab/1-s');
      const [file] = readdirSync(dir);
      expect(JSON.parse(readFileSync(join(dir, file ?? ''), 'utf8'))).toMatchObject({
        children: [{ pid: process.pid, server: 's', cgroup: '/sys/fs/cgroup/switchboard-1-2-ab/1-s' }],
      });
    } finally {
      ledger.dispose();
    }
  });
});
