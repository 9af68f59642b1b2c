import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { ConfigStore } from '../config/store';
import { MemorySecretStore } from '../secrets/store';
import { tempDir } from '../../test-support/processes';
import { bundleManifest, packBundle } from '../../test-support/bundle-fixture';
import { compatibilityProblem, readBundle } from './bundle';
import { Installer } from './installer';

function setup(): { installer: Installer; store: ConfigStore; secrets: MemorySecretStore; dataDir: string } {
  const dataDir = tempDir();
  const configPath = join(tempDir(), 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }, null, 2));
  const store = new ConfigStore(configPath);
  const secrets = new MemorySecretStore();
  return { installer: new Installer({ store, secrets, dataDir }), store, secrets, dataDir };
}

describe('MCP Bundles', () => {
  it('a bundle packed by the official mcpb CLI: unpacked to bundles/NAME, mcp_config mapped, the sensitive value a secret; uninstall removes it all', async () => {
    const file = packBundle();
    const { installer, store, secrets, dataDir } = setup();
    const bytes = readFileSync(file);
    const plan = await installer.planBundle(bytes);
    const folder = join(dataDir, 'bundles', 'greeter');
    expect(plan.name).toBe('greeter');
    expect(plan.inputs.map((i) => [i.key, i.required, i.secret, i.default])).toEqual([
      ['api_key', true, true, undefined],
      ['greeting', false, false, 'Hello'],
    ]);
    expect(plan.commandLine).toContain(`node ${folder}/server/index.mjs`);
    expect(plan.commandLine).toContain('GREETER_KEY=${secret:greeter.api_key}');
    await expect(installer.installBundle(bytes, {})).rejects.toThrow(/needs a value for api_key/);
    const result = await installer.installBundle(bytes, { api_key: 'k-1' });
    expect(result).toEqual({ name: 'greeter', secretsStored: ['greeter.api_key'], needsApproval: true, installedAt: folder });
    expect(existsSync(join(folder, 'server', 'index.mjs'))).toBe(true);
    expect(store.snapshot().config.mcpServers.greeter).toEqual({
      command: 'node',
      args: [`${folder}/server/index.mjs`],
      env: { GREETER_KEY: '${secret:greeter.api_key}', GREETING: 'Hello', BUNDLE_DIR: folder },
    });
    expect(secrets.get('greeter.api_key')).toBe('k-1');
    // The same bundle again replaces it; another server of that name is not overwritten.
    await installer.installBundle(bytes, { api_key: 'k-2', greeting: 'Hi' });
    expect(store.snapshot().config.mcpServers.greeter?.env?.GREETING).toBe('Hi');
    await installer.add({ ...plan, name: 'other', source: 'link', inputs: [], entry: { command: 'node', args: ['x.js'] } }, {});
    await expect(installer.installBundle(bytes, { api_key: 'k' }, { name: 'other' })).rejects.toThrow(/A server named "other" is already in the config/);
    const removed = await installer.uninstall('greeter');
    expect(removed).toEqual({ removedFiles: folder, secretsDeleted: ['greeter.api_key'] });
    expect(existsSync(folder)).toBe(false);
    expect(store.snapshot().config.mcpServers.greeter).toBeUndefined();
    await store.dispose();
  });

  it('an install the config refuses leaves no files and no secrets behind', async () => {
    const file = packBundle({ name: 'refused-greeter' });
    const { installer, store, secrets, dataDir } = setup();
    // A config that no longer validates: Switchboard never writes over it.
    writeFileSync(store.file, '{"mcpServers": {"x": {}}}');
    await expect(installer.installBundle(readFileSync(file), { api_key: 'k' })).rejects.toThrow(/the config file has a problem/);
    expect(existsSync(join(dataDir, 'bundles', 'refused-greeter'))).toBe(false);
    expect(secrets.list()).toEqual([]);
    await store.dispose();
  });

  it('an invalid manifest, a path outside the bundle, a missing entry point and another platform are refused', async () => {
    const zip = (files: Record<string, string>): Uint8Array => zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
    await expect(readBundle(zip({ 'manifest.json': JSON.stringify({ name: 'x' }) }), 'x.mcpb')).rejects.toThrow(
      /not a valid MCPB manifest: version: .*server/s,
    );
    await expect(readBundle(zip({ 'manifest.json': JSON.stringify(bundleManifest()), '../evil.sh': 'x' }), 'x.mcpb')).rejects.toThrow(
      /outside its own folder \("..\/evil.sh"\)/,
    );
    await expect(readBundle(zip({ 'manifest.json': JSON.stringify(bundleManifest({ manifest: { manifest_version: '9.0' } })) }), 'x.mcpb')).rejects.toThrow(
      /manifest version 9.0/,
    );
    await expect(readBundle(strToU8('not a zip'), 'x.mcpb')).rejects.toThrow(/not a usable .mcpb file/);
    const { installer } = setup();
    await expect(installer.planBundle(zip({ 'manifest.json': JSON.stringify(bundleManifest()) }))).rejects.toThrow(
      /entry point server\/index.mjs is not in the bundle/,
    );
    const manifest = (
      await readBundle(
        zip({ 'manifest.json': JSON.stringify(bundleManifest({ manifest: { compatibility: { platforms: ['win32'], runtimes: { node: '>=99' } } } })) }),
      )
    ).manifest;
    expect(compatibilityProblem(manifest, { platform: 'linux' })).toBe('greeter runs on win32, not on linux.');
    expect(compatibilityProblem(manifest, { platform: 'win32', nodeVersion: '20.1.0' })).toBe('greeter needs Node >=99; this is Node 20.1.0.');
    const python = (
      await readBundle(zip({ 'manifest.json': JSON.stringify(bundleManifest({ manifest: { compatibility: { runtimes: { python: '>=3.10' } } } })) }))
    ).manifest;
    expect(compatibilityProblem(python, { pythonVersion: () => '3.8.2' })).toBe('greeter needs Python >=3.10; the one on PATH is 3.8.2.');
    expect(compatibilityProblem(python, { pythonVersion: () => undefined })).toMatch(/needs Python >=3.10; none was found on PATH/);
  });
});
