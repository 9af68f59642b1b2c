import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ServersConfig } from '../../../src-shared/schemas/config';
import type { ServerView } from '../../../src-shared/host-api';
import { ProcessTransport } from '../process/transport';
import { MemorySecretStore } from '../secrets/store';
import { tempDir } from '../../test-support/processes';
import { debugDir, packageVersion, writeDebugBundle } from './debug-bundle';
import { createRedactor } from './redact';
import { TraceRing } from './trace-ring';
import { traceTransport } from './tracing-transport';

const fixture = join(import.meta.dirname, 'fixtures', 'trace-server.mjs');

describe('debug bundle', () => {
  it('holds config names, versions, launch info, stderr tail and trace — and no secret value anywhere', async () => {
    const headerSecret = 'sk-live-HEADERsecret-0123456789';
    const envSecret = 'env-value-that-is-private-42';
    const secrets = new MemorySecretStore();
    secrets.set('API', headerSecret);
    // What the host knows as secret: the store's values and the resolved ${env:} values of the config.
    const known = (): string[] => [...secrets.list().map((n) => secrets.get(n) ?? ''), envSecret];
    const redactor = createRedactor({ secretValues: known });

    // The config as parsed (${secret:API} in the header) and as resolved (the value in env and args).
    const config: ServersConfig = {
      $schema: 'file:///schema.json',
      mcpServers: {
        remote: { url: 'https://mcp.example.com/mcp?api_key=abc', headers: { Authorization: 'Bearer ${secret:API}', 'X-Team': 'qa' } },
        local: { command: process.execPath, args: [fixture, '--token', headerSecret], env: { API_TOKEN: envSecret, MODE: 'x' }, cwd: '/tmp' },
      },
    };

    // A real trace in which the secret travelled (a tool argument echoed back).
    const ring = new TraceRing({ redactor });
    const client = new Client({ name: 'bundle-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(
      traceTransport(new ProcessTransport({ command: process.execPath, args: [fixture], env: { PATH: process.env.PATH ?? '' } }), ring, { server: 'local' }),
    );
    await client.callTool({ name: 'echo', arguments: { text: `header ${headerSecret} env ${envSecret}` } });
    await client.close();

    const views: ServerView[] = [
      {
        name: 'local',
        transport: 'stdio',
        status: 'ready',
        disabled: false,
        tools: [{ name: 'echo', inputSchema: {} }],
        target: `${process.execPath} ${fixture} --token ${headerSecret}`,
        stderrTail: ['starting', `using token ${headerSecret}`, `Authorization: Bearer ${envSecret}`],
        launch: { command: process.execPath, args: [fixture, '--token', headerSecret], cwd: '/tmp', env: [{ name: 'API_TOKEN', source: 'server-env' }] },
        restarts: 0,
      },
      {
        name: 'remote',
        transport: 'http',
        status: 'error',
        error: 'HTTP 401',
        disabled: false,
        tools: [],
        target: 'https://mcp.example.com/mcp?api_key=abc',
        stderrTail: [],
        restarts: 1,
      },
    ];
    const dir = debugDir(tempDir());
    const { path, bytes } = writeDebugBundle({
      dir,
      config,
      views,
      traces: { local: ring.list('local') },
      versions: { app: '0.1.0', sdk: packageVersion('@modelcontextprotocol/client') ?? 'unknown' },
      secretValues: known,
    });

    const text = readFileSync(path, 'utf8');
    expect(Buffer.byteLength(text)).toBe(bytes);
    expect(text).not.toContain(headerSecret);
    expect(text).not.toContain(envSecret);
    expect(text).not.toContain('api_key=abc');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(path.startsWith(dir)).toBe(true);

    const bundle = JSON.parse(text) as {
      versions: Record<string, string>;
      config: { mcpServers: Record<string, { env?: Record<string, string>; headers?: Record<string, string>; args?: string[] }> };
      servers: Array<{ name: string; stderrTail: string[]; launch?: { env: unknown[] } }>;
      traces: Record<string, Array<{ message: { method?: string } }>>;
    };
    expect(bundle.versions).toMatchObject({ app: '0.1.0', sdk: '2.4.0', node: process.version });
    // Names kept, values gone; a reference is a name, so it is shown.
    expect(bundle.config.mcpServers.local?.env).toEqual({ API_TOKEN: '<redacted>', MODE: '<redacted>' });
    expect(bundle.config.mcpServers.remote?.headers).toEqual({ Authorization: '<redacted; ${secret:API}>', 'X-Team': '<redacted>' });
    expect(bundle.config.mcpServers.local?.args).toEqual([fixture, '--token', '<redacted>']);
    expect(bundle.servers.map((s) => s.name)).toEqual(['local', 'remote']);
    expect(bundle.servers[0]?.stderrTail).toEqual(['starting', 'using token <redacted>', 'Authorization: Bearer <redacted>']);
    expect(bundle.servers[0]?.launch?.env).toEqual([{ name: 'API_TOKEN', source: 'server-env' }]);
    expect(bundle.traces.local?.some((e) => e.message.method === 'tools/call')).toBe(true);

    // A second bundle in the same second gets its own file; `servers` narrows it.
    const second = writeDebugBundle({ dir, config, views, traces: {}, versions: { app: '0.1.0' }, servers: ['remote'], now: new Date(statSync(path).mtimeMs) });
    expect(second.path).not.toBe(path);
    const narrowed = JSON.parse(readFileSync(second.path, 'utf8')) as { servers: Array<{ name: string }>; config: { mcpServers: Record<string, unknown> } };
    expect(narrowed.servers.map((s) => s.name)).toEqual(['remote']);
    expect(Object.keys(narrowed.config.mcpServers)).toEqual(['remote']);
  });
});
