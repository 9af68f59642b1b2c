import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from './host';
import { StaticSettings } from './settings';
import { nodeRuntime } from './runtime';
import { startEverything, tempDir } from '../test-support/processes';

type Everything = Awaited<ReturnType<typeof startEverything>>;

async function hostWith(servers: Record<string, unknown>, hostEnv: Record<string, string | undefined> = process.env): Promise<Host> {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return createHost({ mode: 'headless', configPath: config, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime: nodeRuntime(), hostEnv });
}

describe('remote servers (server-everything on loopback)', () => {
  let http: Everything;
  let sse: Everything;
  let host: Host | undefined;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  });
  afterAll(async () => {
    await Promise.all([http?.stop(), sse?.stop()]);
  });
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('connects over Streamable HTTP, and falls back to legacy HTTP+SSE when the POST gets a 4xx', async () => {
    host = await hostWith({
      streamable: { url: `http://127.0.0.1:${http.port}/mcp` },
      legacy: { url: `http://127.0.0.1:${sse.port}/sse` },
    });
    await host.settled();
    const views = Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));
    expect(views.streamable).toMatchObject({ status: 'ready', transport: 'http', era: 'legacy' });
    expect(views.legacy).toMatchObject({ status: 'ready', transport: 'sse', era: 'legacy' });
    expect(views.streamable?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(views.streamable?.tools.map((t) => t.name)).toContain('echo');
    for (const server of ['streamable', 'legacy']) {
      const result = await host.api['tools:call']({ server, tool: 'echo', args: { message: `hi ${server}` } });
      expect(JSON.stringify(result.content)).toContain(`hi ${server}`);
    }
  });

  it('an explicit type forces the transport', async () => {
    host = await hostWith({
      forcedSse: { url: `http://127.0.0.1:${sse.port}/sse`, type: 'sse' },
      forcedHttp: { url: `http://127.0.0.1:${sse.port}/sse`, type: 'http' },
    });
    await host.settled();
    const views = Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));
    expect(views.forcedSse).toMatchObject({ status: 'ready', transport: 'sse' });
    // Forced Streamable HTTP against an SSE-only server: no fallback, a readable error.
    expect(views.forcedHttp).toMatchObject({ status: 'error', transport: 'http' });
    expect(views.forcedHttp?.error).toMatch(/40\d|Not Found|Method Not Allowed/i);
  });

  it('a URL with nothing listening fails with a reason a person understands', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    host = await hostWith({ gone: { url: `http://127.0.0.1:${closed}/mcp` } });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view?.status).toBe('error');
    expect(view?.error).toBe(`nothing is listening at http://127.0.0.1:${closed}/mcp (connection refused). Is the server running?`);
  });
});

describe('headers', () => {
  it('sends the entry headers, with ${env:NAME} resolved, on Streamable HTTP and on the SSE fallback', async () => {
    const seen: Array<{ method: string | undefined; headers: IncomingHttpHeaders }> = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method, headers: req.headers });
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const host = await hostWith(
      { remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}', 'X-Team': 'qa' } } },
      { REMOTE_TOKEN: 'tok-123' },
    );
    try {
      await host.settled();
      const [view] = await host.api['servers:list']();
      expect(view?.status).toBe('error');
      const post = seen.find((s) => s.method === 'POST');
      const get = seen.find((s) => s.method === 'GET');
      expect(post?.headers.authorization).toBe('Bearer tok-123');
      expect(post?.headers['x-team']).toBe('qa');
      expect(get?.headers.authorization).toBe('Bearer tok-123');
    } finally {
      await host.dispose();
      server.close();
    }
  });
});
