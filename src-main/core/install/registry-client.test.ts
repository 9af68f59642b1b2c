import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n, localizeError, type ErrorLike } from '../../../src-shared/i18n';
import { evilDoc, startFakeRegistry, type FakeRegistry } from '../../test-support/fake-registry';
import { MemorySecretStore } from '../secrets/store';
import { fillPlan, planFromRegistry } from './plan';
import { RegistryClient, registryBase, type RegistryPackage } from './registry-client';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { packBundle } from '../../test-support/bundle-fixture';
import { tempDir } from '../../test-support/processes';
import { ConfigStore } from '../config/store';
import { Installer } from './installer';
import { resolveRegistryInstall } from './registry-install';

let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(() => registry.close());

describe('registry client', () => {
  it('searches with the v0.1 route and follows the cursor', async () => {
    const client = new RegistryClient({ registry: registry.url });
    const first = await client.search('io.github', undefined, 4);
    expect(first.servers.map((s) => s.server.name)).toEqual([
      'io.github.example/weather',
      'io.github.example/fetch',
      'io.github.example/git-container',
      'io.github.example/old-weather',
    ]);
    expect(first.nextCursor).toBe('4');
    const second = await client.search('io.github', first.nextCursor, 4);
    expect(second.servers.map((s) => s.server.name)).toEqual(['io.github.example/gone']);
    expect(second.nextCursor).toBeUndefined();
    expect(second.servers[0]?.status).toBe('deleted');
    expect(registry.requests.some((r) => r.startsWith('/v0.1/servers?search=io.github&cursor=4'))).toBe(true);
  });

  it('gets one server by its exact name, and says plainly when there is none', async () => {
    const client = new RegistryClient({ registry: registry.url });
    const weather = await client.get('io.github.example/weather');
    expect(weather.server.version).toBe('1.4.2');
    expect(registry.requests).toContain('/v0.1/servers/io.github.example%2Fweather/versions/latest');
    const missing: unknown = await client.get('io.github.example/nope').catch((e: unknown) => e);
    expect(missing).toMatchObject({
      message: expect.stringMatching(/has no server named "io.github.example\/nope".*registry search/),
      data: { reason: 'registry-no-server', name: 'io.github.example/nope' },
    });
    expect(localizeError(createI18n('zh-CN'), missing as ErrorLike)).toMatch(/中没有名为“io\.github\.example\/nope”的服务器/);
  });

  it('a registry that cannot be reached: the reason and its data, worded in Chinese', async () => {
    const client = new RegistryClient({ registry: 'http://127.0.0.1:9' });
    const error: unknown = await client.search('x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'request-failed', data: { reason: 'registry-unreachable', registry: 'http://127.0.0.1:9' } });
    expect(localizeError(createI18n('zh-CN'), error as ErrorLike)).toMatch(/^无法连接 http:\/\/127\.0\.0\.1:9 的 MCP Registry（/);
  });

  it('refuses plain http to anything but loopback', () => {
    expect(() => registryBase('http://registry.example.com')).toThrow(/must be https/);
    expect(registryBase(undefined)).toBe('https://registry.modelcontextprotocol.io');
  });
});

describe('registry entries become pinned config entries', () => {
  const client = (): RegistryClient => new RegistryClient({ registry: registry.url });

  it('npm: npx -y pkg@VERSION, env declared, the secret one kept in secret storage', async () => {
    const plan = planFromRegistry(await client().get('io.github.example/weather'));
    expect(plan.name).toBe('weather');
    expect(plan.entry.command).toBe('npx');
    expect(plan.inputs.map((i) => [i.key, i.required, i.secret])).toEqual([
      ['units', true, false],
      ['WEATHER_API_KEY', true, true],
      ['WEATHER_CITY', false, false],
    ]);
    expect(plan.commandLine).toBe(
      'WEATHER_API_KEY=${secret:weather.WEATHER_API_KEY} WEATHER_CITY=<WEATHER_CITY> npx -y @example/weather-mcp@1.4.2 --units=<units>',
    );
    const secrets = new MemorySecretStore();
    expect(() => fillPlan(plan, {}, secrets)).toThrow(/needs a value for WEATHER_API_KEY.*--set WEATHER_API_KEY=VALUE/);
    const { entry, secretsStored } = fillPlan(plan, { WEATHER_API_KEY: 'k-123' }, secrets);
    expect(entry).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2', '--units=metric'],
      env: { WEATHER_API_KEY: '${secret:weather.WEATHER_API_KEY}' },
    });
    expect(secretsStored).toEqual(['weather.WEATHER_API_KEY']);
    expect(secrets.get('weather.WEATHER_API_KEY')).toBe('k-123');
    expect(() => fillPlan(plan, { WEATHER_API_KEY: 'k', units: 'kelvin' }, secrets)).toThrow(/units must be one of metric, imperial/);
    expect(() => fillPlan(plan, { WEATHER_API_KEY: 'k', NOPE: 'x' }, secrets)).toThrow(/takes no value named NOPE/);
  });

  it('pypi: uvx pkg==VERSION; oci: docker run -i --rm with -e NAME for each variable', async () => {
    const fetchPlan = planFromRegistry(await client().get('io.github.example/fetch'));
    expect(fillPlan(fetchPlan, {}, undefined).entry).toEqual({ command: 'uvx', args: ['mcp-server-fetch==2025.4.7'] });
    const git = planFromRegistry(await client().get('io.github.example/git-container'));
    const secrets = new MemorySecretStore();
    expect(fillPlan(git, { GIT_TOKEN: 't' }, secrets).entry).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'GIT_TOKEN', 'docker.io/example/git-mcp:0.6.1'],
      env: { GIT_TOKEN: '${secret:git-container.GIT_TOKEN}' },
    });
  });

  it('a remote: its URL and a secret header by reference', async () => {
    const plan = planFromRegistry(await client().get('com.example/notes'));
    expect(plan.commandLine).toBe('https://notes.example.com/mcp (header Authorization: Bearer ${secret:notes.token})');
    const secrets = new MemorySecretStore();
    expect(fillPlan(plan, { token: 'abc' }, secrets).entry).toEqual({
      url: 'https://notes.example.com/mcp',
      type: 'http',
      headers: { Authorization: 'Bearer ${secret:notes.token}' },
    });
    expect(secrets.get('notes.token')).toBe('abc');
  });

  it('deprecated and deleted entries are refused with the reason', async () => {
    expect(() => planFromRegistry(registryEntry('deprecated'))).toThrow(
      /is deprecated in the registry \(use io.github.example\/weather\); it is not installed/,
    );
    const gone = await client().get('io.github.example/gone');
    expect(() => planFromRegistry(gone)).toThrow(/was deleted from the registry; it is not installed/);
  });

  it('an entry with a package and a remote offers both; --use / the dialog picks one', () => {
    const entry = {
      status: 'active' as const,
      server: {
        name: 'io.github.example/both',
        description: '',
        version: '2.0.0',
        packages: [{ registryType: 'npm', identifier: 'both-mcp', version: '2.0.0' }],
        remotes: [{ type: 'sse', url: 'https://both.example.com/sse' }],
      },
    };
    expect(planFromRegistry(entry)).toMatchObject({ alternatives: ['npm', 'remote'], uses: 'npm', entry: { command: 'npx', args: ['-y', 'both-mcp@2.0.0'] } });
    expect(planFromRegistry(entry, { use: 'remote' })).toMatchObject({ uses: 'remote', entry: { url: 'https://both.example.com/sse', type: 'sse' } });
    expect(() => planFromRegistry(entry, { use: 'oci' })).toThrow(/has no usable oci package or remote \(it offers: npm, remote\)/);
  });

  it('a package without an exact version, or of an unsupported kind, is not installed', () => {
    const entry = {
      status: 'active' as const,
      server: {
        name: 'x.y/z',
        description: '',
        version: '1.0.0',
        packages: [
          { registryType: 'npm', identifier: 'z', version: '^1.0.0' },
          { registryType: 'nuget', identifier: 'Z', version: '1.0.0' },
        ],
      },
    };
    expect(() => planFromRegistry(entry)).toThrow(
      /the npm package z has no exact version to pin: version "\^1.0.0" is not an exact semver version .*; nuget packages are not supported/,
    );
  });
});

