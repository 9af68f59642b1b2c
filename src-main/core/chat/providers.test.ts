import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness, testKey as key, type Harness } from '../../test-support/chat-harness';
import { calculatorModel, sequence, type Vendor } from '../../test-support/fake-providers';

/*
 * Providers set up the way a person does it: a key typed into the settings screen (`providers:configure`), or
 * a local Ollama found through OLLAMA_BASE_URL — then a real tool turn against the fake vendor.
 */

afterEach(disposeHarnesses);

/** Every file under `dir`, relative paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** The JSON of every view a renderer (or the bridge) can read, and of every chat event so far. */
async function everyView(h: Harness, conversationId: string): Promise<Record<string, string>> {
  const api = h.host.api;
  return {
    'app:info': JSON.stringify(await api['app:info']()),
    'servers:list': JSON.stringify(await api['servers:list']()),
    'config:read': JSON.stringify(await api['config:read']()),
    'config:export': JSON.stringify(await api['config:export']({})),
    'secrets:list': JSON.stringify(await api['secrets:list']()),
    'chat:list': JSON.stringify(await api['chat:list']({})),
    'chat:get': JSON.stringify(await api['chat:get'](conversationId)),
    'chat:settings': JSON.stringify(await api['chat:settings']()),
    'providers:list': JSON.stringify(await api['providers:list']()),
    'audit:list': JSON.stringify(await api['audit:list']({})),
    'chat:event': JSON.stringify(h.events),
  };
}

