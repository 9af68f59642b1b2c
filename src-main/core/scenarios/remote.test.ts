import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import type { SupervisionPolicy } from '../servers/policy';
import { everythingEntry, freePort, startEverything, tempDir, waitFor } from '../../test-support/processes';
import { startFakeRemote, type FakeRemote } from '../../test-support/fake-remote';

type Everything = Awaited<ReturnType<typeof startEverything>>;

async function hostWith(
  servers: Record<string, unknown>,
  hostEnv: Record<string, string | undefined> = process.env,
  policy: Partial<SupervisionPolicy> = {},
): Promise<Host> {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return createHost({
    mode: 'headless',
    configPath: config,
    dataDir: dir,
    envDir: dir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    hostEnv,
    policy,
  });
}

const viewsOf = async (host: Host) => Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));

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

describe('slow remote servers', () => {
  const fakes: FakeRemote[] = [];
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.stop()));
  });

  it('a server that takes 6.5 s to answer anything still connects (the era probe may take the connect timeout); one slower than its "timeout" says to raise it', async () => {
    const slow = await startFakeRemote({ delayMs: 6500 });
    const stuck = await startFakeRemote({ delayMs: 60_000 });
    fakes.push(slow, stuck);
    const host = await hostWith({ slow: { url: slow.url }, stuck: { url: stuck.url, timeout: 6000 } }, process.env, { startTimeoutMs: 20_000 });
    try {
      await host.settled();
      const views = await viewsOf(host);
      expect(views.slow, views.slow?.error).toMatchObject({ status: 'ready', transport: 'http', era: 'legacy' });
      expect(slow.requests[0]?.rpc).toBe('server/discover');
      expect(views.stuck?.status).toBe('error');
      expect(views.stuck?.error).toBe(
        'Server "stuck" did not finish connecting within 6000 ms. If it is only slow to start (a first npx or uvx download, a JVM, a busy machine), raise "timeout" (in ms) in its config entry.',
      );
    } finally {
      await host.dispose();
    }
  }, 20_000);
});

describe('servers that need sign-in', () => {
  const fakes: FakeRemote[] = [];
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.stop()));
  });

  it('a 401, or a 403 with WWW-Authenticate, says the server needs sign-in, names the challenge, and sends no SSE GET', async () => {
    const metadata = 'https://auth.example.com/.well-known/oauth-protected-resource/mcp';
    const unauthorized = await startFakeRemote({ challenge: { status: 401, header: `Bearer realm="example-mcp", resource_metadata="${metadata}"` } });
    const forbidden = await startFakeRemote({ challenge: { status: 403, header: 'Bearer error="invalid_token", error_description="The token expired"' } });
    const bare = await startFakeRemote({ challenge: { status: 401 } });
    fakes.push(unauthorized, forbidden, bare);
    const host = await hostWith(
      {
        unauthorized: { url: unauthorized.url },
        forbidden: { url: forbidden.url, headers: { Authorization: 'Bearer old-token' } },
        bare: { url: bare.url },
      },
      process.env,
    );
    const legacyHost = await hostWith({ legacyMode: { url: bare.url } }, process.env, { versionMode: 'legacy' });
    try {
      await Promise.all([host.settled(), legacyHost.settled()]);
      const views = { ...(await viewsOf(host)), ...(await viewsOf(legacyHost)) };
      // Its resource metadata cannot be fetched (auth.example.com): an error saying so, with the challenge.
      expect(views.unauthorized?.status).toBe('error');
      expect(views.unauthorized?.error).toContain(
        `Server "unauthorized" needs sign-in: ${unauthorized.url} answered HTTP 401 Unauthorized (realm "example-mcp"; resource metadata at ${metadata}). Switchboard could not start an OAuth sign-in (`,
      );
      expect(views.forbidden?.error).toBe(
        `Server "forbidden" needs sign-in: ${forbidden.url} answered HTTP 403 Forbidden with a WWW-Authenticate challenge (error "invalid_token" (The token expired)). ` +
          'It refused the Authorization header in its config entry: check that the token is valid and not expired.',
      );
      // The codes and data the UI words them from (the challenge's own parameters as the server sent them).
      expect(views.forbidden?.errorInfo).toEqual({
        code: 'sign-in-required',
        data: { server: 'forbidden', url: forbidden.url, httpStatus: 403, how: 'token-refused', error: 'invalid_token', errorDescription: 'The token expired' },
      });
      expect(views.unauthorized?.errorInfo).toMatchObject({
        code: 'sign-in-required',
        data: { server: 'unauthorized', httpStatus: 401, how: 'oauth-failed', realm: 'example-mcp', resourceMetadata: metadata },
      });
      expect(views.bare?.errorInfo).toEqual({ code: 'needs-login', data: { server: 'bare', how: 'host', issuerHost: new URL(bare.url).host } });
      // A bare 401 (no metadata anywhere): the server itself is taken for the authorization server (the 2025-03-26
      // fallback), and a person must sign in there: needs-login, not an error.
      expect(views.bare).toMatchObject({ status: 'needs-login', auth: { state: 'signed-out', issuerHost: new URL(bare.url).host } });
      expect(views.bare?.error).toMatch(/^Server "bare" needs you to sign in at 127\.0\.0\.1:\d+\./);
      expect(views.legacyMode?.status).toBe('needs-login');
      for (const view of Object.values(views)) expect(view.transport).toBe('http');
      // Only the POSTs (the probe, or initialize when pinned to legacy) and OAuth discovery's well-known GETs: no
      // fallback GET to legacy HTTP+SSE.
      for (const fake of [unauthorized, forbidden, bare]) {
        expect(fake.requests.length).toBeGreaterThan(0);
        const other = fake.requests.filter((r) => r.method !== 'POST' && !(r.method === 'GET' && r.path?.startsWith('/.well-known/')));
        expect(other).toEqual([]);
      }
    } finally {
      await Promise.all([host.dispose(), legacyHost.dispose()]);
    }
  });
});

