// Another process's `switchboard secret set` (the same secrets.json, another writer) while a host runs: a server
// waiting on that secret starts, and one whose secret's value changed restarts with the new value.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { secretsFileOf } from '../paths';
import { nodeRuntime } from '../runtime';
import { FileSecretStore } from '../secrets';
import { StaticSettings } from '../settings';
import { tempDir, waitFor } from '../../test-support/processes';

const envServer = join(import.meta.dirname, '..', 'fixtures', 'env-server.mjs');

describe('secrets another process changes', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('start the server waiting on them, and restart the one using them with the new value', async () => {
    const dataDir = tempDir();
    const configPath = join(dataDir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { env: { command: process.execPath, args: [envServer], env: { TOKEN: '${secret:token}' } } } }));
    host = await createHost({ mode: 'headless', configPath, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime(), policy: { graceMs: 300 } });
    await host.settled();
    const view = async () => (await host?.api['servers:list']())?.[0];
    expect((await view())?.status).toBe('error');
    expect((await view())?.error).toContain('no secret named token');

    const other = new FileSecretStore(secretsFileOf(dataDir));
    other.set('token', 'first-value-0001');
    await waitFor(async () => (await view())?.status === 'ready', 10_000, 'the server to start once its secret exists');
    const token = async (): Promise<string | undefined> => {
      const result = await host?.api['tools:call']({ server: 'env', tool: 'env' });
      const text = result?.content[0]?.type === 'text' ? result.content[0].text : '{}';
      return (JSON.parse(text) as Record<string, string>).TOKEN;
    };
    expect(await token()).toBe('first-value-0001');

    const pid = (await view())?.pid;
    other.set('token', 'second-value-0002');
    await waitFor(async () => (await view())?.status === 'ready' && (await view())?.pid !== pid, 10_000, 'the server to restart');
    expect(await token()).toBe('second-value-0002');
    // The new value is one the trace redacts.
    expect(JSON.stringify(await host.api['trace:list']({ server: 'env' }))).not.toContain('second-value-0002');
  }, 30_000);
});
