import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError } from '../host/contract';
import type { ServerView } from '../../src-shared/host-api';
import { helpText, resolveTool } from '../store/command';
import { describeError, HostDisconnectedError, STALE_TOKEN_REASON } from '../host/bridge-client';
import { currentLanguage, formatCount, i18n, providerHint, reasonText, setLanguage } from './index';

describe('the UI language', () => {
  afterEach(() => setLanguage('system'));

  it('switches at once; describeError words host errors from their code and data in it', () => {
    const error = new HostCallError({ code: 'unknown-server', message: 'There is no server named "fs" in the config.', data: { server: 'fs' } });
    expect(currentLanguage()).toBe('en');
    expect(describeError(error).message).toBe('There is no server named "fs" in the config.');
    setLanguage('zh-CN');
    expect(currentLanguage()).toBe('zh-CN');
    expect(i18n.t('nav.settings')).toBe('设置');
    expect(describeError(error)).toMatchObject({ code: 'unknown-server', message: '配置中没有名为“fs”的服务器。' });
    // Without a key for the code, the host's own words.
    expect(describeError(new Error('plain failure')).message).toBe('plain failure');
    expect(formatCount(12345)).toBe('12,345');
    setLanguage('en');
    expect(i18n.t('nav.settings')).toBe('Settings');
  });
});

describe("a server's status reason", () => {
  afterEach(() => setLanguage('system'));
  const crashed: ServerView = {
    name: 'flaky',
    transport: 'stdio',
    status: 'error',
    error: 'Server "flaky" exited with code 3. Last stderr lines:\nflaky: segmentation fault (simulated)',
    errorInfo: { code: 'server-exited', data: { server: 'flaky', how: 'code', exitCode: 3 }, lines: ['flaky: segmentation fault (simulated)'] },
    disabled: false,
    tools: [],
    target: 'node flaky.mjs',
    stderrTail: [],
    restarts: 0,
  };

  it('is worded from its code and data in Chinese (the stderr it quotes kept), and is the host text in English', () => {
    expect(reasonText(crashed.error ?? '', crashed.errorInfo)).toBe(crashed.error);
    setLanguage('zh-CN');
    expect(reasonText(crashed.error ?? '', crashed.errorInfo)).toBe(
      '服务器“flaky”已退出，退出码 3。\n最近的 stderr 输出：\nflaky: segmentation fault (simulated)',
    );
    expect(reasonText('Server "x" was ended by signal SIGKILL.', { code: 'server-exited', data: { server: 'x', how: 'signal', signal: 'SIGKILL' } })).toBe(
      '服务器“x”被信号 SIGKILL 终止。',
    );
    expect(reasonText('Review it.', { code: 'needs-approval', data: { reason: 'changed' } })).toMatch(
      /^自批准以来，它运行的内容、得到的密钥、密钥的去向或它的采样策略已更改/,
    );
  });

  it('says why a slash command cannot run, in the UI language', () => {
    const english = resolveTool('flaky.echo', [crashed]);
    expect(english).toMatchObject({ ok: false });
    expect((english as { message: string }).message).toBe(`Server "flaky" is not ready — it has an error: ${crashed.error ?? ''}.`);
    setLanguage('zh-CN');
    const chinese = resolveTool('flaky.echo', [crashed]) as { message: string };
    expect(chinese.message).toBe(
      '服务器“flaky”未就绪——它出错了：服务器“flaky”已退出，退出码 3。\n最近的 stderr 输出：\nflaky: segmentation fault (simulated)。',
    );
    expect((resolveTool('flaky.echo', [{ ...crashed, status: 'starting', error: undefined, errorInfo: undefined }]) as { message: string }).message).toBe(
      '服务器“flaky”未就绪——它的状态为“启动中”。',
    );
    expect(helpText()).toMatch(/^用 \/工具名/);
  });
});

describe('why the page lost the host', () => {
  afterEach(() => setLanguage('system'));
  it("is worded from the close code in Chinese; the host's own close text is quoted", () => {
    expect(reasonText(STALE_TOKEN_REASON, { code: 'bridge-stale-token' })).toBe(STALE_TOKEN_REASON);
    setLanguage('zh-CN');
    expect(reasonText(STALE_TOKEN_REASON, { code: 'bridge-stale-token' })).toMatch(/^Switchboard 已重启并换了新的访问令牌/);
    expect(reasonText('x', { code: 'bridge-closed', data: { closeCode: 1001 } })).toBe('连接已关闭（代码 1001）');
    expect(reasonText('busy (code 1013)', { code: 'bridge-said', data: { detail: 'busy', closeCode: 1013 } })).toBe('busy（代码 1013）');
    const reason = 'the host is not reachable (is `switchboard serve` still running?)';
    const lost = new HostDisconnectedError(`Disconnected from the Switchboard host: ${reason}`, { reason, why: { code: 'bridge-unreachable' } });
    expect(describeError(lost).message).toBe('与主机的连接已断开：无法连接到主机（`switchboard serve` 还在运行吗？）');
    setLanguage('en');
    expect(describeError(lost).message).toBe(`Disconnected from the Switchboard host: ${reason}`);
  });
});

describe('the chat without a model', () => {
  afterEach(() => setLanguage('system'));
  it("says so in the UI's language from whether a model is set; English keeps the host's hint", () => {
    const none = { providers: [], hint: 'No LLM provider is configured, so the chat calls tools directly.' };
    expect(providerHint(none)).toBe(none.hint);
    expect(providerHint({ providers: [] })).toBeUndefined();
    setLanguage('zh-CN');
    expect(providerHint(none)).toMatch(/^尚未配置任何大模型服务，因此聊天会直接调用工具/);
    expect(providerHint({ ...none, model: 'openai:gpt-x' })).toMatch(/^模型 openai:gpt-x 目前还无法使用。 尚未配置/);
  });
});
