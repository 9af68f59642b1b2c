import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { FileSecretStore, MemorySecretStore } from '../secrets/store';
import { secretsFileOf } from '../support/paths';
import { StaticSettings } from '../settings/store';
import { tempDir, waitFor } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'list-changed-server.mjs');
const tinyServer = join(__dirname, '..', 'fixtures', 'tiny-server.mjs');

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
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      secrets,
      policy: { graceMs: 300 },
    });
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

  it('redacts the values of secrets another process adds or changes while it runs', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    // Another process's store: the same file, written by another writer (as `switchboard secret set` does).
    const other = new FileSecretStore(secretsFileOf(dataDir));
    other.set('token', 'first-token-value-0001');
    writeFileSync(config, JSON.stringify({ mcpServers: { growing: { command: process.execPath, args: [fixture], env: { TOKEN: '${secret:token}' } } } }));
    // No watchers (as a one-shot CLI command): what is redacted here is the trace's own doing.
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      policy: { graceMs: 300 },
      watchConfig: false,
    });
    await host.settled();
    const entries = async () => (await host?.api['trace:list']({ server: 'growing' })) ?? [];
    const traced = async (): Promise<string> => JSON.stringify(await entries());
    /** The note the last `tools/call` request carried, as the trace kept it. */
    const lastNote = async (): Promise<unknown> => {
      const calls = (await entries()).filter((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tools/call');
      return (calls.at(-1)?.message as { params?: { arguments?: { note?: unknown } } } | undefined)?.params?.arguments?.note;
    };

    // A value this host has read (as it does to start a server or to sign in) is redacted from the next message on.
    const changed = 'second-token-value-0002';
    other.set('token', changed);
    expect(host.secrets.get('token')).toBe(changed);
    await host.api['tools:call']({ server: 'growing', tool: 'grow', args: { note: changed } });
    expect(await lastNote()).toBe('<redacted>');
    expect(await traced()).not.toContain(changed);

    // A value it never reads (pasted into a call) is redacted once the store has looked at its file again (≤ 1 s).
    const added = 'added-elsewhere-value-0003';
    other.set('pasted', added);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await host.api['tools:call']({ server: 'growing', tool: 'grow', args: { note: added } });
    expect(await lastNote()).toBe('<redacted>');
    expect(await traced()).not.toContain(added);

    const bundle = readFileSync((await host.api['debug:bundle']({})).path, 'utf8');
    for (const value of [changed, added]) expect(bundle).not.toContain(value);
  }, 20_000);

  it('a server that writes a stored secret to stderr (plain, base64, URL-encoded): neither its log file nor the debug bundle holds it', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    const secret = 'stderr-secret/value+0123456789?';
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { talky: { command: process.execPath, args: [tinyServer, '--print-env=TALKY_TOKEN'], env: { TALKY_TOKEN: '${secret:talky_token}' } } },
      }),
    );
    const secrets = new MemorySecretStore();
    secrets.set('talky_token', secret);
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      secrets,
      policy: { graceMs: 300 },
    });
    await host.settled();
    const logFile = join(dataDir, 'logs', 'servers', 'talky.log');
    await waitFor(() => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('basic '), 5000, 'the stderr lines in the log file');
    const bytes = Buffer.from(secret);
    const forms = [
      secret,
      bytes.toString('base64'),
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('base64url'),
      encodeURIComponent(secret),
      Buffer.from(`user:${secret}`).toString('base64').slice(8, -4),
    ];
    const bundle = readFileSync((await host.api['debug:bundle']({})).path, 'utf8');
    // The lines are there (the bundle's stderr tail too), the values are not.
    expect(bundle).toContain('TALKY_TOKEN (base64) <redacted>');
    await host.dispose();
    host = undefined;
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('config TALKY_TOKEN=<redacted>');
    expect(log).toContain('TALKY_TOKEN (base64url) <redacted>');
    expect(log).toContain('callback https://example.com/cb?key=<redacted>');
    for (const form of forms) {
      expect({ form, inLog: log.includes(form), inBundle: bundle.includes(form) }).toEqual({ form, inLog: false, inBundle: false });
    }
  }, 20_000);
});
