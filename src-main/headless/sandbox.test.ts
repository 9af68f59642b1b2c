import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAppCsp } from '../core/apps/csp';
import { proxyPage } from '../core/apps/proxy-page';
import { startSandboxServer, type SandboxServer } from './sandbox';
import { startHeadless } from './server';
import { fakeHostApi } from '../test-support/fake-api';
import { tempDir } from '../test-support/processes';

const frameDeclared = 'a'.repeat(32);
const frameDefault = 'b'.repeat(32);
const declared = buildAppCsp({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }).header;
const restrictive = buildAppCsp(undefined).header;

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function start(): Promise<SandboxServer> {
  server = await startSandboxServer({
    parentOrigins: ['http://127.0.0.1:5555'],
    page: (frameId) =>
      frameId === frameDeclared
        ? proxyPage({ csp: declared, granted: ['clipboardWrite'], title: 'Clock </script>' }, ['http://127.0.0.1:5555'])
        : frameId === frameDefault
          ? proxyPage({ csp: restrictive, granted: [], title: 'Plain' }, ['http://127.0.0.1:5555'])
          : undefined,
  });
  return server;
}

/** A raw GET (Host set by hand, as a rebinding page's request would carry it). */
function get(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
  extra: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...extra } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('headless sandbox origin', () => {
  it('is its own origin, with its own token, on loopback', async () => {
    const s = await start();
    expect(s.origin).toBe(`http://127.0.0.1:${s.port}`);
    expect(s.token.length).toBeGreaterThanOrEqual(40);
    const { url, origin } = s.frameUrl(frameDeclared);
    expect(origin).toBe(s.origin);
    expect(url).toBe(`${s.origin}/frame/${frameDeclared}?t=${s.token}`);
  });

  it('serves a frame with its CSP, no caching, nosniff, CORP and only its granted permissions', async () => {
    const s = await start();
    const res = await get(s.port, `/frame/${frameDeclared}?t=${s.token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(declared);
    expect(res.headers['content-security-policy']).toContain('connect-src https://api.example.com');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    expect(res.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), clipboard-write=*');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('ui/notifications/sandbox-proxy-ready');
    expect(res.body).toContain('ui/notifications/sandbox-resource-ready');
    // The title cannot close the config's script element.
    expect(res.body).not.toContain('Clock </script>');
    expect(res.body).not.toContain('allow-same-origin');
    expect(res.body).not.toContain(s.token);
  });

  it('serves the restrictive default to a frame that declared nothing', async () => {
    const s = await start();
    const res = await get(s.port, `/frame/${frameDefault}?t=${s.token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(restrictive);
    expect(res.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(res.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), clipboard-write=()');
  });

  it('refuses a wrong or missing token, a foreign Host, unknown frames and other paths, saying why', async () => {
    const s = await start();
    const noToken = await get(s.port, `/frame/${frameDeclared}`);
    expect([noToken.status, noToken.body]).toEqual([403, '403: missing or wrong sandbox token\n']);
    expect((await get(s.port, `/frame/${frameDeclared}?t=${s.token}x`)).status).toBe(403);
    const rebinding = await get(s.port, `/frame/${frameDeclared}?t=${s.token}`, `evil.example.com:${s.port}`);
    expect([rebinding.status, rebinding.body]).toEqual([403, '403: Host header is not this server\n']);
    expect((await get(s.port, `/frame/${frameDeclared}?t=${s.token}`, 'localhost:1')).status).toBe(403);
    const unknown = await get(s.port, `/frame/${'c'.repeat(32)}?t=${s.token}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('no such app frame is open');
    expect((await get(s.port, `/frame/../../etc/passwd?t=${s.token}`)).status).toBe(404);
    expect((await get(s.port, `/?t=${s.token}`)).status).toBe(404);
    expect(unknown.headers['content-security-policy']).toBeUndefined();
    // Fetched by a script of another page, or loaded as something other than a frame.
    const ok = `/frame/${frameDeclared}?t=${s.token}`;
    const foreign = await get(s.port, ok, undefined, { origin: 'http://evil.example.com' });
    expect([foreign.status, foreign.body]).toEqual([403, '403: Origin is not the Switchboard page\n']);
    expect((await get(s.port, ok, undefined, { origin: 'http://127.0.0.1:5555' })).status).toBe(200);
    expect((await get(s.port, ok, undefined, { 'sec-fetch-dest': 'script' })).status).toBe(403);
    expect((await get(s.port, ok, undefined, { 'sec-fetch-dest': 'iframe' })).status).toBe(200);
    // localhost names the same server.
    expect((await get(s.port, `/frame/${frameDeclared}?t=${s.token}`, `localhost:${s.port}`)).status).toBe(200);
  });
});

describe('the headless page and the sandbox origin', () => {
  it('the page may frame the sandbox origin once it is known, and nothing else', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchboard</title>');
    let frames: string[] = [];
    const page = await startHeadless({ api: fakeHostApi({}), rendererDir: dir, frameSources: () => frames });
    try {
      const policy = async (): Promise<string | undefined> => {
        const res = await get(page.port, `/?token=${page.token}`);
        return res.headers['content-security-policy'] as string | undefined;
      };
      expect(await policy()).toContain("frame-src 'none'");
      const s = await start();
      frames = [s.origin];
      expect(await policy()).toContain(`frame-src ${s.origin};`);
    } finally {
      await page.dispose();
    }
  });
});
