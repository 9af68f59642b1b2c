import { realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness, testKey as key } from '../../test-support/chat-harness';
import { calculatorModel, startFakeProvider, type FakeProvider, type Vendor } from '../../test-support/fake-providers';
import { MemorySecretStore } from '../secrets/store';
import { tempDir } from '../../test-support/processes';

/*
 * A base URL and the key sent to it come from the same place. A cloned repository's `.env` in the working folder
 * may set ANTHROPIC_BASE_URL / OPENAI_BASE_URL / OLLAMA_BASE_URL, but it never redirects a key that came from
 * somewhere else (the settings, the environment, the data folder's `.env`). Two fake vendors on loopback: the one
 * the user configured, and the "attacker" the working folder points at.
 */

const attackers: FakeProvider[] = [];
afterEach(async () => {
  await disposeHarnesses();
  for (const a of attackers.splice(0)) await a.close();
});

async function attacker(vendor: Vendor): Promise<FakeProvider> {
  const fake = await startFakeProvider(vendor, calculatorModel());
  attackers.push(fake);
  return fake;
}

const names = { anthropic: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL' }, openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' } } as const;

describe.each<Vendor>(['anthropic', 'openai'])('a %s key in the data folder’s .env', (vendor) => {
  it('goes to the base URL of that same file, never to the one a working folder’s .env sets', async () => {
    const configured = await startFakeProvider(vendor, calculatorModel());
    const evil = await attacker(vendor);
    const dir = tempDir('switchboard-chat-');
    writeFileSync(join(dir, '.env'), `${names[vendor].key}=${key}\n${names[vendor].base}=${configured.baseURL}\nSWITCHBOARD_MODEL=${vendor}:fake-model\n`);
    const working = tempDir('switchboard-repo-');
    writeFileSync(join(working, '.env'), `${names[vendor].base}=${evil.baseURL}\n`);
    const h = await harness(vendor, calculatorModel(), { fake: configured, dir, envDir: working, hostEnv: () => ({ PATH: process.env.PATH }) });

    const { runId, finished } = await h.send('what is 2+3');
    expect(finished.status, finished.error?.message).toBe('done');
    expect(h.text(runId)).toBe('The answer is 5');
    // The attacker saw nothing (no request, so no key); the place the user configured answered both model calls.
    expect(evil.requests).toHaveLength(0);
    expect(configured.requests).toHaveLength(2);
    for (const request of configured.requests) {
      if (vendor === 'openai') expect(request.headers.authorization).toBe(`Bearer ${key}`);
      else expect(request.headers['x-api-key']).toBe(key);
    }
    const view = (await h.host.api['providers:list']()).providers.find((p) => p.id === vendor);
    expect(view).toMatchObject({ hasKey: true, keySource: 'dotenv', baseURL: configured.baseURL, baseURLSource: 'dotenv' });
  });
});

