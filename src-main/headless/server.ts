import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { hostEventNames, type BridgeMessage, type HostApi } from '../../src-shared/host-api';
import { DisposableStore, toDisposable } from '../../src-shared/lifecycle';
import { dispatch } from '../core/dispatch';
import { isInside } from '../core/support/paths';

/**
 * Headless mode: the renderer bundle and the HostApi over a WebSocket, for a browser. This can start programs,
 * so it is locked down: loopback only by default, a random per-run token on every request and upgrade
 * (compared in constant time), and `Host`/`Origin` must be our own (DNS rebinding).
 *
 * The token opens the bridge, and only from the URL (`/bridge?token=…`, which the page builds from what it keeps
 * in sessionStorage). Static files also open with a cookie, but that cookie holds a *different* random value
 * (the static key): browsers send 127.0.0.1 cookies to every port, so any other local server the browser visits
 * gets it, and it must not be worth anything beyond the (public) UI bundle.
 */
export interface HeadlessOptions {
  api: HostApi;
  rendererDir: string;
  host?: string;
  port?: number;
  /** Fixed token (tests); default 32 random bytes. */
  token?: string;
  /** Bridge connections open at once (tabs); more are closed with 1013 and a reason. Default 8. */
  maxConnections?: number;
  /** Where unexpected (internal) call failures are logged with their stack. */
  log?: (line: string) => void;
  /** The origins the page may frame (MCP Apps' sandbox origin, started after this server); none by default. */
  frameSources?: () => readonly string[];
}

export interface HeadlessServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  dispose(): Promise<void>;
}

