import { createServer, request } from 'node:http';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeHostApi } from '../test-support/fake-api';
import { tempDir } from '../test-support/processes';
import { readServeState, ServeStateError, serveStateFile, startRemembered, type RememberedServe } from './serve-state';
import { bridgeTokenHash } from './server';

/* `serve` across restarts: the same port when it is free, the token only with --keep-token; real loopback listens. */

function rendererDir(): string {
  const dir = tempDir('switchboard-ui-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchboard</title>');
  return dir;
}

function getJson(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const running: RememberedServe[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.server.dispose();
});

async function serve(dataDir: string, ui: string, options: { keepToken?: boolean; port?: number } = {}): Promise<RememberedServe> {
  const started = await startRemembered({
    api: fakeHostApi({}),
    rendererDir: ui,
    dataDir,
    keepToken: options.keepToken ?? false,
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  running.push(started);
  return started;
}

describe('serve keeps its address across restarts', () => {
  it('reuses the port; a new token unless --keep-token, which keeps it (stored 0600)', async () => {
    const dataDir = tempDir('switchboard-serve-');
    const ui = rendererDir();
    const first = await serve(dataDir, ui);
    const { port, token } = first.server;
    expect(readServeState(dataDir)).toEqual({ host: '127.0.0.1', port });
    await first.server.dispose();

    const second = await serve(dataDir, ui);
    expect([second.server.port, second.portChanged, second.tokenKept]).toEqual([port, false, false]);
    expect(second.server.token).not.toBe(token);
    await second.server.dispose();

    const kept = await serve(dataDir, ui, { keepToken: true });
    await kept.server.dispose();
    const again = await serve(dataDir, ui, { keepToken: true });
    expect([again.server.port, again.server.token, again.tokenKept]).toEqual([port, kept.server.token, true]);
    expect(statSync(serveStateFile(dataDir)).mode & 0o777).toBe(0o600);
    await again.server.dispose();

    // A run without --keep-token forgets the stored token.
    const plain = await serve(dataDir, ui);
    expect(plain.server.token).not.toBe(kept.server.token);
    expect(readServeState(dataDir)?.token).toBeUndefined();
  });

  it('takes a new port, and says so, when the remembered one is taken; --port wins over the memory', async () => {
    const dataDir = tempDir('switchboard-serve-');
    const ui = rendererDir();
    const first = await serve(dataDir, ui);
    const port = first.server.port;
    await first.server.dispose();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const moved = await serve(dataDir, ui);
      expect(moved.portChanged).toBe(true);
      expect(moved.server.port).not.toBe(port);
      expect(readServeState(dataDir)?.port).toBe(moved.server.port);
      await moved.server.dispose();
      // An explicit port that is taken is an error, never silently another port.
      await expect(serve(dataDir, ui, { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('/bridge-info tells a stale tab whether its token still opens the bridge (a hash only, Host/Origin checked)', async () => {
    const dataDir = tempDir('switchboard-serve-');
    const { server } = await serve(dataDir, rendererDir());
    const info = await getJson(server.port, '/bridge-info');
    expect(info.status).toBe(200);
    const body = JSON.parse(info.body) as { app: string; tokenHash: string };
    expect(body).toEqual({ app: 'switchboard', tokenHash: bridgeTokenHash(server.token) });
    expect(info.body).not.toContain(server.token);
    expect((await getJson(server.port, '/bridge-info', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await getJson(server.port, '/bridge-info', { host: `attacker.test:${server.port}` })).status).toBe(403);
    // Everything else still needs the token.
    expect((await getJson(server.port, '/')).status).toBe(401);
  });

  it('a serve.json that cannot be written: a ServeStateError naming the file, the server stopped, no temp file left', async () => {
    const dataDir = tempDir('switchboard-serve-');
    // Where serve.json goes is a folder: the new file cannot be renamed over it (EISDIR), as a full disk fails a write.
    mkdirSync(serveStateFile(dataDir));
    const port = await freePort();
    const error: unknown = await startRemembered({ api: fakeHostApi({}), rendererDir: rendererDir(), dataDir, keepToken: true, port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServeStateError);
    expect(error).toMatchObject({ file: serveStateFile(dataDir), reason: expect.stringMatching(/^EISDIR/) });
    expect(readdirSync(dataDir)).toEqual(['serve.json']);
    // The server started for it was stopped: its port can be listened on again.
    const again = createServer();
    await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });
});
