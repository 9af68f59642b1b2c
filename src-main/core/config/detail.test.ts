// ConfigError.info: what is wrong with a config as a reason code and data (no words), beside the English detail.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseServersConfig, type ConfigDetailInfo } from './parse';
import { ConfigStore, setAt } from './store';
import { CoreError } from '../errors';
import { resolveReferences } from './env';
import { FileSecretStore, MemorySecretStore } from '../secrets/store';
import { SecretsService } from '../services/secrets';
import { SettingsService } from '../services/settings';
import { StaticSettings } from '../settings/store';
import { createI18n, localizeError } from '../../../src-shared/i18n';
import { tempDir } from '../../test-support/processes';

function problem(text: string): ConfigError {
  try {
    parseServersConfig(text, '/x/mcp.json');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('ConfigError.info', () => {
  it('names the problem and its data for each kind of mistake', () => {
    const cases: Array<[string, ConfigDetailInfo]> = [
      ['{"mcpServers": {"a": {"command": 5}}}', { reason: 'wrong-type', field: 'mcpServers.a.command', expected: 'string', got: 'number', gotValue: '5' }],
      ['{"mcpServers": {"a": {"command": "x",}', { reason: 'json-syntax', syntax: 'CloseBraceExpected' }],
      ['[]', { reason: 'root-not-object', got: 'array' }],
      ['', { reason: 'json-syntax', syntax: 'ValueExpected' }],
      ['{"mcpServers": {"a": {}}}', { reason: 'needs-command-or-url', field: 'mcpServers.a' }],
      ['{"mcpServers": {"a": {"command": ""}}}', { reason: 'empty-string', field: 'mcpServers.a.command' }],
      ['{"mcpServers": {"a": {"command": "x", "timeout": 0}}}', { reason: 'not-above', field: 'mcpServers.a.timeout', minimum: 0 }],
      [
        '{"mcpServers": {"a": {"url": "https://h", "oauth": {"redirectPort": 70000}}}}',
        { reason: 'too-big', field: 'mcpServers.a.oauth.redirectPort', maximum: 65535 },
      ],
      [
        '{"mcpServers": {"a": {"url": "https://h", "oauth": {"clientId": "c", "clientSecret": "plain"}}}}',
        { reason: 'not-secret-ref', field: 'mcpServers.a.oauth.clientSecret' },
      ],
      [
        '{"mcpServers": {"a": {"command": "x", "type": "zz"}}}',
        { reason: 'not-one-of', field: 'mcpServers.a.type', values: 'stdio, http, streamable-http, sse' },
      ],
      ['{"mcpServers": {"a": {"command": "x", "type": "sse"}}}', { reason: 'type-without-url', field: 'mcpServers.a.type', type: 'sse' }],
      ['{"mcpServers": {"a": {"command": "x", "roots": ["http://h"]}}}', { reason: 'not-folder-or-file-uri', field: 'mcpServers.a.roots[0]' }],
      ['{"mcpServers": {"a": {"command": "x", "sandbox": 3}}}', { reason: 'sandbox-shape', field: 'mcpServers.a.sandbox' }],
    ];
    for (const [text, info] of cases) expect({ text, info: problem(text).info }).toEqual({ text, info });
  });

  it('keeps the English detail as it was', () => {
    expect(problem('{"mcpServers": {"a": {"command": 5}}}').detail).toBe('mcpServers.a.command must be a string (the program to start), got a number (5)');
  });

  it('is worded in Chinese from that data (no English left), in English as the host said it', () => {
    const zh = createI18n('zh-CN');
    for (const text of [
      '{"mcpServers": {"a": {"command": 5}}}',
      '{"mcpServers": {"a": {"url": "https://h", "oauth": {"redirectPort": 70000}}}}',
      '[]',
      '{"mcpServers": {"a": {}}}',
    ]) {
      const error = problem(text);
      const worded = localizeError(zh, {
        code: 'config-invalid',
        message: error.message,
        data: { ...error.info, file: error.file, line: error.line, column: error.column },
      });
      expect(worded.startsWith(`配置文件 ${error.file} 第 `)).toBe(true);
      expect(worded).toMatch(/ 第 \d+ 行第 \d+ 列有问题：/);
      expect(worded).not.toMatch(/must|got|\{\{|configDetail/);
    }
    const error = problem('[]');
    expect(localizeError(createI18n('en'), { code: 'config-invalid', message: error.message, data: { ...error.info } })).toBe(error.message);
  });
});

describe("a ConfigStore's refusals", () => {
  async function refusal(run: () => Promise<unknown>): Promise<CoreError> {
    try {
      await run();
    } catch (error) {
      if (error instanceof CoreError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }
  const zh = createI18n('zh-CN');

  it('carry the problem as data: a raw save, an edit that would break the file, an edit over a broken file', async () => {
    const file = join(tempDir(), 'mcp.json');
    writeFileSync(file, '{"mcpServers": {}}');
    const store = new ConfigStore(file);
    const raw = await refusal(() => store.saveText('{"mcpServers": {"a": {"command": 5}}}', store.snapshot().hash));
    expect(raw.data).toMatchObject({ reason: 'wrong-type', field: 'mcpServers.a.command', line: 1, column: 23, detailInfo: { reason: 'wrong-type' } });
    expect(localizeError(zh, { code: raw.code, message: raw.message, ...(raw.data ? { data: raw.data } : {}) })).toBe(
      `配置文件 ${file} 第 1 行第 23 列有问题：mcpServers.a.command 必须是字符串，实际是数字 5`,
    );

    const edit = await refusal(() => store.update(setAt(['mcpServers', 'a'], { command: '' }), 'save server "a"'));
    expect(edit.message).toContain('Cannot save server "a": the result would not be a valid config (mcpServers.a.command must not be empty');
    expect(edit.data).toMatchObject({ reason: 'would-be-invalid', detailReason: 'empty-string', field: 'mcpServers.a.command' });
    expect(localizeError(zh, { code: edit.code, message: edit.message, ...(edit.data ? { data: edit.data } : {}) })).toMatch(
      /^未保存：这样改动后配置将无效（第 \d+ 行第 \d+ 列：mcpServers\.a\.command 不能为空）。未写入任何内容。$/,
    );

    const stale = await refusal(() => store.saveText('{"mcpServers": {}}', 'not-the-hash'));
    expect(stale.data).toMatchObject({ reason: 'changed-on-disk' });
    expect(localizeError(zh, { code: stale.code, message: stale.message, ...(stale.data ? { data: stale.data } : {}) })).toMatch(
      /^编辑器载入配置文件后，它在磁盘上被改动了。/,
    );

    writeFileSync(file, '{"mcpServers": {');
    const over = await refusal(() => store.update(setAt(['mcpServers', 'b'], { command: 'x' }), 'save server "b"'));
    expect(over.data).toMatchObject({ reason: 'fix-first', detailReason: 'json-syntax' });
    expect(localizeError(zh, { code: over.code, message: over.message, ...(over.data ? { data: over.data } : {}) })).toMatch(
      /^配置文件 \S+mcp\.json 第 1 行第 \d+ 列有问题：不是有效的 JSON（.+）。请先修正它/,
    );
    await store.dispose();
  });
});

describe('a reference that cannot be resolved, or would hand over a host key', () => {
  const zh = createI18n('zh-CN');
  function thrown(run: () => unknown): CoreError {
    try {
      run();
    } catch (error) {
      if (error instanceof CoreError) return error;
      throw error;
    }
    throw new Error('expected a CoreError');
  }
  const word = (error: CoreError): string => localizeError(zh, { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) });

  it('has its reason and data, and is worded in Chinese from them', () => {
    const context = { hostEnv: {}, dotenv: {}, secrets: new MemorySecretStore(), platform: 'linux' as const };
    const secret = thrown(() => resolveReferences('${secret:NOPE}', 'mcpServers.a.env.T', context));
    expect(secret.message).toBe(
      'mcpServers.a.env.T refers to ${secret:NOPE}, but there is no secret named NOPE. Add it under Settings → Secrets (or `switchboard secret set NOPE`).',
    );
    expect(secret.data).toEqual({ reason: 'missing-secret', where: 'mcpServers.a.env.T', name: 'NOPE' });
    expect(word(secret)).toBe(
      'mcpServers.a.env.T 引用了 ${secret:NOPE}，但没有名为 NOPE 的机密。请在 设置 → 机密 中添加（或运行 `switchboard secret set NOPE`）。',
    );

    expect(word(thrown(() => resolveReferences('${env:UNSET_X}', 'mcpServers.a.env.U', context)))).toMatch(
      /^mcpServers\.a\.env\.U 引用了 \$\{env:UNSET_X\}，但/,
    );

    const hostKey = thrown(() => resolveReferences('${env:ANTHROPIC_API_KEY}', 'mcpServers.a.env.K', context));
    expect(hostKey.data).toMatchObject({ reason: 'host-key-env-ref', allow: 'named', allowName: 'ANTHROPIC_API_KEY' });
    expect(word(hostKey)).toBe(
      'mcpServers.a.env.K 引用了 ${env:ANTHROPIC_API_KEY}，这是 Switchboard 自己的 LLM 密钥：它从不传给服务器。请给该服务器单独的密钥（例如 ${secret:NAME}）；如果确实要共享，请把 ANTHROPIC_API_KEY 加入允许列表（设置中的 envAllowList）。',
    );
    const stored = thrown(() => resolveReferences('${secret:provider.compatible.apiKey}', 'mcpServers.a.env.K', context));
    expect(word(stored)).toContain('Switchboard 自己的密钥（OpenAI 兼容端点）');
    expect(word(stored)).toContain('即使通过允许列表');
  });
});

describe('a secrets file that cannot be read', () => {
  it('refuses a change with its reason and file, worded in Chinese', async () => {
    const file = join(tempDir(), 'secrets.json');
    writeFileSync(file, '[1, 2]');
    const service = new SecretsService(new FileSecretStore(file), async () => undefined);
    let refused: unknown;
    await service.api['secrets:set']('TOKEN', 'v').catch((error: unknown) => (refused = error));
    expect(refused).toBeInstanceOf(CoreError);
    const error = refused as CoreError;
    expect(error.message).toBe(
      `${file} cannot be read (it is not a JSON object of names to values), so Switchboard does not write over it. Fix the file (a JSON object of secret names to values) or move it away, then try again.`,
    );
    expect(error.data).toEqual({
      name: 'TOKEN',
      reason: 'secrets-file-unreadable',
      file,
      why: 'it is not a JSON object of names to values',
      whyKind: 'not-object',
    });
    expect(localizeError(createI18n('zh-CN'), { code: error.code, message: error.message, data: error.data ?? {} })).toMatch(
      /^无法读取 .+secrets\.json（它不是把名称映射到值的 JSON 对象），所以 Switchboard 不会覆盖它。/,
    );
  });
});

describe('a setting that does not validate', () => {
  it('says which and why as data, worded in Chinese; the English as it was', async () => {
    const service = new SettingsService(new StaticSettings());
    const zh = createI18n('zh-CN');
    const refused = async (patch: unknown): Promise<CoreError> => {
      let error: unknown;
      await service.api['settings:update'](patch as never).catch((e: unknown) => (error = e));
      if (!(error instanceof CoreError)) throw new Error('expected a refusal');
      return error;
    };
    const name = await refused({ envAllowList: ['1X'] });
    expect(name.message).toBe('That setting is not valid — envAllowList.0: a variable name is letters, digits and _ and does not start with a digit.');
    expect(name.data).toEqual({ path: ['envAllowList', '0'], reason: 'setting-invalid', detailReason: 'not-env-name', field: 'envAllowList[0]' });
    expect(localizeError(zh, { code: name.code, message: name.message, data: name.data ?? {} })).toBe(
      '该设置无效——envAllowList[0] 必须是变量名：由字母、数字和 _ 组成，且不以数字开头。',
    );
    const theme = await refused({ theme: 5 });
    expect(localizeError(zh, { code: theme.code, message: theme.message, data: theme.data ?? {} })).not.toMatch(/[A-Za-z]{4,} [a-z]{3,}/);
  });
});
