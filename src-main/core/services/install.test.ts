import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { calculatorPath } from '../support/paths';
import { nodeRuntime } from '../config/runtime';
import { MemorySecretStore } from '../secrets/store';
import { StaticSettings } from '../settings/store';
import { registryDocs, startFakeRegistry, type FakeRegistry } from '../../test-support/fake-registry';
import { startFakeRemote } from '../../test-support/fake-remote';
import { tempDir, waitFor } from '../../test-support/processes';

/*
 * The install channels through a real host that enforces consent (as the app does): what a registry install or a
 * switchboard:// link adds is never approved by adding it — the stdio entry waits in needs-approval.
 */

let registry: FakeRegistry;
let host: Host | undefined;
beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(() => registry.close());
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function appHost(registryUrl = registry.url): Promise<{ host: Host; configPath: string; secrets: MemorySecretStore }> {
  const dir = tempDir();
  const configPath = join(dir, 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }, null, 2));
  const secrets = new MemorySecretStore();
  host = await createHost({
    mode: 'headless',
    requireConsent: true,
    configPath,
    dataDir: dir,
    envDir: dir,
    secrets,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    watchConfig: false,
    registryUrl,
  });
  return { host, configPath, secrets };
}

describe('install channels', () => {
  it('registry:search and install:prepare/apply: the added stdio entry waits for approval; the secret is stored, not written', async () => {
    const { host: h, configPath, secrets } = await appHost();
    const page = await h.api['registry:search']({ search: 'weather' });
    expect(page.registry).toBe(registry.url);
    expect(page.servers.map((s) => [s.name, s.status, s.refused !== undefined])).toEqual([
      ['io.github.example/weather', 'active', false],
      ['io.github.example/old-weather', 'deprecated', true],
    ]);
    const source = { kind: 'registry' as const, name: 'io.github.example/weather' };
    const plan = await h.api['install:prepare']({ source });
    expect(plan.commandLine).toContain('npx -y @example/weather-mcp@1.4.2');
    const result = await h.api['install:apply']({ source, values: { WEATHER_API_KEY: 'host-key' } });
    expect(result).toEqual({ name: 'weather', secretsStored: ['weather.WEATHER_API_KEY'], needsApproval: true });
    expect(secrets.get('weather.WEATHER_API_KEY')).toBe('host-key');
    expect(readFileSync(configPath, 'utf8')).not.toContain('host-key');
    await waitFor(async () => (await h.api['servers:list']()).some((v) => v.name === 'weather'), 10_000, 'the weather entry');
    const view = (await h.api['servers:list']()).find((v) => v.name === 'weather');
    expect(view?.status).toBe('needs-approval');
    expect(view?.consent?.subject).toMatchObject({ command: 'npx', args: ['-y', '@example/weather-mcp@1.4.2', '--units=metric'], env: ['WEATHER_API_KEY'] });
    await expect(h.api['install:apply']({ source: { kind: 'registry', name: 'io.github.example/old-weather' } })).rejects.toThrow(
      /is deprecated in the registry/,
    );
  });

  it('a registry install of a remote entry with a secret header waits for approval before any request carries the secret', async () => {
    const remote = await startFakeRemote();
    const notes = registryDocs.find((d) => d.server.name === 'com.example/notes');
    const remotes = (notes?.server.remotes ?? []) as Array<Record<string, unknown>>;
    const local = await startFakeRegistry([{ server: { ...notes?.server, remotes: remotes.map((r) => ({ ...r, url: remote.url })) } }]);
    try {
      const { host: h, configPath } = await appHost(local.url);
      const source = { kind: 'registry' as const, name: 'com.example/notes' };
      const result = await h.api['install:apply']({ source, values: { token: 'notes-secret-value' } });
      expect(result).toEqual({ name: 'notes', secretsStored: ['notes.token'], needsApproval: true });
      expect(readFileSync(configPath, 'utf8')).not.toContain('notes-secret-value');
      await waitFor(
        async () => (await h.api['servers:list']()).find((v) => v.name === 'notes')?.status === 'needs-approval',
        10_000,
        'notes waiting for approval',
      );
      const view = (await h.api['servers:list']()).find((v) => v.name === 'notes');
      expect(view?.consent).toMatchObject({ reason: 'new', subject: { url: remote.url, references: { Authorization: ['${secret:notes.token}'] } } });
      expect(JSON.stringify(view)).not.toContain('notes-secret-value');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(remote.requests).toEqual([]);
      await h.api['servers:approve']('notes', view?.consent?.hash ?? '');
      await waitFor(async () => (await h.api['servers:list']()).find((v) => v.name === 'notes')?.status === 'ready', 10_000, 'notes to connect after approval');
      expect(remote.requests.some((r) => r.authorization === 'Bearer notes-secret-value')).toBe(true);
    } finally {
      await host?.dispose();
      host = undefined;
      await local.close();
      await remote.stop();
    }
  });

  it('a switchboard:// link offered by the desktop shell is pending once, announced, and its entry waits for approval too', async () => {
    const { host: h } = await appHost();
    const offered: string[] = [];
    const off = h.api.on('install:offered', ({ url }) => offered.push(url));
    const config = Buffer.from(JSON.stringify({ command: process.execPath, args: [calculatorPath()] })).toString('base64url');
    const url = `switchboard://install?name=calc-link&config=${config}`;
    h.install.offerLink(url);
    off();
    expect(offered).toEqual([url]);
    expect(await h.api['install:pending']()).toBe(url);
    expect(await h.api['install:pending']()).toBeNull();
    const plan = await h.api['install:prepare']({ source: { kind: 'link', url } });
    expect(plan.commandLine).toBe(`${process.execPath} ${calculatorPath()}`);
    expect((await h.api['install:apply']({ source: { kind: 'link', url } })).needsApproval).toBe(true);
    await waitFor(
      async () => (await h.api['servers:list']()).find((v) => v.name === 'calc-link')?.status === 'needs-approval',
      10_000,
      'calc-link waiting for approval',
    );
    await h.api['install:uninstall']('calc-link');
    expect((await h.api['servers:list']()).some((v) => v.name === 'calc-link')).toBe(false);
  });
});
