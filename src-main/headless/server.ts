import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { hostChannels } from '../../src-shared/host-schemas';
import {
  hostEventNames,
  type BridgeMessage,
  type Envelope,
  type HostApi,
  type HostChannel,
} from '../../src-shared/host-api';
import { toHostError } from '../core/errors';

/**
 * Headless mode: the renderer bundle and the HostApi over a WebSocket, for a browser. This can start programs,
 * so it is locked down: loopback only by default, a random per-run token on every request and upgrade
 * (compared in constant time), and `Host`/`Origin` must be our own (DNS rebinding).
 */
export interface HeadlessOptions {
  api: HostApi;
  rendererDir: string;
  host?: string;
  port?: number;
  /** Fixed token (tests); default 32 random bytes. */
  token?: string;
}

export interface HeadlessServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  dispose(): Promise<void>;
}

const cookieName = 'switchboard_token';
const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};
const csp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (candidate === undefined) return false;
  // Hashing first makes the comparison constant-time regardless of length.
  return timingSafeEqual(digest(candidate), digest(token));
}

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === cookieName) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export async function startHeadless(options: HeadlessOptions): Promise<HeadlessServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const bindHost = options.host ?? '127.0.0.1';
  let port = 0;
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${bindHost}:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([...allowedHosts()].map((h) => `http://${h}`));

  /** 403 for a foreign Host/Origin, 401 without the token; undefined when the request may proceed. */
  function refuse(req: IncomingMessage, url: URL): { status: number; reason: string } | undefined {
    if (!allowedHosts().has(req.headers.host ?? '')) return { status: 403, reason: 'Host header is not this server' };
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return { status: 403, reason: 'Origin is not this server' };
    const given = url.searchParams.get('token') ?? cookieToken(req);
    if (!tokenMatches(given ?? undefined, token)) return { status: 401, reason: 'missing or wrong token' };
    return undefined;
  }

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refusal = refuse(req, url);
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${refusal.status}: ${refusal.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(options.rendererDir, relative));
    if (!file.startsWith(normalize(options.rendererDir) + sep)) {
      res.writeHead(404).end();
      return;
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404: not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': mimeTypes[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      // The page's own requests (assets, the bridge) then carry the token without it sitting in every URL.
      'set-cookie': `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The bridge needs the token in its URL (the page has it): the cookie alone unlocks only the static files,
    // since browsers send 127.0.0.1 cookies to every port.
    const refusal =
      refuse(req, url) ??
      (req.headers.origin === undefined ? { status: 403, reason: 'Origin header required' } : undefined) ??
      (tokenMatches(url.searchParams.get('token') ?? undefined, token) ? undefined : { status: 401, reason: 'the bridge needs the token in its URL' });
    if (refusal || url.pathname !== '/bridge') {
      const status = refusal?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  const sockets = new Set<WebSocket>();
  function attach(ws: WebSocket): void {
    sockets.add(ws);
    const send = (message: BridgeMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const unsubscribes = hostEventNames.map((event) => options.api.on(event, (payload) => send({ kind: 'event', event, payload })));
    ws.on('message', (data) => {
      void handle(String(data)).then((reply) => reply && send(reply));
    });
    ws.on('close', () => {
      sockets.delete(ws);
      for (const unsubscribe of unsubscribes) unsubscribe();
    });
  }

  async function handle(raw: string): Promise<BridgeMessage | undefined> {
    let request: unknown;
    try {
      request = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (typeof request !== 'object' || request === null) return undefined;
    const { id, channel, args } = request as { id?: unknown; channel?: unknown; args?: unknown };
    if (typeof id !== 'number') return undefined;
    return { kind: 'response', id, envelope: await dispatch(channel, args) };
  }

  async function dispatch(channel: unknown, args: unknown): Promise<Envelope<unknown>> {
    if (typeof channel !== 'string' || !Object.hasOwn(hostChannels, channel)) {
      return { ok: false, error: { code: 'invalid-argument', message: `Unknown channel ${JSON.stringify(channel)}.` } };
    }
    const name = channel as HostChannel;
    const parsed = hostChannels[name].safeParse(args);
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid-argument', message: `Bad arguments for ${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}` } };
    }
    try {
      const method = options.api[name] as (...a: unknown[]) => Promise<unknown>;
      const value = await method(...(parsed.data as unknown[]));
      return { ok: true, value: value ?? null };
    } catch (error) {
      return { ok: false, error: toHostError(error) };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;

  let disposing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    token,
    dispose() {
      disposing ??= new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return disposing;
    },
  };
}
