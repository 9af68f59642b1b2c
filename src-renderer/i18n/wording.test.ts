// Strings the UI words itself in its language: a config problem from its reason code and data, provider names by id,
// the prompts list's argument count (a plural), a provider's missing key or base URL.
import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError } from '../host/contract';
import { describeError } from '../host/bridge-client';
import { configDetailText, i18n, reasonText, setLanguage } from './index';

describe('what the UI words from codes and data', () => {
  afterEach(() => setLanguage('system'));

  it('a config problem: from ConfigProblem.info in Chinese, the host detail in English', () => {
    const info = { reason: 'wrong-type', field: 'mcpServers.a.command', expected: 'string', got: 'number', gotValue: '5' };
    const detail = 'mcpServers.a.command must be a string (the program to start), got a number (5)';
    expect(configDetailText(detail, info)).toBe(detail);
    setLanguage('zh-CN');
    expect(configDetailText(detail, info)).toBe('mcpServers.a.command 必须是字符串，实际是数字 5');
    expect(configDetailText('not valid JSON: expected a value', { reason: 'json-syntax', syntax: 'ValueExpected' })).toBe('不是有效的 JSON（此处应为一个值）');
    // A reason without a wording, or none: the host's text.
    expect(configDetailText(detail, { reason: 'schema', field: 'x' })).toBe(detail);
    expect(configDetailText(detail, undefined)).toBe(detail);
  });

  it('a refused raw save and the banner: the whole sentence from the HostError data', () => {
    setLanguage('zh-CN');
    const error = new HostCallError({
      code: 'config-invalid',
      message: '/c/mcp.json:1:17: mcpServers.a needs either "command" (a program to start) or "url" (a remote server)',
      data: { reason: 'needs-command-or-url', field: 'mcpServers.a', file: '/c/mcp.json', line: 1, column: 17 },
    });
    expect(describeError(error).message).toBe(
      '配置文件 /c/mcp.json 第 1 行第 17 列有问题：mcpServers.a 需要 "command"（要启动的程序）或 "url"（远程服务器）二者之一',
    );
  });

  it('a missing ${secret:} and a provider without its base URL', () => {
    setLanguage('zh-CN');
    expect(
      describeError(
        new HostCallError({ code: 'config-invalid', message: 'English', data: { reason: 'missing-secret', where: 'mcpServers.fs.env.TOKEN', name: 'TOK' } }),
      ).message,
    ).toBe('mcpServers.fs.env.TOKEN 引用了 ${secret:TOK}，但没有名为 TOK 的机密。请在 设置 → 机密 中添加（或运行 `switchboard secret set TOK`）。');
    expect(
      describeError(
        new HostCallError({ code: 'not-configured', message: 'The OpenAI-compatible endpoint has no base URL: …', data: { reason: 'compatible-base-url' } }),
      ).message,
    ).toMatch(/^OpenAI 兼容端点还没有基础 URL/);
  });

  it('provider names by id, and the argument count as a plural', () => {
    expect(i18n.t('providers.names.compatible')).toBe('OpenAI-compatible endpoint');
    expect(i18n.t('prompts.argCount', { count: 1 })).toBe('1 arg');
    expect(i18n.t('prompts.argCount', { count: 2 })).toBe('2 args');
    setLanguage('zh-CN');
    expect(i18n.t('providers.names.compatible')).toBe('OpenAI 兼容端点');
    expect(i18n.t('providers.baseUrlLabel', { provider: i18n.t('providers.names.compatible') })).not.toMatch(/[A-Za-z]{4,} [A-Za-z]{4,}/);
    expect(i18n.t('prompts.argCount', { count: 2 })).toBe('2 个参数');
  });

  it("a server's sandbox, sign-in and health-check reasons (G2's codes) in Chinese", () => {
    setLanguage('zh-CN');
    const sandbox = reasonText('Not started: …', {
      code: 'sandbox-unavailable',
      data: { server: 'fs', reason: 'entry', detail: 'bubblewrap (bwrap) is not installed' },
      cause: { code: 'bwrap-not-installed', text: 'bubblewrap (bwrap) is not installed; …' },
    });
    expect(sandbox).toBe(
      '未启动：mcpServers.fs.sandbox 要求使用沙箱，但未安装 bubblewrap（bwrap）；请安装（Debian/Ubuntu：apt-get install bubblewrap；Fedora：dnf install bubblewrap）。它绝不会改为在沙箱外运行：请安装一个沙箱，或在此服务器上设置 "sandbox": false 以不用沙箱运行。',
    );
    expect(reasonText('Server "r" needs you to sign in.', { code: 'needs-login', data: { server: 'r', how: 'plain' } })).toBe(
      '服务器“r”需要你登录。请点击“登录”（或运行 `switchboard login r`）。',
    );
    expect(
      reasonText('…', {
        code: 'health-lost',
        data: { server: 'r', how: 'stopped' },
        cause: { code: 'ping-missed', text: '…', data: { server: 'r', method: 'ping', timeoutMs: 5000 } },
      }),
    ).toBe('服务器“r”没有在 5000 毫秒内回应 ping（定期健康检查）');
  });
});
