import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisionPolicy } from '../servers/policy';
import { createHost, type Host } from '../host';
import { processStartTime, procStat } from '../process/tree';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import { calculatorPath } from '../support/paths';
import { alive, tempDir, waitFor, pidsWith } from '../../test-support/processes';

const fixtures = join(__dirname, '..', 'fixtures');
const tiny = join(fixtures, 'tiny-server.mjs');
const hostile = join(fixtures, 'hostile.mjs');
const fast: Partial<SupervisionPolicy> = { restartBaseDelayMs: 100, graceMs: 300, startTimeoutMs: 10_000 };

async function hostWith(servers: Record<string, unknown>, policy: Partial<SupervisionPolicy> = fast, dataDir = tempDir()): Promise<Host> {
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime(), policy });
}

const view = async (host: Host, name: string) => (await host.api['servers:list']()).find((v) => v.name === name);

describe('whole-tree teardown', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it("ends a launcher's grandchild that ignores SIGTERM, on dispose", async () => {
    const tag = `--tag=${tempDir()}`;
    host = await hostWith({ launched: { command: process.execPath, args: [hostile, '--mode=launcher', tag] } });
    await host.settled();
    expect((await view(host, 'launched'))?.status).toBe('ready');
    // launcher, its tiny-server child, and the SIGTERM-ignoring grandchild
    await waitFor(() => pidsWith(tag).length === 3, 5000, 'three processes');
    await host.dispose();
    expect(pidsWith(tag)).toEqual([]);
  });

  it('ends the tree on restart too, and on a failed start', async () => {
    const tag = `--tag=${tempDir()}`;
    host = await hostWith({
      launched: { command: process.execPath, args: [hostile, '--mode=launcher', tag] },
      failing: { command: process.execPath, args: [hostile, '--mode=garbage', `${tag}-garbage`], timeout: 1500 },
    });
    await host.settled();
    await waitFor(() => pidsWith(tag).filter((p) => !pidsWith(`${tag}-garbage`).includes(p)).length === 3, 5000, 'three processes');
    const before = pidsWith(tag);
    await host.api['servers:restart']('launched');
    expect((await view(host, 'launched'))?.status).toBe('ready');
    for (const pid of before) expect(alive(pid) && pidsWith(tag).includes(pid)).toBe(false);
    expect(pidsWith(`${tag}-garbage`)).toEqual([]);
  });

  it('a server that ignores SIGTERM and stdin EOF is killed after the grace period', async () => {
    const tag = `--tag=${tempDir()}`;
    host = await hostWith({ stubborn: { command: process.execPath, args: [hostile, '--mode=stubborn', tag] } });
    await host.settled();
    expect((await view(host, 'stubborn'))?.status).toBe('ready');
    expect(pidsWith(tag)).toHaveLength(1);
    const started = Date.now();
    await host.dispose();
    expect(pidsWith(tag)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('teardown order', () => {
  it('closes the session first (stdin ends, the server exits by itself), signals only what remains', async () => {
    const dataDir = tempDir();
    const host = await hostWith({ polite: { command: process.execPath, args: [tiny, '--name=polite'] } }, fast, dataDir);
    await host.settled();
    const pid = (await view(host, 'polite'))?.pid ?? 0;
    await host.dispose();
    expect(alive(pid)).toBe(false);
    // The server saw its stdin close and left on its own; no signal was needed.
    expect(readFileSync(join(dataDir, 'logs', 'servers', 'polite.log'), 'utf8')).toContain('polite: stdin closed, exiting cleanly');
  });
});

describe('crashes', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a crash mid-call fails the call promptly with the server, exit code and stderr; restarts with backoff; neighbours untouched', async () => {
    host = await hostWith({
      crashy: { command: process.execPath, args: [tiny, '--name=crashy'] },
      calm: { command: process.execPath, args: [tiny, '--name=calm'] },
    });
    await host.settled();
    const calmPid = (await view(host, 'calm'))?.pid;
    const started = Date.now();
    const error: unknown = await host.api['tools:call']({ server: 'crashy', tool: 'crash', args: {} }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toMatchObject({ code: 'tool-call-failed' });
    const message = (error as Error).message;
    expect(message).toContain('Server "crashy" exited with code 3');
    expect(message).toContain('crashy: segmentation fault (simulated)');
    await waitFor(async () => (await view(host!, 'crashy'))?.status === 'error', 3000, 'error status');
    expect((await view(host, 'crashy'))?.error).toContain('exited with code 3');
    // Auto-restart with backoff brings it back.
    await waitFor(async () => (await view(host!, 'crashy'))?.status === 'ready', 5000, 'auto-restart');
    expect((await view(host, 'crashy'))?.restarts).toBe(1);
    expect((await host.api['tools:call']({ server: 'crashy', tool: 'echo', args: { text: 'back' } })).content).toEqual([{ type: 'text', text: 'crashy:back' }]);
    // The neighbour was never disturbed.
    const calm = await view(host, 'calm');
    expect(calm?.status).toBe('ready');
    expect(calm?.pid).toBe(calmPid);
  });

  it('a server that keeps dying right after start is marked crash-loop and left stopped', async () => {
    const tag = `--tag=${tempDir()}`;
    host = await hostWith(
      { doomed: { command: process.execPath, args: [tiny, '--name=doomed', '--die-after-ready=150', tag] } },
      { ...fast, crashLoopCount: 3, stableMs: 5000 },
    );
    await host.settled();
    await waitFor(async () => (await view(host!, 'doomed'))?.status === 'crash-loop', 15_000, 'crash-loop');
    const doomed = await view(host, 'doomed');
    expect(doomed?.error).toMatch(/exited with code 7[\s\S]*died 3 times within 5 s/);
    expect(doomed?.restarts).toBe(2);
    await new Promise((r) => setTimeout(r, 800));
    expect((await view(host, 'doomed'))?.status).toBe('crash-loop');
    expect(pidsWith(tag)).toEqual([]);
    // A manual restart clears the history.
    void host.api['servers:restart']('doomed');
    await waitFor(async () => (await view(host!, 'doomed'))?.status === 'ready', 5000, 'manual restart');
  });
});

describe('stdout and stderr', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a server printing banners among its messages keeps working; each line is a warning in its log', async () => {
    host = await hostWith({ chatty: { command: process.execPath, args: [tiny, '--name=chatty', '--banner'] } });
    await host.settled();
    expect((await view(host, 'chatty'))?.status).toBe('ready');
    expect((await host.api['tools:call']({ server: 'chatty', tool: 'echo', args: { text: 'ok' } })).content).toEqual([{ type: 'text', text: 'chatty:ok' }]);
    await waitFor(async () => ((await view(host!, 'chatty'))?.stderrTail ?? []).some((l) => l.includes('debug: calling echo')), 2000, 'warning');
    const tail = (await view(host, 'chatty'))?.stderrTail ?? [];
    expect(tail).toContain('[switchboard] warning: non-JSON line on stdout (ignored): *** chatty server v1.0 — starting up ***');
    expect(tail).toContain('[switchboard] warning: non-JSON line on stdout (ignored): debug: calling echo');
  });

  it('a server writing nothing but non-JSON fails within its start timeout, saying so', async () => {
    host = await hostWith({ garbage: { command: process.execPath, args: [hostile, '--mode=garbage'], timeout: 2000 } });
    const started = Date.now();
    await host.settled();
    expect(Date.now() - started).toBeLessThan(4000);
    const garbage = await view(host, 'garbage');
    expect(garbage?.status).toBe('error');
    expect(garbage?.error).toMatch(/wrote only non-JSON to stdout .*first: "Hello! I am not JSON-RPC <html>".*within 2000 ms/);
    // Its code and data too (the UI words it from them), not only the English text.
    expect(garbage?.errorInfo).toMatchObject({
      code: 'stdout-noise',
      data: { server: 'garbage', timeout: 2000, first: expect.stringContaining('Hello! I am not JSON-RPC <html>') },
    });
  });

  it('a 100 MB stderr flood keeps memory bounded and rotates the log file', async () => {
    const dataDir = tempDir();
    host = await hostWith({ flood: { command: process.execPath, args: [hostile, '--mode=flood', '--mb=100'] } }, { ...fast, startTimeoutMs: 60_000 }, dataDir);
    const rssBefore = process.memoryUsage().rss;
    await host.settled();
    expect((await view(host, 'flood'))?.status).toBe('ready');
    await waitFor(
      async () => {
        const logs = readdirSync(join(dataDir, 'logs', 'servers'));
        return logs.includes('flood.log.3');
      },
      10_000,
      'log rotation',
    );
    const flood = await view(host, 'flood');
    const tail = flood?.stderrTail ?? [];
    expect(tail.length).toBe(50);
    expect(tail.filter((l) => /^x{1000}/.test(l)).length).toBeGreaterThan(40);
    expect(tail.length).toBeLessThanOrEqual(50);
    expect(tail.every((l) => l.length <= 2001)).toBe(true);
    for (const file of readdirSync(join(dataDir, 'logs', 'servers'))) {
      expect(statSync(join(dataDir, 'logs', 'servers', file)).size).toBeLessThanOrEqual(2.2 * 1024 * 1024);
    }
    expect(readdirSync(join(dataDir, 'logs', 'servers')).sort()).toEqual(['flood.log', 'flood.log.1', 'flood.log.2', 'flood.log.3']);
    // Server stderr may carry tokens: the logs are the user's alone.
    expect(statSync(join(dataDir, 'logs', 'servers', 'flood.log')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'logs', 'servers')).mode & 0o777).toBe(0o700);
    // 100 MB went through; the host kept a bounded amount (a margin for GC timing, far below what was written).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024);
  });
});

