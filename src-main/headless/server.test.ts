import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  let secretFile: string;
  beforeAll(async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchboard</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    // Links inside the UI folder that reach outside it: a file and a whole folder.
    const outside = tempDir();
    secretFile = join(outside, 'secret.txt');
    writeFileSync(secretFile, 'TOP-SECRET');
    symlinkSync(secretFile, join(dir, 'assets', 'leak.js'));
    symlinkSync(outside, join(dir, 'linked'));
    // A link whose target is a regular file inside the folder is fine.
    symlinkSync(join(dir, 'assets', 'app.js'), join(dir, 'assets', 'alias.js'));
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
    expect(cookie).toMatch(/^switchboard_static_\d+=[A-Za-z0-9_-]{40,}$/);
    expect(page.setCookie?.[0]).toMatch(/; HttpOnly; SameSite=Strict; Path=\//);
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
    // The bridge wants the token in its URL: a cookie, even one holding the token, never opens it.
    expect((await openWs(p, '/bridge', { origin: `http://127.0.0.1:${p}`, cookie: `switchboard_token=${encodeURIComponent(server.token)}` })).status).toBe(401);
    expect(calls.length).toBe(before);
  });

  it("the attack: a second loopback server gets the browser's cookies and still cannot open the bridge", async () => {
    const p = server.port;
    const origin = `http://127.0.0.1:${p}`;
    // The browser loads the page with the token, and keeps what Set-Cookie says.
    const page = await get(p, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    const jar = (page.setCookie ?? []).map((c) => c.split(';')[0] ?? '').join('; ');
    expect(jar).not.toBe('');
    // 127.0.0.1 cookies are not per port: the browser sends the same jar to any other local server it visits.
    const seen: string[] = [];
    const attacker: Server = createServer((req, res) => {
      seen.push(req.headers.cookie ?? '');
      res.end('hello');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const attackerPort = (attacker.address() as AddressInfo).port;
    try {
      expect((await get(attackerPort, '/', { cookie: jar })).status).toBe(200);
    } finally {
      attacker.close();
    }
    const stolen = seen[0] ?? '';
    expect(stolen).toBe(jar);
    const values = stolen.split(';').map((part) => decodeURIComponent(part.trim().split('=').slice(1).join('=')));
    expect(values.length).toBeGreaterThan(0);
    const before = calls.length;
    for (const value of values) {
      // Every way the attacker can present what it stole, with an Origin it forges (it is not a browser).
      const attempts: Array<[string, Record<string, string>, number]> = [
        [`/bridge?token=${encodeURIComponent(value)}`, { origin }, 401],
        [`/bridge?token=${encodeURIComponent(value)}`, { origin, cookie: stolen }, 401],
        ['/bridge', { origin, cookie: stolen }, 401],
        // From a page the attacker serves, as the victim's browser would send it: a foreign Origin.
        [`/bridge?token=${encodeURIComponent(value)}`, { origin: `http://127.0.0.1:${attackerPort}`, cookie: stolen }, 403],
      ];
      for (const [path, headers, status] of attempts) {
        const opened = await openWs(p, path, headers);
        if (opened.ws) {
          // Were it open, this is the call that would start any program as the user.
          opened.ws.send(JSON.stringify({ id: 1, channel: 'servers:list', args: [] }));
          opened.ws.close();
        }
        expect(opened.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
      }
      // Nor does the stolen value stand in for the token on the page, or lead to it.
      expect((await get(p, `/?token=${encodeURIComponent(value)}`)).status).toBe(401);
      const withCookie = await get(p, '/', { cookie: stolen });
      expect(withCookie.status).toBe(200);
      expect(withCookie.body).not.toContain(server.token);
    }
    expect(calls.length).toBe(before);
  });

  it('serves only regular files whose real path is inside the UI folder: symlinks out (or in) are 404', async () => {
    const p = server.port;
    const page = await get(p, `/?token=${server.token}`);
    const cookie = page.setCookie?.[0]?.split(';')[0] ?? '';
    expect((await get(p, '/assets/app.js', { cookie })).body).toBe('console.log(1)');
    const leak = await get(p, '/assets/leak.js', { cookie });
    expect([leak.status, leak.body.includes('TOP-SECRET')]).toEqual([404, false]);
    const viaDir = await get(p, '/linked/secret.txt', { cookie });
    expect([viaDir.status, viaDir.body.includes('TOP-SECRET')]).toEqual([404, false]);
    expect((await get(p, `/linked/secret.txt?token=${server.token}`)).status).toBe(404);
    expect((await get(p, '/assets/alias.js', { cookie })).body).toBe('console.log(1)');
    expect((await get(p, '/assets', { cookie })).status).toBe(404);
    // The real file is untouched and readable by its owner: only the server refused it.
    expect(readFileSync(secretFile, 'utf8')).toBe('TOP-SECRET');
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

describe('headless server connection cap', () => {
  let server: HeadlessServer;
  beforeAll(async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchboard</title>');
    server = await startHeadless({ api: fakeApi([]), rendererDir: dir, port: 0, maxConnections: 2 });
  });
  afterAll(() => server.dispose());

  const open = async (): Promise<WebSocket> => {
    const { ws, status } = await openWs(server.port, `/bridge?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
    if (!ws) throw new Error(`upgrade refused with ${status}`);
    return ws;
  };
  const closed = (ws: WebSocket): Promise<{ code: number; reason: string }> =>
    new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const answers = (ws: WebSocket): Promise<BridgeMessage> =>
    new Promise((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as BridgeMessage));
      ws.send(JSON.stringify({ id: 7, channel: 'app:info', args: [] }));
    });

  it('closes connections beyond the cap with 1013 and a reason a person can act on; a freed slot is reused', async () => {
    const first = await open();
    const second = await open();
    const third = await open();
    // Over the cap the socket is closed before it can do anything (were it served, it would answer).
    expect(await Promise.race([closed(third), answers(third)])).toEqual({ code: 1013, reason: 'too many Switchboard tabs open (max 2); close one and reload' });
    // The two within the cap still work.
    expect(await answers(first)).toMatchObject({ kind: 'response', id: 7, envelope: { ok: true } });
    expect(await answers(second)).toMatchObject({ kind: 'response', id: 7, envelope: { ok: true } });
    const gone = closed(first);
    first.close();
    await gone;
    const fourth = await open();
    expect(await answers(fourth)).toMatchObject({ kind: 'response', id: 7, envelope: { ok: true } });
    second.close();
    fourth.close();
  });
});