describe.each<Vendor>(['openai', 'anthropic'])('a %s key entered in the settings', (vendor) => {
  it('is stored as a secret, never shown or written to disk, and used by the next turn', async () => {
    // No key and no base URL in the environment: everything comes from the settings screen.
    const h = await harness(vendor, calculatorModel(), { hostEnv: () => ({ PATH: process.env.PATH }) });
    const api = h.host.api;
    const before = await api['providers:list']();
    expect(before.providers.find((p) => p.id === vendor)).toMatchObject({ configured: false, hasKey: false });
    expect(before.model).toBeUndefined();
    await expect(api['chat:send']({ text: 'hi' })).rejects.toMatchObject({ code: 'not-configured' });

    const configured = await api['providers:configure']({ id: vendor, apiKey: key, baseURL: h.fake.baseURL });
    expect(JSON.stringify(configured)).not.toContain(key);
    expect(configured.providers.find((p) => p.id === vendor)).toMatchObject({
      configured: true,
      hasKey: true,
      keySource: 'settings',
      baseURL: h.fake.baseURL,
      baseURLSource: 'settings',
    });
    expect(configured.hint).toBeUndefined();
    // In the host's SecretStore, under the provider's own name; the list of secrets shows the name only.
    expect(h.secrets.get(`provider.${vendor}.apiKey`)).toBe(key);
    expect(await api['secrets:list']()).toContain(`provider.${vendor}.apiKey`);

    await api['chat:update-settings']({ model: `${vendor}:fake-model` });
    const { conversationId, runId, finished } = await h.send('what is 2+3');
    expect(finished.status).toBe('done');
    expect(h.tools(runId).map((t) => [t.tool, t.status, t.result?.content])).toEqual([['add', 'done', [{ type: 'text', text: '5' }]]]);
    expect(h.text(runId)).toBe('The answer is 5');
    // Both model calls carried the stored key, in the vendor's own header.
    expect(h.fake.requests).toHaveLength(2);
    for (const request of h.fake.requests) {
      if (vendor === 'openai') expect(request.headers.authorization).toBe(`Bearer ${key}`);
      else expect(request.headers['x-api-key']).toBe(key);
    }

    // A failing turn whose error quotes the key back: the message, the log and the files stay clean.
    h.fake.setScript(
      sequence({
        kind: 'error',
        status: 401,
        body:
          vendor === 'openai'
            ? { error: { message: `Incorrect API key provided: ${key}` } }
            : { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${key}` } },
      }),
    );
    const failed = await h.send('what is 4+4', conversationId);
    expect(failed.finished.status).toBe('error');
    expect(failed.finished.error?.message).toContain('[redacted]');

    for (const [view, json] of Object.entries(await everyView(h, conversationId))) expect({ view, leaks: json.includes(key) }).toEqual({ view, leaks: false });

    await h.host.dispose(); // flushes the conversation files and the log
    const files = filesUnder(h.dir);
    expect(files).toEqual(
      expect.arrayContaining(['audit.jsonl', 'chat-settings.json', join('conversations', `${conversationId}.json`), join('logs', 'switchboard.log')]),
    );
    expect(readFileSync(join(h.dir, 'logs', 'switchboard.log'), 'utf8')).toContain('chat turn failed');
    for (const file of files) expect({ file, leaks: readFileSync(join(h.dir, file), 'utf8').includes(key) }).toEqual({ file, leaks: false });
  });
});

describe('providers:configure', () => {
  it('a settings key wins over the environment one; removing it falls back to the environment', async () => {
    const envKey = 'sk-from-the-environment-0987654321';
    const h = await harness('openai', calculatorModel(), {
      hostEnv: (fake) => ({ OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: envKey, SWITCHBOARD_MODEL: 'openai:fake-model', PATH: process.env.PATH }),
    });
    const api = h.host.api;
    expect((await api['providers:list']()).providers.find((p) => p.id === 'openai')).toMatchObject({
      hasKey: true,
      keySource: 'env',
      keyEnv: 'OPENAI_API_KEY',
    });

    // A key from the settings goes to a base URL from the settings (or the vendor's own), never the environment's.
    const settingsOnly = await api['providers:configure']({ id: 'openai', apiKey: key });
    expect(settingsOnly.providers.find((p) => p.id === 'openai')).toMatchObject({ hasKey: true, keySource: 'settings', api: 'responses' });
    expect(settingsOnly.providers.find((p) => p.id === 'openai')?.baseURL).toBeUndefined();
    await api['providers:configure']({ id: 'openai', baseURL: h.fake.baseURL });
    await h.send('hello');
    expect(h.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

    const removed = await api['providers:configure']({ id: 'openai', apiKey: null });
    expect(removed.providers.find((p) => p.id === 'openai')).toMatchObject({ hasKey: true, keySource: 'env' });
    expect(h.secrets.get('provider.openai.apiKey')).toBeUndefined();
    expect(await api['secrets:list']()).not.toContain('provider.openai.apiKey');
    await h.send('hello again');
    expect(h.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${envKey}`);
    expect(JSON.stringify(removed)).not.toContain(envKey);
  });
});

describe('the ollama: provider', () => {
  it('SWITCHBOARD_MODEL=ollama:… with OLLAMA_BASE_URL drives a full tool turn without a key; the picker switches models', async () => {
    const h = await harness('openai', calculatorModel(), {
      hostEnv: (fake) => ({ OLLAMA_BASE_URL: fake.baseURL, SWITCHBOARD_MODEL: 'ollama:llama3.2:3b', PATH: process.env.PATH }),
    });
    const api = h.host.api;
    const view = await api['providers:list']();
    expect(view).toMatchObject({ model: 'ollama:llama3.2:3b', modelSource: 'env' });
    expect(view.hint).toBeUndefined();
    expect(view.providers.find((p) => p.id === 'ollama')).toMatchObject({
      configured: true,
      hasKey: false,
      baseURL: h.fake.baseURL,
      baseURLSource: 'env',
      api: 'chat',
    });

    const { runId, finished } = await h.send('what is 6*7');
    expect(finished.status).toBe('done');
    expect(h.tools(runId).map((t) => [t.server, t.tool, t.status, t.result?.content])).toEqual([
      ['calculator', 'multiply', 'done', [{ type: 'text', text: '42' }]],
    ]);
    expect(h.text(runId)).toBe('The answer is 42');
    expect(h.fake.requests).toHaveLength(2);
    expect(h.fake.requests[0]?.toolNames.sort()).toEqual(['calculator__add', 'calculator__divide', 'calculator__multiply', 'calculator__subtract']);
    expect(h.fake.requests[1]?.toolResults.map((r) => r.content)).toEqual(['42']);
    for (const request of h.fake.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      // The model id keeps its own colon; no key is needed, so none is sent.
      expect(request.body.model).toBe('llama3.2:3b');
      expect(request.headers.authorization).toBeUndefined();
    }

    await api['chat:update-settings']({ model: 'ollama:qwen2.5' });
    expect(await api['providers:list']()).toMatchObject({ model: 'ollama:qwen2.5', modelSource: 'settings' });
    const second = await h.send('what is 2+3');
    expect(second.finished.status).toBe('done');
    expect(h.text(second.runId)).toBe('The answer is 5');
    expect(h.fake.requests.slice(2).map((r) => r.body.model)).toEqual(['qwen2.5', 'qwen2.5']);
  });
});
