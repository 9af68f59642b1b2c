// Host errors the UI words in its language: the services give them a `reason` in their data (never parsed from
// the English message), so zh-CN gets a whole sentence of its own instead of the English behind a prefix.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n, localizeError } from '../../../src-shared/i18n';
import { isHostError } from '../errors';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';
import { FileSettings } from '../settings/file-store';
import { SettingsService } from './settings';

const zh = createI18n('zh-CN');
const en = createI18n('en');

async function failure(work: Promise<unknown>): Promise<{ code: string; message: string; data?: Record<string, unknown> }> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHostError(error)) throw new Error(`expected a host error, got ${String(error)}`);
  const data = (error as { data?: Record<string, unknown> }).data;
  return { code: error.code, message: error.message, ...(data !== undefined ? { data } : {}) };
}

describe('service errors in the UI language', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a taken name, a bad secret name: Chinese from the code and reason, English as the host wrote it', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    const off = { command: process.execPath, args: ['-e', ''], disabled: true };
    writeFileSync(config, JSON.stringify({ mcpServers: { a: off, b: off } }));
    host = await createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime() });
    const taken = await failure(host.api['servers:upsert']({ name: 'b', entry: off, previousName: 'a' }));
    expect(taken).toMatchObject({ code: 'invalid-argument', data: { server: 'b', reason: 'name-taken' } });
    expect(localizeError(zh, taken)).toBe('已有名为“b”的服务器：请换一个名字。');
    expect(localizeError(en, taken)).toBe('A server named "b" already exists; pick another name.');

    const badName = await failure(host.api['secrets:set']('1 bad', 'x'));
    expect(badName).toMatchObject({ code: 'invalid-argument', data: { name: '1 bad', reason: 'bad-secret-name' } });
    expect(localizeError(zh, badName)).toMatch(/^“1 bad”不能用作密钥名/);
  });

  it('restart delays the wrong way round', async () => {
    const service = new SettingsService(new FileSettings(tempDir('switchboard-settings-')), () => undefined);
    const wrong = await failure(service.api['settings:update']({ supervision: { restartBaseDelayMs: 9000, restartMaxDelayMs: 1000 } }));
    expect(wrong.data).toMatchObject({ reason: 'restart-delays' });
    expect(localizeError(zh, wrong)).toBe('该设置无效——首次重启延迟比最长重启延迟还长。');
  });
});
