import { describe, expect, it } from 'vitest';
import { createI18n, formatDateTime, formatNumber, localizeError, resolveLanguage, secretsCaveat } from './index';

describe('resolveLanguage', () => {
  it('picks zh-CN for any Chinese locale, en for English, en when nothing is known', () => {
    expect(resolveLanguage(['zh-CN'])).toBe('zh-CN');
    expect(resolveLanguage(['zh_CN.UTF-8'])).toBe('zh-CN');
    expect(resolveLanguage(['zh-Hans-SG', 'en'])).toBe('zh-CN');
    expect(resolveLanguage(['fr-FR', 'en-GB', 'zh'])).toBe('en');
    expect(resolveLanguage(['C.UTF-8', 'zh'])).toBe('zh-CN');
    expect(resolveLanguage([undefined, '', 'de'])).toBe('en');
  });
});

describe('localizeError', () => {
  const zh = createI18n('zh-CN');
  const en = createI18n('en');
  it('keeps the host message in English', () => {
    expect(localizeError(en, { code: 'unknown-server', message: 'There is no server named "x" in the config.', data: { server: 'x' } })).toBe(
      'There is no server named "x" in the config.',
    );
  });
  it('words it from the code and data in Chinese, the most specific wording whose data is there', () => {
    expect(localizeError(zh, { code: 'unknown-server', message: 'ignored', data: { server: 'fs' } })).toBe('配置中没有名为“fs”的服务器。');
    expect(localizeError(zh, { code: 'server-not-ready', message: 'm', data: { server: 'fs', status: 'needs-login' } })).toBe('服务器“fs”需要先登录。');
    expect(localizeError(zh, { code: 'unknown-server', message: 'ignored' })).toBe('配置中没有这个服务器。');
    expect(localizeError(zh, { code: 'tool-call-failed', message: 'boom', data: { server: 'a', tool: 'b' } })).toBe('调用 a/b 失败：boom');
    expect(localizeError(zh, { code: 'config-invalid', message: 'bad comma', data: { line: 3, column: 7 } })).toBe('配置第 3 行第 7 列有问题：bad comma');
  });
  it("words a refused bundle's signature from the bundle section, filled with the error's data", () => {
    const text = localizeError(zh, { code: 'invalid-argument', message: 'x.mcpb is signed, but …', data: { reason: 'signature-tampered', file: 'x.mcpb' } });
    expect(text.startsWith('x.mcpb')).toBe(true);
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    expect(text).not.toContain('{{');
    expect(localizeError(en, { code: 'invalid-argument', message: 'English as it is', data: { reason: 'signature-tampered', file: 'x.mcpb' } })).toBe(
      'English as it is',
    );
  });
  it('a tool refused until reviewed: worded from its review state', () => {
    const data = { server: 's', tool: 'add', state: 'changed', reason: 'changed', changed: ['description'] };
    expect(localizeError(zh, { code: 'needs-review', message: 'English', data })).toBe(
      's/add 自被信任后已更改（description）。请在 Switchboard 的“工具”中审查它，或用以下命令接受：switchboard trust s add',
    );
    expect(localizeError(zh, { code: 'needs-review', message: 'English', data: { server: 's', tool: 'add', reason: 'flagged' } })).toMatch(
      /^s\/add 的定义中藏有文本/,
    );
  });
  it('falls back to the message for a code without a key', () => {
    expect(localizeError(zh, { code: 'ENOENT', message: 'no such file' })).toBe('no such file');
    expect(localizeError(zh, { message: 'no code' })).toBe('no code');
  });
});

describe('secretsCaveat', () => {
  it("English keeps the store's own warning; Chinese words a file store's caveat with its file; none for the keychain", () => {
    const store = { backing: 'file', warning: 'Secrets are kept in /h/secrets.json (…)', file: '/h/secrets.json' };
    expect(secretsCaveat(createI18n('en'), store)).toBe('Secrets are kept in /h/secrets.json (…)');
    expect(secretsCaveat(createI18n('zh-CN'), store)).toBe(
      '机密保存在 /h/secrets.json 中（仅你可读，权限 0600），而不是操作系统钥匙串中。桌面应用则改用钥匙串加密它们。',
    );
    expect(secretsCaveat(createI18n('zh-CN'), { backing: 'file' })).toMatch(/^机密保存在一个仅你可读的文件中/);
    expect(secretsCaveat(createI18n('zh-CN'), { backing: 'keychain' })).toBeUndefined();
  });
});

describe('formatting', () => {
  it('dates and numbers follow the language', () => {
    const when = Date.UTC(2026, 11, 1, 10, 30);
    expect(formatDateTime('zh-CN', when, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })).toBe('2026年12月1日');
    expect(formatDateTime('en', when, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })).toBe('December 1, 2026');
    expect(formatNumber('en', 1234567.5)).toBe('1,234,567.5');
    expect(formatNumber('zh-CN', 1234567.5)).toBe('1,234,567.5');
    expect(formatDateTime('en', 'not a date')).toBe('not a date');
  });
});

describe('one wording for one thing', () => {
  it('a place in the config file reads the same in the editor and the banner, in both languages', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const t = createI18n(lang).t;
      expect(t('editor.lineColumn', { line: 4, column: 5 })).toBe(t('banners.location', { line: 4, column: 5 }));
    }
  });

  it("the form's submit button is not named like the toolbar button that opens the form", () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const t = createI18n(lang).t;
      expect(t('serverForm.addServer')).not.toBe(t('serversScreen.addServer'));
    }
  });
});
