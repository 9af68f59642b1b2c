import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BridgeMessage, HostApi } from '../../src-shared/host-api';
import { CoreError } from '../core/errors';
import { startHeadless, type HeadlessServer } from './server';
import { fakeHostApi } from '../test-support/fake-api';
import { tempDir } from '../test-support/processes';

/** A HostApi with fixed answers: the bridge, not the core, is under test here. */
function fakeApi(calls: string[]): HostApi {
  return fakeHostApi({
    'app:info': async () => ({ version: 't', mode: 'headless', configPath: '/c', logsDir: '/l', secrets: { backing: 'memory' } }),
    'servers:list': async () => {
      calls.push('servers:list');
      return [];
    },
    'servers:restart': async (name) => {
      calls.push(`servers:restart ${name}`);
      throw new CoreError('unknown-server', `There is no server named "${name}"`);
    },
    'tools:call': async (req) => {
      calls.push(`tools:call ${JSON.stringify(req)}`);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  });
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; setCookie?: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ...(res.headers['set-cookie'] ? { setCookie: res.headers['set-cookie'] } : {}) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openWs(port: number, path: string, headers: Record<string, string>): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ status: -1 }));
  });
}

describe('headless server', () => {
  let server: HeadlessServer;
  const calls: string[] = [];
  beforeAll(async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchboard</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    server = await startHeadless({ api: fakeApi(calls), rendererDir: dir, port: 0 });
  });
  afterAll(async () => {
    await server.dispose();
    await server.dispose();
  });

  it('prints a loopback URL with a long random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
  });

  it('refuses HTTP without the token, with a wrong token, and with a foreign Host or Origin', async () => {
    const p = server.port;
    expect((await get(p, '/')).status).toBe(401);
    expect((await get(p, '/?token=wrong')).status).toBe(401);
    expect((await get(p, `/?token=${server.token}x`)).status).toBe(401);
    expect((await get(p, `/?token=${server.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(p, `/?token=${server.token}`, { host: `attacker.test:${p}` })).status).toBe(403);
    expect((await get(p, `/?token=${server.token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(p, `/assets/app.js`)).status).toBe(401);
  });

  it('serves the UI with the token, then assets with the cookie it set; no path escapes', async () => {
    const p = server.port;
    const page = await get(p, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Switchboard</title>');
    const cookie = page.setCookie?.[0]?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^switchboard_token=/);
    expect((await get(p, '/assets/app.js', { cookie })).status).toBe(200);
    expect((await get(p, '/../../etc/passwd', { cookie })).status).toBe(404);
    expect((await get(p, '/%2e%2e/%2e%2e/etc/passwd', { cookie })).status).toBe(404);
  });

  it('refuses WebSocket upgrades without the token or with a foreign Origin, and does no work', async () => {
    const p = server.port;
    const before = calls.length;
    expect((await openWs(p, '/bridge', { origin: `http://127.0.0.1:${p}` })).status).toBe(401);
    expect((await openWs(p, `/bridge?token=${server.token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await openWs(p, `/bridge?token=${server.token}`, {})).status).toBe(403);
    // The cookie the page got unlocks static files only: the bridge wants the token in its URL.
    expect((await openWs(p, '/bridge', { origin: `http://127.0.0.1:${p}`, cookie: `switchboard_token=${encodeURIComponent(server.token)}` })).status).toBe(401);
    expect(calls.length).toBe(before);
  });

  it('bridges calls with the token: results, HostErrors and argument validation', async () => {
    const p = server.port;
    const { ws } = await openWs(p, `/bridge?token=${server.token}`, { origin: `http://127.0.0.1:${p}` });
    if (!ws) throw new Error('no socket');
    const replies = new Map<number, BridgeMessage>();
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as BridgeMessage;
      if (message.kind === 'response') replies.set(message.id, message);
    });
    const send = async (id: number, channel: string, args: unknown[]): Promise<BridgeMessage> => {
      ws.send(JSON.stringify({ id, channel, args }));
      for (let i = 0; i < 100 && !replies.has(id); i++) await new Promise((r) => setTimeout(r, 10));
      const reply = replies.get(id);
      if (!reply) throw new Error(`no reply to ${id}`);
      return reply;
    };
    expect(await send(1, 'tools:call', [{ server: 's', tool: 't', args: { a: 1 } }])).toEqual({
      kind: 'response',
      id: 1,
      envelope: { ok: true, value: { content: [{ type: 'text', text: 'ok' }] } },
    });
    expect(await send(2, 'servers:restart', ['x'])).toMatchObject({ envelope: { ok: false, error: { code: 'unknown-server' } } });
    expect(await send(3, 'tools:call', [{ server: 5 }])).toMatchObject({ envelope: { ok: false, error: { code: 'invalid-argument' } } });
    expect(await send(4, 'process:exec', ['rm -rf /'])).toMatchObject({ envelope: { ok: false, error: { code: 'invalid-argument' } } });
    expect(calls.filter((c) => c.startsWith('tools:call'))).toEqual(['tools:call {"server":"s","tool":"t","args":{"a":1}}']);
    ws.close();
  });
});
