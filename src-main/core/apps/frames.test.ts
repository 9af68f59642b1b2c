import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostError } from '../../../src-shared/errors';
import { toHostError } from '../errors';
import type { Host } from '../host';
import { appsTestHost, testSandbox } from './test-host';
import { tempDir, waitFor } from '../../test-support/processes';
import type { SandboxOrigin } from './service';
import type { AppLimits } from './limits';

const vanilla = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function appsHost(options: { dataDir?: string; sandbox?: SandboxOrigin | null; limits?: Partial<AppLimits>; vanilla?: boolean } = {}): Promise<Host> {
  const { vanilla: withVanilla, ...rest } = options;
  host = await appsTestHost({ ...rest, ...(withVanilla ? { more: { vanilla: { command: process.execPath, args: [vanilla, '--stdio'] } } } : {}) });
  return host;
}

const failureOf = (promise: Promise<unknown>): Promise<HostError | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => toHostError(error),
  );

describe('MCP Apps frames: apps:open', () => {
  it('registers a frame: its sandbox URL, the checked CSP, the permissions asked and granted', async () => {
    const h = await appsHost();
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    expect(frame).toMatchObject({
      server: 'apps',
      tool: 'show_clock',
      title: 'Show the clock',
      resourceUri: 'ui://apps/clock.html',
      sandboxOrigin: 'http://127.0.0.1:9',
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissionsAsked: ['clipboardWrite'],
      permissionsGranted: [],
      prefersBorder: true,
    });
    expect(frame.frameId).toMatch(/^[0-9a-f]{32}$/);
    expect(frame.sandboxUrl).toBe(`http://127.0.0.1:9/frame/${frame.frameId}?t=test`);
    expect(frame.html).toContain('clock variant 1');
    const page = h.apps.proxyResponse(frame.frameId);
    expect(page?.headers['content-security-policy']).toContain('connect-src https://api.example.com');
    const other = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    expect(other.frameId).not.toBe(frame.frameId);
  });

  it('refuses as apps:read does, and without a sandbox origin says how to get one', async () => {
    const h = await appsHost({ sandbox: null });
    const none = await failureOf(h.api['apps:open']({ server: 'apps', tool: 'show_clock' }));
    expect(none).toMatchObject({ code: 'not-supported', data: { reason: 'no-sandbox' } });
    expect(none?.message).toContain('switchboard serve');
    h.apps.useSandbox(testSandbox);
    expect(await failureOf(h.api['apps:open']({ server: 'apps', tool: 'plain' }))).toMatchObject({ data: { reason: 'no-app' } });
    expect((await failureOf(h.api['apps:open']({ server: 'apps', tool: 'broken_view' })))?.message).toContain('mime type');
    expect(await failureOf(h.api['apps:open']({ server: 'apps', tool: 'nope' }))).toMatchObject({ code: 'unknown-tool' });
  });

  it('grants are per server, remembered in a 0600 file, and only asked ones reach the frame', async () => {
    const dataDir = tempDir();
    const h = await appsHost({ dataDir });
    expect(await h.api['apps:grant']({ server: 'apps', permissions: ['clipboardWrite', 'camera'] })).toEqual(['camera', 'clipboardWrite']);
    const file = join(dataDir, 'app-permissions.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, servers: { apps: { granted: ['camera', 'clipboardWrite'] } } });
    await h.dispose();
    const again = await appsHost({ dataDir });
    const frame = await again.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    // The resource asks for clipboardWrite only: camera, though granted, does not reach this frame.
    expect(frame.permissionsGranted).toEqual(['clipboardWrite']);
    expect(again.apps.proxyResponse(frame.frameId)?.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), clipboard-write=*');
    expect(await again.api['apps:grant']({ server: 'apps', permissions: [] })).toEqual([]);
    expect((await again.api['apps:open']({ server: 'apps', tool: 'show_clock' })).permissionsGranted).toEqual([]);
  });

  it('keeps at most maxFrames, closing the oldest first; apps:close forgets one and says why later', async () => {
    const h = await appsHost({ limits: { maxFrames: 2 } });
    const a = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const b = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    expect(h.apps.proxyResponse(a.frameId)).toBeUndefined();
    expect(await failureOf(h.api['apps:log']({ frameId: a.frameId, level: 'info', data: 'x' }))).toMatchObject({
      data: { reason: 'too-many-frames' },
    });
    expect(await h.api['apps:close']({ frameId: b.frameId })).toBe(true);
    expect(await h.api['apps:close']({ frameId: b.frameId })).toBe(false);
    expect(h.apps.proxyResponse(b.frameId)).toBeUndefined();
    expect(await failureOf(h.api['apps:log']({ frameId: 'f'.repeat(32), level: 'info', data: 'x' }))).toMatchObject({
      data: { reason: 'unknown-frame' },
    });
  });
});

describe('MCP Apps frames: what an app may ask', () => {
  it('calls its own server’s tools whose visibility includes app (app-only ones too), audited as mcp-app', async () => {
    const h = await appsHost({ vanilla: true });
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const result = await h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'refresh_clock', args: {}, callId: 'app-1' });
    expect(result.content).toEqual([{ type: 'text', text: 'refresh_clock done' }]);
    // The same tool stays refused to a person's direct call.
    expect(await failureOf(h.api['tools:call']({ server: 'apps', tool: 'refresh_clock', args: {} }))).toMatchObject({ data: { reason: 'app-only' } });
    // In the call registry, under the app's callId.
    expect((await h.api['calls:list']()).find((c) => c.callId === 'app-1')).toMatchObject({ server: 'apps', tool: 'refresh_clock', state: 'ok' });
    const notForApp = await failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'model_only', args: {}, callId: 'app-2' }));
    expect(notForApp).toMatchObject({ code: 'not-supported', data: { reason: 'not-for-app' } });
    // Another server's tool: the app never names a server, so it is not found on its own.
    expect(await failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'get-time', args: {}, callId: 'app-3' }))).toMatchObject({
      code: 'unknown-tool',
    });
    const audit = await h.api['audit:list']({});
    // Newest first.
    expect(audit.filter((e) => e.source === 'mcp-app').map((e) => [e.tool, e.outcome])).toEqual([
      ['get-time', 'failed'],
      ['model_only', 'failed'],
      ['refresh_clock', 'ok'],
    ]);
  });

  it('a real app server (basic-vanillajs): opens its app and calls its tool from the frame', async () => {
    const h = await appsHost({ vanilla: true });
    const frame = await h.api['apps:open']({ server: 'vanilla', tool: 'get-time' });
    expect(frame.html.length).toBeGreaterThan(100);
    expect(h.apps.proxyResponse(frame.frameId)?.headers['content-security-policy']).toContain("default-src 'none'");
    const result = await h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'get-time', args: {}, callId: 'v-1' });
    expect(result.isError).not.toBe(true);
  });

  it('progress under the app’s callId; tools:cancel and closing the frame cancel its calls', async () => {
    const h = await appsHost();
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const progress: string[] = [];
    const off = h.api.on('calls:progress', (e) => progress.push(`${e.callId}:${e.message ?? ''}`));
    const first = failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'slow_refresh', args: {}, callId: 'slow-1' }));
    await waitFor(() => progress.includes('slow-1:refreshing'));
    expect(await h.api['tools:cancel']('slow-1')).toBe(true);
    expect(await first).toMatchObject({ code: 'cancelled' });
    const second = failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'slow_refresh', args: {}, callId: 'slow-2' }));
    await waitFor(() => progress.includes('slow-2:refreshing'));
    await h.api['apps:close']({ frameId: frame.frameId });
    expect(await second).toMatchObject({ code: 'cancelled' });
    off();
    const audit = await h.api['audit:list']({});
    expect(audit.filter((e) => e.source === 'mcp-app').map((e) => e.outcome)).toEqual(['cancelled', 'cancelled']);
  });

  it('reads its own server’s resources and logs into its server’s Logs, marked as the app’s', async () => {
    const h = await appsHost();
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const read = await h.api['apps:read-resource']({ frameId: frame.frameId, uri: 'ui://apps/clock.html' });
    expect(JSON.stringify(read)).toContain('clock variant');
    await h.api['apps:log']({ frameId: frame.frameId, level: 'warning', logger: 'view', data: { hello: 'from the app' } });
    const logs = await h.api['logs:list']({ server: 'apps' });
    expect(logs.at(-1)).toMatchObject({ level: 'warning', logger: 'view', data: { hello: 'from the app' }, fromApp: { tool: 'show_clock' } });
  });

  it('closes the frames of a server that stops, at the status change itself (not the UI’s coalesced one)', async () => {
    const h = await appsHost();
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    // A restart can be over within the UI's 50 ms window; the frame must not outlive its session even then. The
    // service subscribed to the fleet before this listener, so the frame is gone by the first status that is not ready.
    const openAtFirstNotReady: boolean[] = [];
    const watch = h.fleet.onChanged(() => {
      if (openAtFirstNotReady.length === 0 && !h.fleet.isReady('apps')) openAtFirstNotReady.push(h.apps.proxyResponse(frame.frameId) !== undefined);
    });
    await h.api['servers:restart']('apps');
    watch.dispose();
    expect(openAtFirstNotReady).toEqual([false]);
    expect(h.apps.proxyResponse(frame.frameId)).toBeUndefined();
    expect(await failureOf(h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: 'x' }))).toMatchObject({
      data: { reason: 'server-stopped' },
    });
  });
});

