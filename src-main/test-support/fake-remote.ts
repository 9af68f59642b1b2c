import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake remote saw. */
export interface SeenRequest {
  method: string;
  /** The JSON-RPC method of a POST, when it had one. */
  rpc?: string;
  sessionId?: string;
  /** The request path (OAuth discovery GETs the well-known ones). */
  path?: string;
  /** The Authorization header it carried, when it had one. */
  authorization?: string;
}

export interface FakeRemoteOptions {
  /** Answers nothing until this many ms after it starts listening (a server warming up). */
  delayMs?: number;
  /** Answers every request with this status (401, or 403) and, when given, this WWW-Authenticate header. */
  challenge?: { status: number; header?: string };
}

export interface FakeRemote {
  url: string;
  requests: SeenRequest[];
  /** Session ids the client ended with DELETE. */
  deletes: string[];
  /** Session ids handed out by `initialize`, in order. */
  sessions: string[];
  stop(): Promise<void>;
}

/**
 * A loopback Streamable HTTP server of the 2025 era (sessions, JSON answers), small enough to see every request a
 * client sends: it answers the 2026 `server/discover` probe as a 2025 TypeScript-SDK server does (400, "Server not
 * initialized"), hands out `Mcp-Session-Id`s, records DELETEs, and offers one tool, echo.
 */
export async function startFakeRemote(options: FakeRemoteOptions = {}): Promise<FakeRemote> {
  const requests: SeenRequest[] = [];
  const deletes: string[] = [];
  const sessions: string[] = [];
  const live = new Set<string>();
  let readyAt = 0;
  const sleeping = new Set<() => void>();
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    let message: { id?: string | number; method?: string; params?: { arguments?: { text?: string } } } | undefined;
    if (req.method === 'POST') {
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof message;
      } catch {
        message = undefined;
      }
    }
    requests.push({
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
      ...(message?.method !== undefined ? { rpc: message.method } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
    });
    const wait = readyAt - Date.now();
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          sleeping.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, wait);
        sleeping.add(wake);
      });
      if (res.destroyed) return;
    }
    if (options.challenge) {
      res.writeHead(options.challenge.status, options.challenge.header !== undefined ? { 'www-authenticate': options.challenge.header } : {}).end();
      return;
    }
    if (req.method === 'DELETE') {
      if (sessionId !== undefined && live.delete(sessionId)) deletes.push(sessionId);
      res.writeHead(sessionId !== undefined ? 200 : 400).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (!message) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    if (message.method === 'initialize') {
      const id = `session-${sessions.length + 1}`;
      sessions.push(id);
      live.add(id);
      return json(
        res,
        200,
        {
          jsonrpc: '2.0',
          id: message.id,
          result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fake-remote', version: '1.0.0' } },
        },
        { 'mcp-session-id': id },
      );
    }
    if (sessionId === undefined) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } });
    if (!live.has(sessionId)) return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === 'tools/list') {
      return json(res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        result: { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] },
      });
    }
    if (message.method === 'tools/call') {
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `fake:${message.params?.arguments?.text ?? ''}` }] } });
    }
    if (message.method === 'ping') return json(res, 200, { jsonrpc: '2.0', id: message.id, result: {} });
    return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method ?? ''}` } });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  readyAt = Date.now() + (options.delayMs ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    deletes,
    sessions,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...sleeping]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
