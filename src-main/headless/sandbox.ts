import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOrigin } from '../core/apps/service';
import type { ProxyResponse } from '../core/apps/proxy-page';

/*
 * Headless mode's origin for MCP Apps: a second loopback HTTP server, on a port of its own (so a port away from the
 * UI and the bridge: another origin, which the app's frame can never reach into), with a random token of its own —
 * never the bridge's, which the app must not see. It serves one thing: the sandbox proxy page of an open frame, at
 * `/frame/<frameId>?t=<token>`, with that frame's CSP. Host must be this server (DNS rebinding); nothing else is served.
 */

export interface SandboxServerOptions {
  /** The proxy page of an open frame (AppsService.proxyResponse); undefined when no such frame is open. */
  page(frameId: string): ProxyResponse | undefined;
  /** The renderer's origins (the headless UI): allowed to embed the page and talk to it. */
  parentOrigins: readonly string[];
  host?: string;
  port?: number;
  /** Fixed token (tests); default 32 random bytes. */
  token?: string;
}

export interface SandboxServer extends SandboxOrigin {
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  dispose(): Promise<void>;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
const frameIdPattern = /^[a-f0-9]{32}$/;

function refuse(res: ServerResponse, status: number, reason: string): void {
  res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .end(`${status}: ${reason}\n`);
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const bindHost = options.host ?? '127.0.0.1';
  let port = 0;
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${bindHost}:${port}`]);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(res, 403, 'Host header is not this server');
    // A frame's navigation sends no Origin; a script's request from elsewhere does.
    const origin = req.headers.origin;
    if (origin !== undefined && !options.parentOrigins.includes(origin)) return refuse(res, 403, 'Origin is not the Switchboard page');
    // Only ever loaded as a frame (browsers that say what a request is for): not fetched, not a script or an image.
    const dest = req.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'iframe') return refuse(res, 403, 'the sandbox page is only loaded in a frame');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/frame\/([^/]+)$/.exec(url.pathname);
    if (!match) return refuse(res, 404, 'not found (this server only serves the frames of open apps)');
    const given = url.searchParams.get('t');
    if (given === null || !timingSafeEqual(digest(given), digest(token))) return refuse(res, 403, 'missing or wrong sandbox token');
    const frameId = match[1] ?? '';
    const page = frameIdPattern.test(frameId) ? options.page(frameId) : undefined;
    if (!page) return refuse(res, 404, 'no such app frame is open (it was closed, or Switchboard restarted): open the app again');
    res.writeHead(200, { ...page.headers, 'content-length': Buffer.byteLength(page.body) });
    res.end(req.method === 'HEAD' ? undefined : page.body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const origin = `http://${urlHost}:${port}`;

  let disposing: Promise<void> | undefined;
  return {
    origin,
    port,
    token,
    parentOrigins: options.parentOrigins,
    frameUrl: (frameId) => ({ url: `${origin}/frame/${frameId}?t=${encodeURIComponent(token)}`, origin }),
    dispose() {
      disposing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return disposing;
    },
  };
}
