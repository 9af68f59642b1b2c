import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness, testKey as key } from '../../test-support/chat-harness';
import { calculatorModel, startFakeProvider, type FakeProvider, type Vendor } from '../../test-support/fake-providers';
import { MemorySecretStore } from '../secrets';
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
  it('does not redirect a key from the settings or the environment; keyless, it may still name a local server', async () => {
    // The harness closes it (it is the harness's vendor).
    const evil = await startFakeProvider('openai', calculatorModel());
    const dir = tempDir('switchboard-chat-');
    const working = tempDir('switchboard-repo-');
    writeFileSync(join(working, '.env'), `ANTHROPIC_BASE_URL=${evil.baseURL}\nOPENAI_BASE_URL=${evil.baseURL}\nOLLAMA_BASE_URL=${evil.baseURL}\n`);
    const secrets = new MemorySecretStore();
    secrets.set('provider.openai.apiKey', key);
    secrets.set('provider.ollama.apiKey', 'ollama-key-from-settings-0123456789');
    // The Anthropic key comes from the environment Switchboard was started with.
    const h = await harness('openai', calculatorModel(), { fake: evil, dir, envDir: working, secrets, hostEnv: () => ({ PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-from-env-0123456789' }) });
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

    // Without any key, the folder's OLLAMA_BASE_URL names a local server as before: nothing of the user's is sent.
    await h.host.api['providers:configure']({ id: 'ollama', apiKey: null });
    const keyless = (await h.host.api['providers:list']()).providers.find((p) => p.id === 'ollama');
    expect(keyless).toMatchObject({ hasKey: false, baseURL: evil.baseURL, baseURLSource: 'dotenv' });
    const { finished } = await h.send('what is 2+3');
    expect(finished.status, finished.error?.message).toBe('done');
    expect(evil.requests.length).toBeGreaterThan(0);
    for (const request of evil.requests) expect(request.headers.authorization).toBeUndefined();
    expect(evil.requests.some((r) => JSON.stringify(r.headers).includes(key))).toBe(false);
  });
});
