import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../runtime';
import { MemorySecretStore } from '../secrets';
import { StaticSettings } from '../settings';
import { tempDir, waitFor } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'list-changed-server.mjs');

describe('the protocol trace, wired into the host', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('records each server’s messages with request/response pairing, announces them, clears, and bundles without secrets', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    const secret = 'sk-trace-secret-0123456789';
    writeFileSync(config, JSON.stringify({ mcpServers: { growing: { command: process.execPath, args: [fixture], env: { TOKEN: '${secret:token}' } } } }));
    const secrets = new MemorySecretStore();
    secrets.set('token', secret);
    host = await createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime(), secrets, policy: { graceMs: 300 } });
    const appended: number[] = [];
    host.api.on('trace:appended', (event) => appended.push(event.lastSeq));
    await host.settled();
    await host.api['tools:call']({ server: 'growing', tool: 'grow', args: { note: secret } });
    await waitFor(() => appended.length > 0, 5000, 'trace:appended');
    const entries = await host.api['trace:list']({ server: 'growing' });
    const request = entries.find((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tools/call');
    expect(request).toBeDefined();
    const response = entries.find((e) => e.direction === 'receive' && e.pairedWith === request?.seq);
    expect(response?.durationMs).toBeGreaterThanOrEqual(0);
    // Redacted before it is kept.
    expect(JSON.stringify(entries)).not.toContain(secret);

    const bundle = await host.api['debug:bundle']({});
    expect(bundle.path.startsWith(join(dataDir, 'debug'))).toBe(true);
    const text = readFileSync(bundle.path, 'utf8');
    expect(text).toContain('tools/call');
    expect(text).not.toContain(secret);

    await host.api['trace:clear']('growing');
    expect(await host.api['trace:list']({ server: 'growing' })).toEqual([]);
    await expect(host.api['trace:list']({ server: 'nope' })).rejects.toMatchObject({ code: 'unknown-server' });
  }, 20_000);
});