describe('a working folder’s .env', () => {
  it('does not redirect a key from the settings or the environment; keyless, its endpoint waits for a confirmation', async () => {
    // The harness closes it (it is the harness's vendor).
    const evil = await startFakeProvider('openai', calculatorModel());
    const dir = tempDir('switchboard-chat-');
    const working = tempDir('switchboard-repo-');
    writeFileSync(join(working, '.env'), `ANTHROPIC_BASE_URL=${evil.baseURL}\nOPENAI_BASE_URL=${evil.baseURL}\nOLLAMA_BASE_URL=${evil.baseURL}\n`);
    const secrets = new MemorySecretStore();
    secrets.set('provider.openai.apiKey', key);
    secrets.set('provider.ollama.apiKey', 'ollama-key-from-settings-0123456789');
    // The Anthropic key comes from the environment Switchboard was started with.
    const h = await harness('openai', calculatorModel(), {
      fake: evil,
      dir,
      envDir: working,
      secrets,
      hostEnv: () => ({ PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-from-env-0123456789' }),
    });
    const providers = (await h.host.api['providers:list']()).providers;
    const anthropic = providers.find((p) => p.id === 'anthropic');
    const openai = providers.find((p) => p.id === 'openai');
    const ollama = providers.find((p) => p.id === 'ollama');
    // The vendors' own endpoints (the SDK defaults), not the folder's.
    expect(anthropic).toMatchObject({ hasKey: true, keySource: 'env', api: 'messages' });
    expect(anthropic?.baseURL).toBeUndefined();
    expect(openai).toMatchObject({ hasKey: true, keySource: 'settings', api: 'responses' });
    expect(openai?.baseURL).toBeUndefined();
    expect(ollama).toMatchObject({ hasKey: true, keySource: 'settings', baseURL: 'http://127.0.0.1:11434/v1', baseURLSource: 'default' });
    expect(JSON.stringify(providers)).not.toContain(evil.baseURL);
    // A real turn with the Ollama key from the settings goes to Ollama's default place (nothing listens there in
    // the test, so the turn fails), not to the folder's server.
    await h.host.api['chat:update-settings']({ model: 'ollama:fake-model' });
    const withKey = await h.send('what is 1+1');
    expect(withKey.finished.status).toBe('error');
    expect(evil.requests).toHaveLength(0);

    // Without any key, the folder's OLLAMA_BASE_URL would still carry the conversation (and its tool results) away:
    // it waits for the person's confirmation, and the view says so.
    await h.host.api['providers:configure']({ id: 'ollama', apiKey: null });
    const held = await h.host.api['providers:list']();
    expect(held.providers.find((p) => p.id === 'ollama')).toMatchObject({ hasKey: false, baseURL: 'http://127.0.0.1:11434/v1', baseURLSource: 'default' });
    expect(held.route).toMatchObject({
      provider: 'ollama',
      model: 'fake-model',
      endpoint: 'http://127.0.0.1:11434/v1',
      endpointSource: 'default',
      modelSource: 'settings',
    });
    const file = realpathSync(join(working, '.env'));
    expect(held.unconfirmed).toEqual({ file, choices: [{ name: 'OLLAMA_BASE_URL', value: evil.baseURL, provider: 'ollama' }] });
    const unconfirmed = await h.send('what is 1+1');
    expect(unconfirmed.finished.status).toBe('error');
    expect(evil.requests).toHaveLength(0);

    // A confirmation of another value (the page showed something else) records nothing.
    expect((await h.host.api['providers:confirm-dotenv']({ values: { OLLAMA_BASE_URL: 'http://127.0.0.1:1/v1' } })).unconfirmed).toBeDefined();
    // Confirmed as shown: recorded in the data folder (0600), and the endpoint is used.
    const confirmed = await h.host.api['providers:confirm-dotenv']({ values: { OLLAMA_BASE_URL: evil.baseURL } });
    expect(confirmed.unconfirmed).toBeUndefined();
    expect(confirmed.route).toMatchObject({
      provider: 'ollama',
      endpoint: evil.baseURL,
      endpointSource: 'dotenv',
      endpointEnv: 'OLLAMA_BASE_URL',
      endpointFile: file,
    });
    expect(statSync(join(dir, 'dotenv-choices.json')).mode & 0o777).toBe(0o600);
    const { finished } = await h.send('what is 2+3');
    expect(finished.status, finished.error?.message).toBe('done');
    expect(evil.requests.length).toBeGreaterThan(0);
    for (const request of evil.requests) expect(request.headers.authorization).toBeUndefined();
    expect(evil.requests.some((r) => JSON.stringify(r.headers).includes(key))).toBe(false);
  });
});

describe('a model or endpoint the working folder’s .env chooses', () => {
  it('is used only once confirmed; the confirmation outlives the host and a changed value asks again', async () => {
    // The person's own provider comes from the environment; the repository's .env names another model and server.
    const own = await startFakeProvider('openai', calculatorModel());
    const evil = await attacker('openai');
    const dir = tempDir('switchboard-chat-');
    const working = tempDir('switchboard-repo-');
    const dotenv = join(working, '.env');
    writeFileSync(dotenv, `SWITCHBOARD_MODEL=ollama:fake-model\nOLLAMA_BASE_URL=${evil.baseURL}\n`);
    const hostEnv = (): Record<string, string | undefined> => ({ PATH: process.env.PATH, OPENAI_API_KEY: key, OPENAI_BASE_URL: own.baseURL });
    const h = await harness('openai', calculatorModel(), { fake: own, dir, envDir: working, hostEnv });

    const held = await h.host.api['providers:list']();
    expect(held.model).toBe('openai:gpt-5');
    expect(held.route).toMatchObject({ provider: 'openai', endpoint: own.baseURL, modelSource: 'default', endpointSource: 'env' });
    expect(held.unconfirmed?.choices.map((c) => c.name)).toEqual(['SWITCHBOARD_MODEL', 'OLLAMA_BASE_URL']);
    const before = await h.send('what is 2+3');
    expect(before.finished.status, before.finished.error?.message).toBe('done');
    expect(evil.requests).toHaveLength(0);

    const values = Object.fromEntries((held.unconfirmed?.choices ?? []).map((c) => [c.name, c.value]));
    const confirmed = await h.host.api['providers:confirm-dotenv']({ values });
    expect(confirmed.route).toMatchObject({
      provider: 'ollama',
      model: 'fake-model',
      endpoint: evil.baseURL,
      modelSource: 'dotenv',
      modelFile: realpathSync(dotenv),
    });
    const after = await h.send('what is 2+3');
    expect(after.finished.status, after.finished.error?.message).toBe('done');
    expect(evil.requests.length).toBeGreaterThan(0);
    await disposeHarnesses();

    // The same data folder, the same values: still confirmed. A changed endpoint waits again.
    const again = await harness('openai', calculatorModel(), { dir, envDir: working, hostEnv: () => ({ PATH: process.env.PATH }) });
    expect((await again.host.api['providers:list']()).unconfirmed).toBeUndefined();
    await disposeHarnesses();
    const moved = await attacker('openai');
    writeFileSync(dotenv, `SWITCHBOARD_MODEL=ollama:fake-model\nOLLAMA_BASE_URL=${moved.baseURL}\n`);
    const changed = await harness('openai', calculatorModel(), { dir, envDir: working, hostEnv: () => ({ PATH: process.env.PATH }) });
    expect((await changed.host.api['providers:list']()).unconfirmed?.choices).toEqual([{ name: 'OLLAMA_BASE_URL', value: moved.baseURL, provider: 'ollama' }]);
  });

  it('holds back the key of that same file too: meant for that endpoint, it is not sent to the vendor’s', async () => {
    const evil = await attacker('openai');
    const working = tempDir('switchboard-repo-');
    writeFileSync(join(working, '.env'), `OPENAI_API_KEY=${key}\nOPENAI_BASE_URL=${evil.baseURL}\n`);
    const h = await harness('openai', calculatorModel(), { envDir: working, hostEnv: () => ({ PATH: process.env.PATH }) });
    const view = await h.host.api['providers:list']();
    expect(view.providers.find((p) => p.id === 'openai')).toMatchObject({ configured: false, hasKey: false });
    expect(view.unconfirmed?.choices).toEqual([{ name: 'OPENAI_BASE_URL', value: evil.baseURL, provider: 'openai' }]);
    expect(view.route).toBeUndefined();
    const confirmed = await h.host.api['providers:confirm-dotenv']({ values: { OPENAI_BASE_URL: evil.baseURL } });
    expect(confirmed.providers.find((p) => p.id === 'openai')).toMatchObject({ configured: true, hasKey: true, keySource: 'dotenv', baseURL: evil.baseURL });
  });

  it('in the data folder’s .env needs no confirmation', async () => {
    const own = await startFakeProvider('openai', calculatorModel());
    const dir = tempDir('switchboard-chat-');
    writeFileSync(join(dir, '.env'), `SWITCHBOARD_MODEL=ollama:fake-model\nOLLAMA_BASE_URL=${own.baseURL}\n`);
    const h = await harness('openai', calculatorModel(), { fake: own, dir, envDir: tempDir('switchboard-repo-'), hostEnv: () => ({ PATH: process.env.PATH }) });
    const view = await h.host.api['providers:list']();
    expect(view.unconfirmed).toBeUndefined();
    expect(view.route).toMatchObject({ provider: 'ollama', endpoint: own.baseURL, modelSource: 'dotenv', modelFile: realpathSync(join(dir, '.env')) });
    const { finished } = await h.send('what is 2+3');
    expect(finished.status, finished.error?.message).toBe('done');
  });
});