describe('registry identifiers and versions are checked per registryType', () => {
  const planOf = (pkg: Record<string, unknown>): ReturnType<typeof planFromRegistry> =>
    planFromRegistry({
      status: 'active',
      server: { name: 'com.example/pkg', description: '', version: '1.0.0', packages: [{ transport: { type: 'stdio' }, ...pkg } as RegistryPackage] },
    });
  const refusalOf = (pkg: Record<string, unknown>): string => {
    try {
      planOf(pkg);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('npm: a package name (scoped or not, lowercase, url-safe) at an exact semver version', () => {
    for (const identifier of ['weather-mcp', '@example/weather-mcp', 'a', 'mcp.server_x', '@scope-1/x.y'])
      expect(refusalOf({ registryType: 'npm', identifier, version: '1.2.3' }), identifier).toBe('accepted');
    for (const version of ['1.2.3-beta.1', '0.0.1+build.5']) expect(refusalOf({ registryType: 'npm', identifier: 'x', version }), version).toBe('accepted');
    for (const identifier of [
      'https://evil.example/pkg.tgz#',
      'Weather',
      '-y',
      '.hidden',
      '_x',
      'a b',
      'git+ssh://x',
      'file:../x',
      '@scope/',
      '@/x',
      'x@1.0.0',
      '../x',
      'node_modules',
      `x${'y'.repeat(214)}`,
      "x'y",
      'x;rm',
    ]) {
      expect(refusalOf({ registryType: 'npm', identifier, version: '1.0.0' }), identifier).toContain(
        `the npm package's identifier ${JSON.stringify(identifier)} is not an npm package name`,
      );
    }
    for (const version of [undefined, 'latest', '^1.0.0', '1.x', 'v1.2.3', '=1.2.3', '1.2', '1.2.3 || 2', ' 1.2.3', 'https://evil.example/x.tgz']) {
      expect(refusalOf({ registryType: 'npm', identifier: 'x', version }), String(version)).toMatch(
        /the npm package x has no exact version to pin: version .* is not an exact semver version/,
      );
    }
  });

  it('pypi: a PEP 508 name at an exact PEP 440 public version', () => {
    for (const identifier of ['mcp-server-fetch', 'Django', 'a', 'zope.interface', 'x_y'])
      expect(refusalOf({ registryType: 'pypi', identifier, version: '1.0' }), identifier).toBe('accepted');
    for (const version of ['2025.4.7', '1!2.0', '1.0rc1', '1.0a2.post3.dev4', '2024.01.15'])
      expect(refusalOf({ registryType: 'pypi', identifier: 'x', version }), version).toBe('accepted');
    for (const identifier of ['-x', 'x-', 'x[extra]', 'x==1.0', 'https://evil.example/x.whl', 'x y', 'git+https://x']) {
      expect(refusalOf({ registryType: 'pypi', identifier, version: '1.0' }), identifier).toContain(
        `the PyPI package's identifier ${JSON.stringify(identifier)} is not a PyPI project name (PEP 508`,
      );
    }
    for (const version of [undefined, '>=1.0', '1.0+local', 'latest', '1.0.*', '~=1.0', 'v1.0']) {
      expect(refusalOf({ registryType: 'pypi', identifier: 'x', version }), String(version)).toMatch(
        /the PyPI package x has no exact version to pin: version .* is not an exact PEP 440 public version/,
      );
    }
  });

  it('oci: an image reference pinned by digest, exact tag or exact version', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(planOf({ registryType: 'oci', identifier: 'ghcr.io/example/mcp:1.2.3' }).entry.args?.at(-1)).toBe('ghcr.io/example/mcp:1.2.3');
    expect(planOf({ registryType: 'oci', identifier: `example/mcp@${digest}` }).entry.args?.at(-1)).toBe(`example/mcp@${digest}`);
    expect(planOf({ registryType: 'oci', identifier: 'localhost:5000/mcp', version: 'v2.0.1' }).entry.args?.at(-1)).toBe('localhost:5000/mcp:v2.0.1');
    expect(planOf({ registryType: 'oci', identifier: 'example/mcp:latest', version: '2.0.0' }).entry.args?.at(-1)).toBe('example/mcp:2.0.0');
    for (const identifier of [
      'Example/MCP:1.0.0',
      '-it',
      '--privileged',
      'https://evil.example/x',
      'example/mcp:1.0.0 --rm',
      'example//mcp',
      `example/mcp@sha256:${'a'.repeat(10)}`,
      'example/mcp:-1',
    ]) {
      expect(refusalOf({ registryType: 'oci', identifier, version: '1.0.0' }), identifier).toContain(
        `the OCI package's identifier ${JSON.stringify(identifier)} is not an image reference`,
      );
    }
    for (const version of [undefined, 'latest', '1.0.0+build', '1.x']) {
      expect(refusalOf({ registryType: 'oci', identifier: 'example/mcp', version }), String(version)).toMatch(
        /the image example\/mcp has no exact version to pin: .* is not an exact version usable as a tag/,
      );
    }
  });

  it('mcpb: an https URL without credentials; a registryBaseUrl must be one too', () => {
    const sha = 'b'.repeat(64);
    for (const identifier of ['ftp://example.com/x.mcpb', 'http://example.com/x.mcpb', 'https://user:pw@example.com/x.mcpb', '../x.mcpb']) {
      expect(refusalOf({ registryType: 'mcpb', identifier, fileSha256: sha }), identifier).toContain(
        `the MCP Bundle's identifier ${JSON.stringify(identifier)} is not an https URL`,
      );
    }
    expect(refusalOf({ registryType: 'npm', identifier: 'x', version: '1.0.0', registryBaseUrl: 'file:///tmp/registry' })).toContain(
      `the npm package x's registryBaseUrl "file:///tmp/registry" is not an https URL`,
    );
  });

  it('an entry whose npm identifier is a URL is refused by the plan and by the registry install (fake registry on loopback)', async () => {
    const local = await startFakeRegistry([evilDoc]);
    try {
      const client = new RegistryClient({ registry: local.url });
      const entry = await client.get('com.example/evil');
      expect(() => planFromRegistry(entry)).toThrow(
        `"com.example/evil" 1.0.0 cannot be installed: the npm package's identifier "https://evil.example/pkg.tgz#" is not an npm package name`,
      );
      await expect(resolveRegistryInstall(client, 'com.example/evil', { dataDir: tempDir() })).rejects.toThrow(/is not an npm package name/);
    } finally {
      await local.close();
    }
  });
});

function registryEntry(status: 'deprecated'): Parameters<typeof planFromRegistry>[0] {
  return {
    status,
    statusMessage: 'use io.github.example/weather',
    server: {
      name: 'io.github.example/old-weather',
      description: '',
      version: '0.9.0',
      packages: [{ registryType: 'npm', identifier: 'old', version: '0.9.0' }],
    },
  };
}

describe('a registry entry that is an MCP Bundle', () => {
  it('is downloaded, checked against fileSha256, installed as a bundle; a mismatch is refused', async () => {
    const bundle = readFileSync(packBundle());
    const sha = createHash('sha256').update(bundle).digest('hex');
    const doc = (name: string, fileSha256: string): { server: Record<string, unknown> } => ({
      server: {
        name,
        description: 'A bundle in the registry.',
        version: '1.0.0',
        packages: [{ registryType: 'mcpb', identifier: '{registry}/files/greeter.mcpb', fileSha256, transport: { type: 'stdio' } }],
      },
    });
    const local = await startFakeRegistry([doc('io.github.example/greeter', sha), doc('io.github.example/tampered', '0'.repeat(64))], 4, {
      'greeter.mcpb': bundle,
    });
    try {
      const client = new RegistryClient({ registry: local.url });
      const dataDir = tempDir();
      const resolved = await resolveRegistryInstall(client, 'io.github.example/greeter', { dataDir });
      expect(resolved.plan).toMatchObject({ source: 'bundle', name: 'greeter', origin: expect.stringContaining('io.github.example/greeter (MCP Registry)') });
      expect(resolved.plan.notes[0]).toBe(`Downloaded from ${local.url}/files/greeter.mcpb; its sha256 matches the registry's.`);
      const configPath = join(tempDir(), 'mcp.json');
      writeFileSync(configPath, '{"mcpServers": {}}');
      const store = new ConfigStore(configPath);
      const result = await new Installer({ store, secrets: new MemorySecretStore(), dataDir }).addRegistry(resolved, { api_key: 'k' });
      expect(result.installedAt).toBe(join(dataDir, 'bundles', 'greeter'));
      expect(existsSync(join(dataDir, 'bundles', 'greeter', 'server', 'index.mjs'))).toBe(true);
      await store.dispose();
      await expect(resolveRegistryInstall(client, 'io.github.example/tampered', { dataDir })).rejects.toThrow(
        /does not match the fileSha256 the registry lists for io.github.example\/tampered 1.0.0/,
      );
    } finally {
      await local.close();
    }
  });

  it('without a fileSha256 it is not installed', () => {
    const entry = {
      status: 'active' as const,
      server: { name: 'a.b/c', description: '', version: '1.0.0', packages: [{ registryType: 'mcpb', identifier: 'https://example.com/c.mcpb' }] },
    };
    expect(() => planFromRegistry(entry)).toThrow(/lists no fileSha256 to check the download against/);
  });
});
