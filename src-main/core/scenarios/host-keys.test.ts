import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../src-shared/host-api';
import { isHostSecretName, resolveReferences } from '../config/env';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { MemorySecretStore } from '../secrets/store';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';

/*
 * The host's own LLM keys never reach a server — by any route, by value, not only by name: `${env:…}` of the key
 * names, an `envFile` that is (or is like) the host's `.env`, the chat's stored provider keys (`${secret:provider.…}`),
 * an `${input:…}` answer, another variable or a literal holding the same value, a remote server's headers, a
 * command line. Each refusal is that server's error, saying which reference, why, and how to allow it. A real
 * child process reports the environment it got.
 */

const fixture = join(__dirname, '..', 'fixtures', 'env-server.mjs');

// The host's keys: in the data folder's .env, the working folder's .env, and the chat's secret store.
const dataKey = 'sk-ant-data-folder-key-0123456789';
const workingKey = 'sk-openai-working-folder-key-0123456789';
const storedAnthropic = 'sk-ant-stored-in-settings-0123456789';
const storedOpenAI = 'sk-openai-stored-in-settings-0123456789';
const allKeys = [dataKey, workingKey, storedAnthropic, storedOpenAI];

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function start(servers: Record<string, unknown>, allowList: string[] = []): Promise<{ views: Map<string, ServerView>; dataDir: string; envDir: string }> {
  const dataDir = tempDir();
  const envDir = tempDir();
  writeFileSync(join(dataDir, '.env'), `ANTHROPIC_API_KEY=${dataKey}\nSAFE=safe-value\n`);
  writeFileSync(join(envDir, '.env'), `OPENAI_API_KEY=${workingKey}\n`);
  const secrets = new MemorySecretStore();
  secrets.set('provider.anthropic.apiKey', storedAnthropic);
  secrets.set('provider.openai.apiKey', storedOpenAI);
  // A prompt the user answered with the stored key (pasted in the wrong place, or asked for by a hostile config).
  secrets.set('input.token', storedAnthropic);
  const other = join(tempDir(), 'server.env');
  writeFileSync(other, 'ANTHROPIC_API_KEY=sk-ant-not-the-hosts-own-0123456789\nPLAIN=1\n');
  const resolved = JSON.parse(
    JSON.stringify(servers).replaceAll('<DATA_ENV>', join(dataDir, '.env')).replaceAll('<WORKING_ENV>', join(envDir, '.env')).replaceAll('<OTHER_ENV>', other),
  ) as Record<string, unknown>;
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: resolved }));
  host = await createHost({
    mode: 'headless',
    configPath: config,
    dataDir,
    envDir,
    settings: new StaticSettings(allowList),
    runtime: nodeRuntime(),
    hostEnv: { PATH: process.env.PATH, MY_COPY: dataKey },
    secrets,
  });
  await host.settled();
  const views = new Map((await host.api['servers:list']()).map((v) => [v.name, v]));
  return { views, dataDir, envDir };
}

async function childEnv(name: string): Promise<Record<string, string>> {
  if (!host) throw new Error('no host');
  const result = await host.api['tools:call']({ server: name, tool: 'env', args: {} });
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('expected a text block');
  return JSON.parse(first.text) as Record<string, string>;
}

const reporter = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: process.execPath, args: [fixture], ...extra });