describe('timeouts and cancellation', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a per-server timeout fails a slow call without blocking other servers; progress resets it', async () => {
    host = await hostWith({
      slow: { command: process.execPath, args: [tiny, '--name=slow'], timeout: 500 },
      quick: { command: process.execPath, args: [tiny, '--name=quick'] },
    });
    await host.settled();
    const slowCall = host.api['tools:call']({ server: 'slow', tool: 'sleep', args: { ms: 3000 } }).catch((e: unknown) => e);
    // Meanwhile the other server answers at once.
    expect((await host.api['tools:call']({ server: 'quick', tool: 'echo', args: { text: 'x' } })).content).toEqual([{ type: 'text', text: 'quick:x' }]);
    // The sleep tool sends progress every 100 ms, which resets the 500 ms timeout: the 3 s call succeeds.
    const result = await slowCall;
    expect(result).toEqual({ content: [{ type: 'text', text: 'slept 3000' }] });
    // Without progress, the same call fails at the server's 500 ms timeout; the server stays usable.
    const silent: unknown = await host.api['tools:call']({ server: 'slow', tool: 'sleep', args: { ms: 3000, silent: true } }).catch((e: unknown) => e);
    expect(silent).toMatchObject({ code: 'tool-call-failed', message: expect.stringMatching(/Calling slow\/sleep failed: .*timed out/i) });
    expect((await host.api['tools:call']({ server: 'slow', tool: 'echo', args: { text: 'still here' } })).content).toEqual([
      { type: 'text', text: 'slow:still here' },
    ]);
  });

  it('the global request timeout (settings) applies to servers without their own', async () => {
    host = await hostWith({ slow: { command: process.execPath, args: [tiny, '--name=slow'] } }, { ...fast, requestTimeoutMs: 400 });
    await host.settled();
    const error: unknown = await host.api['tools:call']({ server: 'slow', tool: 'sleep', args: { ms: 3000, silent: true } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tool-call-failed', message: expect.stringMatching(/timed out/i) });
  });

  it('cancelling a call sends notifications/cancelled and rejects it', async () => {
    host = await hostWith({ slow: { command: process.execPath, args: [tiny, '--name=slow'] } });
    await host.settled();
    const call = host.api['tools:call']({ server: 'slow', tool: 'sleep', args: { ms: 10_000 }, callId: 'c-1' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    expect(await host.api['tools:cancel']('c-1')).toBe(true);
    expect(await call).toMatchObject({ code: 'cancelled' });
    await waitFor(
      async () => ((await view(host!, 'slow'))?.stderrTail ?? []).some((l) => /^cancelled request \d+/.test(l)),
      3000,
      'the server to see notifications/cancelled',
    );
    expect(await host.api['tools:cancel']('c-1')).toBe(false);
  });
});

describe('ledger, era cache, launch info', () => {
  it('on start, ends trees a crashed previous run left, but never a process that reused a pid', async () => {
    const dataDir = tempDir();
    const tag = `--tag=${dataDir}`;
    const orphan = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'orphan', tag], { detached: true, stdio: 'ignore' });
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'bystander', `${tag}-bystander`], { detached: true, stdio: 'ignore' });
    orphan.unref();
    bystander.unref();
    await waitFor(() => pidsWith(tag).length === 2, 3000, 'both processes');
    mkdirSync(join(dataDir, 'run'));
    writeFileSync(
      join(dataDir, 'run', '999999.json'),
      JSON.stringify({
        owner: { pid: 999999, startTime: '1' },
        children: [
          { pid: orphan.pid, startTime: processStartTime(orphan.pid ?? 0), server: 'x' },
          // Same pid as a live process but another start time: a reused pid, not ours.
          { pid: bystander.pid, startTime: '12345', server: 'y' },
        ],
      }),
    );
    const host = await hostWith({}, fast, dataDir);
    try {
      // Ended: gone, or a zombie until this process (its parent) reaps it, which under load may not have happened yet.
      expect(procStat(orphan.pid ?? 0), 'the orphan still runs').toBeUndefined();
      expect(alive(bystander.pid ?? 0)).toBe(true);
      expect(readdirSync(join(dataDir, 'run'))).toEqual([]);
    } finally {
      await host.dispose();
      bystander.kill('SIGKILL');
    }
    // Our own log (flushed on dispose) says what happened.
    expect(readFileSync(join(dataDir, 'logs', 'switchboard.log'), 'utf8')).toContain('ended 1 server process tree');
  });

  it('caches the era verdict: a warm start skips the server/discover probe', async () => {
    const dataDir = tempDir();
    const servers = { legacy: { command: process.execPath, args: [tiny, '--name=legacy'] }, modern: { command: process.execPath, args: [calculatorPath()] } };
    let host = await hostWith(servers, fast, dataDir);
    await host.settled();
    expect((await view(host, 'legacy'))?.stderrTail).toContain('method: server/discover');
    expect((await view(host, 'modern'))?.era).toBe('modern');
    await host.dispose();
    const cache = JSON.parse(readFileSync(join(dataDir, 'era-cache.json'), 'utf8')) as Record<string, { kind: string }>;
    expect(
      Object.values(cache)
        .map((v) => v.kind)
        .sort(),
    ).toEqual(['legacy', 'modern']);
    host = await hostWith(servers, fast, dataDir);
    try {
      await host.settled();
      const legacy = await view(host, 'legacy');
      expect(legacy?.status).toBe('ready');
      expect(legacy?.stderrTail).toContain('method: initialize');
      expect(legacy?.stderrTail).not.toContain('method: server/discover');
      expect(await view(host, 'modern')).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
      expect((await host.api['tools:call']({ server: 'modern', tool: 'add', args: { a: 1, b: 2 } })).content).toEqual([{ type: 'text', text: '3' }]);
    } finally {
      await host.dispose();
    }
  });

  it('shows the resolved command, args, cwd and env names with their sources — never values', async () => {
    const dir = tempDir();
    const host = await hostWith({ s: { command: 'node', args: [tiny], cwd: dir, env: { API_TOKEN: 'super-secret-value' } } });
    try {
      await host.settled();
      const s = await view(host, 's');
      expect(s?.launch?.command).toBe(execFileSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).trim());
      expect(s?.launch?.cwd).toBe(dir);
      expect(s?.launch?.env).toContainEqual({ name: 'API_TOKEN', source: 'server-env' });
      expect(s?.launch?.env).toContainEqual({ name: 'PATH', source: 'default' });
      expect(JSON.stringify(await host.api['servers:list']())).not.toContain('super-secret-value');
    } finally {
      await host.dispose();
    }
  });
});