describe('HTTP sessions end with their connection', () => {
  let fake: FakeRemote;
  let otherFake: FakeRemote;
  beforeAll(async () => {
    [fake, otherFake] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  });
  afterAll(async () => {
    await Promise.all([fake.stop(), otherFake.stop()]);
  });

  it('stop, restart, a config reload, disabling, removal and host dispose each DELETE the session (with its Mcp-Session-Id)', async () => {
    const host = await hostWith({ remote: { url: fake.url }, other: { url: otherFake.url } });
    const current = (): string | undefined => fake.sessions.at(-1);
    const endedLast = (): boolean => fake.deletes.at(-1) === current();
    try {
      await host.settled();
      expect((await viewsOf(host)).remote?.status).toBe('ready');
      expect([fake.sessions, fake.deletes, otherFake.sessions]).toEqual([['session-1'], [], ['session-1']]);
      await host.fleet.get('remote').stop();
      expect(fake.deletes).toEqual(['session-1']);
      const deleted = fake.requests.filter((r) => r.method === 'DELETE');
      expect(deleted.map((r) => r.sessionId)).toEqual(['session-1']);

      await host.api['servers:restart']('remote');
      expect(fake.sessions).toEqual(['session-1', 'session-2']);
      await host.api['servers:restart']('remote');
      expect([fake.sessions.length, fake.deletes]).toEqual([3, ['session-1', 'session-2']]);

      // A reload that changes the entry restarts it.
      await host.api['servers:upsert']({ name: 'remote', entry: { url: fake.url, headers: { 'X-Changed': '1' } } });
      await host.settled();
      expect([fake.sessions.length, fake.deletes.length]).toEqual([4, 3]);
      expect((await viewsOf(host)).remote?.status).toBe('ready');

      await host.api['servers:set-enabled']('remote', false);
      expect([fake.sessions.length, fake.deletes.length, endedLast()]).toEqual([4, 4, true]);
      await host.api['servers:set-enabled']('remote', true);
      await host.settled();
      expect([fake.sessions.length, fake.deletes.length]).toEqual([5, 4]);

      await host.api['servers:remove']('other');
      expect(otherFake.deletes).toEqual(['session-1']);

      // Host dispose (quit).
      await host.dispose();
      expect(fake.deletes).toEqual(fake.sessions);
    } finally {
      await host.dispose();
    }
  });

  it("server-everything (the SDK's own Streamable HTTP server) sees its session terminated on dispose", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [everythingEntry, 'streamableHttp'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitFor(() => /listening|running on port/i.test(output), 15_000, 'server-everything to listen');
      const host = await hostWith({ everything: { url: `http://127.0.0.1:${port}/mcp` } });
      await host.settled();
      expect((await viewsOf(host)).everything?.status).toBe('ready');
      const session = /Session initialized with ID: ([\w-]+)/.exec(output)?.[1];
      expect(session).toBeDefined();
      output = '';
      await host.dispose();
      await waitFor(
        () => output.includes(`Received session termination request for session ${session ?? '?'}`),
        5000,
        `the DELETE to reach server-everything (output: ${output})`,
      );
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('a CLI run ends its session before it exits', async () => {
    const dir = tempDir();
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { remote: { url: fake.url } } }));
    const sessionsBefore = fake.sessions.length;
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'cli', 'main.ts'), '--config', config, '--json', 'list'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject([{ name: 'remote', status: 'ready' }]);
    const session = fake.sessions[sessionsBefore];
    expect(session).toBeDefined();
    expect(fake.deletes).toContain(session);
  }, 30_000);
});