describe("the host's own LLM keys", () => {
  it('are refused on every route, each as that server’s error saying why and how to allow it; other servers run clean', async () => {
    const { views } = await start({
      envfileData: reporter({ envFile: '<DATA_ENV>' }),
      envfileWorking: reporter({ envFile: '<WORKING_ENV>' }),
      envfileOther: reporter({ envFile: '<OTHER_ENV>' }),
      secretProvider: reporter({ env: { X: '${secret:provider.anthropic.apiKey}' } }),
      inputCopy: reporter({ env: { X: '${input:token}' } }),
      otherName: reporter({ env: { X: 'Bearer ${env:MY_COPY}' } }),
      literal: reporter({ env: { X: storedOpenAI } }),
      commandLine: reporter({ args: [fixture, '--key', workingKey] }),
      remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${secret:provider.openai.apiKey}' } },
      clean: reporter({ env: { OWN: 'own-value', FROM_FILE: '${env:SAFE}' } }),
    });
    const expected: Record<string, RegExp> = {
      envfileData: /mcpServers\.envfileData\.envFile .*\.env sets ANTHROPIC_API_KEY, Switchboard's own LLM key/,
      envfileWorking: /mcpServers\.envfileWorking\.envFile .*\.env sets OPENAI_API_KEY, Switchboard's own LLM key/,
      envfileOther: /mcpServers\.envfileOther\.envFile .*server\.env sets ANTHROPIC_API_KEY, Switchboard's own LLM key/,
      secretProvider:
        /mcpServers\.secretProvider\.env\.X refers to \$\{secret:provider\.anthropic\.apiKey\}, where the chat keeps Switchboard's own Anthropic key/,
      inputCopy: /mcpServers\.inputCopy\.env\.X \(from \$\{input:token\}\) would receive the value of Switchboard's own LLM key ANTHROPIC_API_KEY/,
      otherName: /mcpServers\.otherName\.env\.X \(from \$\{env:MY_COPY\}\) would receive the value of Switchboard's own LLM key ANTHROPIC_API_KEY/,
      literal: /mcpServers\.literal\.env\.X would receive the value of Switchboard's own LLM key OPENAI_API_KEY/,
      commandLine: /mcpServers\.commandLine\.args\[2\] would receive the value of Switchboard's own LLM key OPENAI_API_KEY/,
      remote: /mcpServers\.remote\.headers\.Authorization refers to \$\{secret:provider\.openai\.apiKey\}, where the chat keeps Switchboard's own OpenAI key/,
    };
    for (const [name, message] of Object.entries(expected)) {
      const view = views.get(name);
      expect({ name, status: view?.status }).toEqual({ name, status: 'error' });
      expect(view?.error, name).toMatch(message);
      // How to allow it on purpose, and never the value itself.
      expect(view?.error, name).toMatch(/allow-list \(envAllowList in settings\)/);
      for (const k of allKeys) expect(view?.error?.includes(k), `${name} shows a key`).toBe(false);
    }
    expect(views.get('clean')?.status, views.get('clean')?.error).toBe('ready');
    const env = await childEnv('clean');
    expect(env).toMatchObject({ OWN: 'own-value', FROM_FILE: 'safe-value' });
    const text = JSON.stringify(env);
    for (const k of allKeys) expect(text.includes(k), 'the clean child got a host key').toBe(false);
    // No view a renderer can read carries a key the config does not spell out itself (two of them are literals there).
    const listed = JSON.stringify(await host?.api['servers:list']());
    for (const k of [dataKey, storedAnthropic]) expect(listed.includes(k)).toBe(false);
  });

  it('reach a server when the user put the key’s name on the allow-list — that key only', async () => {
    const { views } = await start(
      {
        secretProvider: reporter({ env: { X: '${secret:provider.anthropic.apiKey}' } }),
        envfileData: reporter({ envFile: '<DATA_ENV>' }),
        otherName: reporter({ env: { X: '${env:MY_COPY}' } }),
        stillRefused: reporter({ env: { Y: '${secret:provider.openai.apiKey}' } }),
      },
      ['ANTHROPIC_API_KEY'],
    );
    for (const name of ['secretProvider', 'envfileData', 'otherName'])
      expect({ name, status: views.get(name)?.status, error: views.get(name)?.error }).toEqual({ name, status: 'ready', error: undefined });
    expect((await childEnv('secretProvider')).X).toBe(storedAnthropic);
    expect((await childEnv('envfileData')).ANTHROPIC_API_KEY).toBe(dataKey);
    expect((await childEnv('otherName')).X).toBe(dataKey);
    expect(views.get('stillRefused')?.status).toBe('error');
    expect(views.get('stillRefused')?.error).toMatch(/put OPENAI_API_KEY on the allow-list/);
  });
});

describe('names on Windows', () => {
  it('compare case-insensitively there (and only there)', () => {
    expect(isHostSecretName('anthropic_api_key', 'win32')).toBe(true);
    expect(isHostSecretName('OpenAI_Api_Key', 'win32')).toBe(true);
    expect(isHostSecretName('anthropic_api_key', 'linux')).toBe(false);
    expect(isHostSecretName('ANTHROPIC_API_KEY', 'linux')).toBe(true);
    expect(isHostSecretName('ANTHROPIC_BASE_URL', 'win32')).toBe(false);
  });

  it('${env:anthropic_api_key} is refused on Windows, and the allow-list matches in any case there', () => {
    // Windows' environment is case-insensitive: the lower-case name reads the same variable.
    const hostEnv = { anthropic_api_key: 'sk-ant-windows-0123456789' };
    expect(() => resolveReferences('${env:anthropic_api_key}', 'mcpServers.w.env.X', { hostEnv, dotenv: {}, platform: 'win32' })).toThrow(
      /mcpServers\.w\.env\.X refers to \$\{env:anthropic_api_key\}, which is Switchboard's own LLM key.*allow-list/,
    );
    expect(resolveReferences('${env:anthropic_api_key}', 'x', { hostEnv, dotenv: {}, platform: 'win32', allowList: () => ['Anthropic_Api_Key'] })).toBe(
      'sk-ant-windows-0123456789',
    );
    // On POSIX the lower-case name is another variable.
    expect(resolveReferences('${env:anthropic_api_key}', 'x', { hostEnv, dotenv: {}, platform: 'linux' })).toBe('sk-ant-windows-0123456789');
  });
});