describe('MCP Apps frames: limits', () => {
  it('refuses requests over the rate, and closes a frame that keeps flooding', async () => {
    const h = await appsHost({ limits: { ratePerSecond: 0.001, burst: 5, maxStrikes: 3 } });
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    for (let i = 0; i < 5; i++) await h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: i });
    const over = await failureOf(h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: 'x' }));
    expect(over).toMatchObject({ code: 'request-failed', data: { reason: 'app-rate-limit' } });
    expect(over?.message).toContain('Slow down');
    await failureOf(h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: 'x' }));
    const flood = await failureOf(h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: 'x' }));
    expect(flood).toMatchObject({ data: { reason: 'app-flood' } });
    expect(h.apps.proxyResponse(frame.frameId)).toBeUndefined();
    expect(await failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'refresh_clock', args: {}, callId: 'late' }))).toMatchObject({
      data: { reason: 'app-flood' },
    });
  });

  it('refuses tool arguments and log data over the size limit', async () => {
    const h = await appsHost({ limits: { maxRequestBytes: 1000 } });
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const big = 'x'.repeat(2000);
    const args = await failureOf(h.api['apps:call-tool']({ frameId: frame.frameId, tool: 'refresh_clock', args: { big }, callId: 'big-1' }));
    expect(args).toMatchObject({ code: 'invalid-argument', data: { reason: 'app-too-large' } });
    expect(args?.message).toContain('more than the 1000');
    expect(await failureOf(h.api['apps:log']({ frameId: frame.frameId, level: 'info', data: big }))).toMatchObject({ data: { reason: 'app-too-large' } });
    // Nothing reached the server.
    expect((await h.api['calls:list']()).find((c) => c.callId === 'big-1')).toBeUndefined();
  });
});
