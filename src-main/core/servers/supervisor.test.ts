// A server's status reason (ServerView.error) comes with its code and data (errorInfo), so the UI words it in the
// person's language: crash loops, exits before ready, timeouts, approval — real children, a real host.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, localizeError, localizeReason } from '../../../src-shared/i18n';
import type { SupervisionPolicy } from './policy';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir, waitFor } from '../../test-support/processes';

const tiny = join(__dirname, '..', 'fixtures', 'tiny-server.mjs');
const fast: Partial<SupervisionPolicy> = { restartBaseDelayMs: 100, graceMs: 300, startTimeoutMs: 10_000 };
const zh = createI18n('zh-CN');
const en = createI18n('en');

async function hostWith(servers: Record<string, unknown>, policy: Partial<SupervisionPolicy> = fast): Promise<Host> {
  const dataDir = tempDir();
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime(), policy });
}

const view = async (host: Host, name: string) => (await host.api['servers:list']()).find((v) => v.name === name);

describe('status reasons in the UI language', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it("an entry that refers to a secret that does not exist: the server's error keeps the reason and its data", async () => {
    host = await hostWith({ needy: { command: process.execPath, args: [tiny], env: { TOKEN: '${secret:NOPE}' } } });
    await host.settled();
    await waitFor(async () => (await view(host!, 'needy'))?.status === 'error', 10_000, 'error');
    const needy = await view(host, 'needy');
    expect(needy?.error).toContain('refers to ${secret:NOPE}, but there is no secret named NOPE');
    expect(needy?.errorInfo).toMatchObject({ code: 'config-invalid', data: { reason: 'missing-secret', name: 'NOPE', where: 'mcpServers.needy.env.TOKEN' } });
    expect(localizeReason(zh, needy?.error ?? '', needy?.errorInfo)).toContain('mcpServers.needy.env.TOKEN 引用了 ${secret:NOPE}，但没有名为 NOPE 的机密');
  });

  it('a crash loop: code crash-loop with the exit code, deaths and window; Chinese from them, English as the host wrote it', async () => {
    host = await hostWith(
      { doomed: { command: process.execPath, args: [tiny, '--name=doomed', '--die-after-ready=150'] } },
      { ...fast, crashLoopCount: 3, stableMs: 5000 },
    );
    await host.settled();
    await waitFor(async () => (await view(host!, 'doomed'))?.status === 'crash-loop', 15_000, 'crash-loop');
    const doomed = await view(host, 'doomed');
    expect(doomed?.errorInfo).toMatchObject({ code: 'crash-loop', data: { server: 'doomed', how: 'code', exitCode: 7, deaths: 3, seconds: 5 } });
    const error = doomed?.error ?? '';
    expect(localizeReason(en, error, doomed?.errorInfo)).toBe(error);
    const chinese = localizeReason(zh, error, doomed?.errorInfo);
    expect(chinese).toMatch(/^服务器“doomed”已退出，退出码 7。它在启动后 5 秒内已退出 3 次，因此保持停止状态。请排除原因后按“重启”。/);
    expect(chinese).not.toContain('exited');
  });

  it('an exit before ready: the exit code and the stderr lines it quotes, under a Chinese heading', async () => {
    const script = "process.stderr.write('bad key in settings\\n'); setTimeout(() => process.exit(3), 50);";
    host = await hostWith({ early: { command: process.execPath, args: ['-e', script] } });
    await host.settled();
    await waitFor(async () => (await view(host!, 'early'))?.status === 'error', 10_000, 'error');
    const early = await view(host, 'early');
    expect(early?.error).toContain('Server "early" exited with code 3 before it was ready');
    expect(early?.errorInfo).toMatchObject({ code: 'exited-before-ready', data: { server: 'early', how: 'code', exitCode: 3 } });
    // (The stderr of the latest start attempt.)
    expect(early?.errorInfo?.lines).toContain('bad key in settings');
    const chinese = localizeReason(zh, early?.error ?? '', early?.errorInfo);
    expect(chinese).toMatch(/^服务器“early”在就绪前已退出，退出码 3（.*）。\n最近的 stderr 输出：\n(bad key in settings\n?)+$/);
    expect(localizeReason(en, early?.error ?? '', early?.errorInfo)).toBe(early?.error);
  });

  it('a start that runs out of time: code start-timeout with the timeout', async () => {
    host = await hostWith({ mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeout: 600 } });
    await host.settled();
    await waitFor(async () => (await view(host!, 'mute'))?.status === 'error', 10_000, 'error');
    const mute = await view(host, 'mute');
    expect(mute?.error).toContain('did not finish connecting within 600 ms');
    expect(mute?.errorInfo).toEqual({ code: 'start-timeout', data: { server: 'mute', timeout: 600 } });
    expect(localizeReason(zh, mute?.error ?? '', mute?.errorInfo)).toMatch(/^服务器“mute”未能在 600 毫秒内完成连接。/);
  });

  it('a crash mid-call: the call fails with how it ended and the stderr it quotes, worded in Chinese from them', async () => {
    host = await hostWith({ crashy: { command: process.execPath, args: [tiny, '--name=crashy'] } });
    await host.settled();
    const error: unknown = await host.api['tools:call']({ server: 'crashy', tool: 'crash', args: {} }).catch((e: unknown) => e);
    const failure = error as { code: string; message: string; data?: Record<string, unknown> };
    expect(failure).toMatchObject({ code: 'tool-call-failed', data: { server: 'crashy', tool: 'crash', how: 'code', exitCode: 3 } });
    expect(failure.data?.stderr).toContain('crashy: segmentation fault (simulated)');
    expect(localizeError(en, failure)).toBe(failure.message);
    const chinese = localizeError(zh, failure);
    expect(chinese).toMatch(/^调用 crashy\/crash 失败：服务器“crashy”在调用期间退出，退出码 3。\n最近的 stderr 输出：\n/);
    expect(chinese).toContain('crashy: segmentation fault (simulated)');
    expect(chinese).not.toContain('exited with code');
  });

  it('a reason without a code, or with a code the catalogues do not know, shows the English text', () => {
    expect(localizeReason(zh, 'Server "x" is odd.', undefined)).toBe('Server "x" is odd.');
    expect(localizeReason(zh, 'Server "x" is odd.', { code: 'no-such-reason', data: { server: 'x' } })).toBe('Server "x" is odd.');
    // A HostError code (a CoreError at start) is worded from `errors.<code>`.
    expect(localizeReason(zh, 'bad', { code: 'config-invalid' })).toBe('配置有问题：bad');
  });
});

describe('the call path', () => {
  let host: Host | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await host?.dispose();
    host = undefined;
  });

  // Under load every async step per call is paid thousands of times a second (the bench's throughput); the era
  // fallback's checks belong to a failed call only, not one more step on every answered one.
  it('an answered call resolves a fixed number of microtask turns after its result arrives', async () => {
    host = await hostWith({ quick: { command: process.execPath, args: [tiny, '--name=quick'] } });
    await host.settled();
    const supervisor = host.fleet.get('quick');
    expect(supervisor.features.tools.listed('echo')).toBeDefined();
    let answer: (raw: Record<string, unknown>) => void = () => undefined;
    vi.spyOn(supervisor.features.tools, 'call').mockReturnValue(new Promise((resolve) => (answer = resolve)));
    let done = false;
    void supervisor.callTool('echo', { text: 'hi' }).then(() => (done = true));
    answer({ content: [{ type: 'text', text: 'hi' }] });
    let turns = 0;
    while (!done && turns < 20) {
      await Promise.resolve();
      turns++;
    }
    expect(done).toBe(true);
    // The feature's own step (its result checked), the supervisor's one await, and this test's `.then`.
    expect(turns).toBeLessThanOrEqual(3);
  });
});