export const defaultMaxConnections = 8;
/** WebSocket close code "try again later": the page shows the reason and retries on its own. */
export const tooManyConnectionsCode = 1013;
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
/** The page's policy; `frames`: the origins it may frame (apps' sandbox origin), none when empty. */
export function pageCsp(frames: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** What `/bridge-info` tells of the token: the first 16 bytes of its SHA-256, base64url (the page compares). */
export function bridgeTokenHash(token: string): string {
  return digest(token).subarray(0, 16).toString('base64url');
}

function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (candidate === undefined) return false;
  // Hashing first makes the comparison constant-time regardless of length.
  return timingSafeEqual(digest(candidate), digest(token));
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function startHeadless(options: HeadlessOptions): Promise<HeadlessServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  // Unlocks static files only; never the bridge, never a page that holds the token.
  const staticKey = randomBytes(32).toString('base64url');
  const maxConnections = options.maxConnections ?? defaultMaxConnections;
  const rendererRoot = await realpath(options.rendererDir);
  const bindHost = options.host ?? '127.0.0.1';
  let port = 0;
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${bindHost}:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([...allowedHosts()].map((h) => `http://${h}`));

  // Named after the port: two `serve` runs share the browser's 127.0.0.1 cookie jar and must not evict each other.
  const cookieName = (): string => `switchboard_static_${port}`;

  /** 403 for a foreign Host/Origin; undefined when the request may go on to the credential check. */
  function refuseOrigin(req: IncomingMessage): { status: number; reason: string } | undefined {
    if (!allowedHosts().has(req.headers.host ?? '')) return { status: 403, reason: 'Host header is not this server' };
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return { status: 403, reason: 'Origin is not this server' };
    return undefined;
  }

  /** Static files: the token in the URL (the first load), else the static-key cookie (assets, reloads). */
  function refuseStatic(req: IncomingMessage, url: URL): { status: number; reason: string } | undefined {
    const refusal = refuseOrigin(req);
    if (refusal) return refusal;
    const fromUrl = url.searchParams.get('token');
    const ok = fromUrl !== null ? tokenMatches(fromUrl, token) : tokenMatches(cookieValue(req, cookieName()), staticKey);
    return ok
      ? undefined
      : {
          status: 401,
          reason:
            'missing or wrong token. Open the exact URL printed by `switchboard serve` (a restarted serve prints a new one, unless it was started with --keep-token)',
        };
  }

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Needs no token (Host and Origin are still checked): a tab left open across a restart asks whether its token
    // still opens the bridge, so it can say "open the new URL" instead of reconnecting forever. It tells only a
    // hash of the token (no oracle to guess against), nothing else.
    if (url.pathname === '/bridge-info') {
      const refused = refuseOrigin(req);
      if (refused) {
        res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${refused.status}: ${refused.reason}\n`);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
        .end(JSON.stringify({ app: 'switchboard', tokenHash: bridgeTokenHash(token) }));
      return;
    }
    const refusal = refuseStatic(req, url);
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${refusal.status}: ${refusal.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await resolveFile(url.pathname);
    const info = file === undefined ? undefined : await stat(file).catch(() => undefined);
    if (file === undefined || !info?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404: not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': mimeTypes[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'content-security-policy': pageCsp(options.frameSources?.() ?? []),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      // The page's asset requests and reloads carry this; it is not the token and does not open the bridge.
      'set-cookie': `${cookieName()}=${staticKey}; HttpOnly; SameSite=Strict; Path=/`,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    stream.once('error', () => res.destroy());
    stream.pipe(res);
  }

  /**
   * The real path of a regular file inside the UI folder for a URL path, else undefined. Symlinks are followed
   * and then judged by where they lead: a link inside the folder must not reach any other file.
   */
  async function resolveFile(pathname: string): Promise<string | undefined> {
    let relative: string;
    try {
      relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    } catch {
      return undefined;
    }
    if (relative.includes('\0')) return undefined;
    const lexical = normalize(join(rendererRoot, relative));
    if (!isInside(lexical, rendererRoot) || lexical === rendererRoot) return undefined;
    const real = await realpath(lexical).catch(() => undefined);
    if (real === undefined || !isInside(real, rendererRoot) || real === rendererRoot) return undefined;
    return real;
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  // ws reports a failed handshake here; never let it reach an unhandled 'error'.
  wss.on('error', () => undefined);
  server.on('upgrade', (req, socket, head) => {
    // Node removes its own handler from an upgraded socket: a reset now must end this socket, not the host.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The bridge needs the token in its URL (the page has it); no cookie opens it.
    const refusal =
      refuseOrigin(req) ??
      (req.headers.origin === undefined ? { status: 403, reason: 'Origin header required' } : undefined) ??
      (tokenMatches(url.searchParams.get('token') ?? undefined, token) ? undefined : { status: 401, reason: 'the bridge needs the token in its URL' });
    if (refusal || url.pathname !== '/bridge') {
      const status = refusal?.status ?? 404;
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  /** Every open socket (dispose ends them all); `served` counts those within the cap. */
  const sockets = new Set<WebSocket>();
  let served = 0;
  function attach(ws: WebSocket): void {
    sockets.add(ws);
    // A malformed frame (unmasked, reserved opcode or bit, bad UTF-8, bad close code, over maxPayload) makes ws
    // send a close frame with the right code and emit 'error': that must end this connection only.
    ws.on('error', () => ws.terminate());
    if (served >= maxConnections) {
      ws.once('close', () => sockets.delete(ws));
      ws.close(tooManyConnectionsCode, `too many Switchboard tabs open (max ${maxConnections}); close one and reload`);
      return;
    }
    served += 1;
    const send = (message: BridgeMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const subscriptions = new DisposableStore();
    for (const event of hostEventNames) subscriptions.add(toDisposable(options.api.on(event, (payload) => send({ kind: 'event', event, payload }))));
    ws.on('message', (data) => {
      void handle(String(data)).then((reply) => reply && send(reply));
    });
    ws.once('close', () => {
      sockets.delete(ws);
      served -= 1;
      subscriptions.dispose();
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
    return { kind: 'response', id, envelope: await dispatch(options.api, channel, args, options.log) };
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
