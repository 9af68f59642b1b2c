// Servers written push-style (a tool sends the host elicitation/create, sampling/createMessage or roots/list while
// it runs; logs without declaring `logging`) work out of the box: on 2026-07-28 such a call fails for want of a
// channel, so the server is reconnected with the 2025-11-25 handshake (remembered in era-cache.json) and the call
// made again; the log level is asked of every server. Against push-style-server.mjs (the TypeScript SDK's own
// refusal, an isError result) and, where python3 has `mcp` 2.x, the real Python server (a JSON-RPC error).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingRequestView, RequestAnswer } from '../../../src-shared/contract/requests';
import type { ServerView } from '../../../src-shared/host-api';
import { askingHosts, textOf } from '../../test-support/asking-host';
import { stopChild, waitFor } from '../../test-support/processes';
import type { Host } from '../host';
import { EraCache } from './era-cache';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { protocolRevisions } from '../../../src-shared/schemas/config';
import { isModernRevision, negotiationFor, pushStyleFailure } from './era-fallback';

const fixture = join(__dirname, '..', 'fixtures', 'push-style-server.mjs');
const pythonFixture = join(__dirname, '..', 'fixtures', 'push_style_server.py');
const push = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: process.execPath, args: [fixture], ...extra });

const start = askingHosts();

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** The fixture over Streamable HTTP on a free loopback port: its URL. */
let lastHttpStop: (() => Promise<void>) | undefined;
async function pushOverHttp(port = 0): Promise<string> {
  const child = spawn(process.execPath, [fixture, '--http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  lastHttpStop = stopChild(child);
  stops.push(lastHttpStop);
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`push-style-server exited with ${code}: ${stderr}`)));
  });
}

/** A person who accepts a form with a name, and anything else as asked. */
const person = (request: PendingRequestView): RequestAnswer =>
  request.kind === 'elicitation-form' ? { action: 'accept', content: { content: { name: 'Ada' } } } : { action: 'accept' };

async function viewOf(host: Host, name: string): Promise<ServerView> {
  const view = (await host.api['servers:list']()).find((v) => v.name === name);
  if (!view) throw new Error(`no server ${name}`);
  return view;
}

function cacheOf(dataDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dataDir, 'era-cache.json'), 'utf8')) as Record<string, unknown>;
}

/** python3 (or $SWITCHBOARD_TEST_PYTHON) with `mcp` 2.x (MCPServer), or why not. */
function pythonWithMcp(): { ok: true; python: string } | { ok: false; reason: string } {
  const python = process.env.SWITCHBOARD_TEST_PYTHON || 'python3';
  const probe = spawnSync(python, ['-c', 'from mcp.server import MCPServer'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.error) return { ok: false, reason: `no ${python} here` };
  if (probe.status !== 0) return { ok: false, reason: `${python} has no Python "mcp" 2.x package (pip install mcp)` };
  return { ok: true, python };
}
const python = pythonWithMcp();

describe('push-style servers on a 2026-07-28 connection', () => {
  it.each([
    { tool: 'ask-name', args: {}, method: 'elicitation/create', said: 'Hello, Ada!' },
    { tool: 'ask-model', args: { topic: 'tea' }, method: 'sampling/createMessage', said: 'model said: A fine answer from the fake model.' },
    { tool: 'list-roots', args: {}, method: 'roots/list', said: 'roots:' },
  ])(
    '$method: a read-only or idempotent call reconnects the server with the 2025-11-25 handshake, is made again and answered',
    async ({ tool, args, method, said }) => {
      const { host, dataDir, seen } = await start({ servers: { push: push() }, person, versionMode: 'auto' });
      expect(await viewOf(host, 'push')).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });

      const result = await host.api['tools:call']({ server: 'push', tool, args });
      expect(result.isError ?? false).toBe(false);
      expect(textOf(result)).toContain(said);
      if (method !== 'roots/list') expect(seen.length).toBeGreaterThan(0);
      const view = await viewOf(host, 'push');
      expect(view).toMatchObject({ status: 'ready', era: 'legacy', protocolVersion: '2025-11-25', eraFallback: method });
      expect(view.stderrTail.join('\n')).toContain(`the server sent ${method} to the host push-style`);
      expect(textOf(await host.api['tools:call']({ server: 'push', tool: 'era', args: {} }))).toBe('2025-11-25');
      // Remembered for this server (by its command line), and kept across a restart.
      expect(Object.values(cacheOf(dataDir))).toEqual([{ kind: 'legacy', pushStyle: method }]);
      await host.api['servers:restart']('push');
      expect(await viewOf(host, 'push')).toMatchObject({ status: 'ready', era: 'legacy', eraFallback: method });
    },
    60_000,
  );

  it('a tool without read-only or idempotent hints is not repeated on its own: the person is told to run it again', async () => {
    const { host, seen } = await start({ servers: { push: push() }, person, versionMode: 'auto' });
    const first = await host.api['tools:call']({ server: 'push', tool: 'sign-up', args: {} });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain('"sign-up" was not repeated on its own');
    expect(textOf(first)).toContain('run it again');
    expect(seen).toEqual([]);
    expect(await viewOf(host, 'push')).toMatchObject({ status: 'ready', era: 'legacy', eraFallback: 'elicitation/create' });
    expect(textOf(await host.api['tools:call']({ server: 'push', tool: 'sign-up', args: {} }))).toBe('Hello, Ada!');
    expect(seen.length).toBe(1);
  }, 60_000);

  it('a remote server: the same over Streamable HTTP, remembered by its URL', async () => {
    const url = await pushOverHttp();
    const { host, dataDir } = await start({ servers: { remote: { url } }, person, versionMode: 'auto' });
    expect(await viewOf(host, 'remote')).toMatchObject({ status: 'ready', transport: 'http', era: 'modern' });
    expect(textOf(await host.api['tools:call']({ server: 'remote', tool: 'ask-name', args: {} }))).toBe('Hello, Ada!');
    expect(await viewOf(host, 'remote')).toMatchObject({ status: 'ready', era: 'legacy', protocolVersion: '2025-11-25', eraFallback: 'elicitation/create' });
    expect(cacheOf(dataDir)).toEqual({ [EraCache.remoteKey(url)]: { kind: 'legacy', pushStyle: 'elicitation/create' } });
    await host.api['servers:restart']('remote');
    expect(await viewOf(host, 'remote')).toMatchObject({ status: 'ready', era: 'legacy', eraFallback: 'elicitation/create' });
  }, 60_000);

  it('a fallback whose next start fails is not kept: once the server is back, the era is negotiated afresh', async () => {
    const url = await pushOverHttp();
    const { host, dataDir } = await start({ servers: { remote: { url } }, person, versionMode: 'auto' });
    expect(textOf(await host.api['tools:call']({ server: 'remote', tool: 'ask-name', args: {} }))).toBe('Hello, Ada!');
    expect(await viewOf(host, 'remote')).toMatchObject({ era: 'legacy', eraFallback: 'elicitation/create' });
    await lastHttpStop?.();
    await host.api['servers:restart']('remote');
    expect(await viewOf(host, 'remote')).toMatchObject({ status: 'error' });
    expect(cacheOf(dataDir)).toEqual({});
    await pushOverHttp(Number(new URL(url).port));
    await host.api['servers:restart']('remote');
    const view = await viewOf(host, 'remote');
    expect(view).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(view.eraFallback).toBeUndefined();
  }, 60_000);

  it('a remembered fallback: the next start connects with the 2025-11-25 handshake at once', async () => {
    const key = EraCache.key(process.execPath, [fixture], process.cwd());
    const { host } = await start({
      servers: { push: push() },
      person,
      versionMode: 'auto',
      prepare: (dataDir) => writeFileSync(join(dataDir, 'era-cache.json'), JSON.stringify({ [key]: { kind: 'legacy', pushStyle: 'elicitation/create' } })),
    });
    expect(await viewOf(host, 'push')).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', eraFallback: 'elicitation/create' });
    expect(textOf(await host.api['tools:call']({ server: 'push', tool: 'ask-name', args: {} }))).toBe('Hello, Ada!');
  }, 60_000);

  it('its log messages reach the Logs tab though it declares no logging (the level goes with each request)', async () => {
    const { host } = await start({ servers: { push: push() }, versionMode: 'auto' });
    const view = await viewOf(host, 'push');
    expect(view).toMatchObject({ era: 'modern', capabilities: { logging: false }, logLevel: 'info' });
    expect(textOf(await host.api['tools:call']({ server: 'push', tool: 'shout', args: { text: 'hi' } }))).toBe('HI');
    await waitFor(async () => (await host.api['logs:list']({ server: 'push' })).length > 0, 5000, 'a log entry');
    expect(await host.api['logs:list']({ server: 'push' })).toMatchObject([{ level: 'info', logger: 'push-style', data: 'shout: hi' }]);
    // Still 2026-07-28: logging alone is no reason to fall back.
    expect(await viewOf(host, 'push')).toMatchObject({ era: 'modern' });
  }, 60_000);

  it('a pinned 2026-07-28 is kept: no fallback, the refusal is the result', async () => {
    const { host, seen } = await start({ servers: { push: push({ protocolVersion: '2026-07-28' }) }, person, versionMode: 'auto' });
    expect(await viewOf(host, 'push')).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', protocolPin: '2026-07-28' });
    const result = await host.api['tools:call']({ server: 'push', tool: 'ask-name', args: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'elicitation/create' cannot be sent");
    expect(seen).toEqual([]);
    const view = await viewOf(host, 'push');
    expect(view).toMatchObject({ era: 'modern', protocolPin: '2026-07-28' });
    expect(view.eraFallback).toBeUndefined();
  }, 60_000);

  it('a pinned initialize-era revision is the one spoken, and push-style requests work on it', async () => {
    const { host } = await start({ servers: { push: push({ protocolVersion: '2025-06-18' }) }, person, versionMode: 'auto' });
    expect(await viewOf(host, 'push')).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', protocolPin: '2025-06-18' });
    expect(textOf(await host.api['tools:call']({ server: 'push', tool: 'ask-name', args: {} }))).toBe('Hello, Ada!');
  }, 60_000);
});

describe('era-fallback helpers', () => {
  it('recognises either SDK refusal, and nothing else', () => {
    const python = new Error("MCP error -32600: Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.");
    expect(pushStyleFailure(python)).toBe('elicitation/create');
    const typescript = {
      isError: true,
      content: [
        {
          type: 'text',
          text: "Server-to-client requests are not available on protocol revision 2026-07-28: 'sampling/createMessage' cannot be sent while serving a request on that revision.",
        },
      ],
    };
    expect(pushStyleFailure(typescript)).toBe('sampling/createMessage');
    expect(pushStyleFailure({ ...typescript, isError: false })).toBeUndefined();
    expect(pushStyleFailure(new Error("Cannot send 'elicitation/create': the person said no"))).toBeUndefined();
    expect(pushStyleFailure(new Error('timed out'))).toBeUndefined();
  });

  it('every initialize-era revision the config allows is one the SDK speaks', () => {
    expect(protocolRevisions.filter((r) => !isModernRevision(r)).every((r) => SUPPORTED_PROTOCOL_VERSIONS.includes(r))).toBe(true);
  });

  it('a pin replaces the negotiation', () => {
    expect(negotiationFor(undefined, 'auto', 5000)).toEqual({ versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } });
    expect(negotiationFor('2026-07-28', 'auto', 5000)).toEqual({ versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs: 5000 } } });
    expect(negotiationFor('2025-03-26', 'auto', 5000)).toEqual({ versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: ['2025-03-26'] });
  });
});

describe.skipIf(!python.ok)(`a real Python mcp 2.x MCPServer${python.ok ? '' : ` (skipped: ${python.reason})`}`, () => {
  const entry = (): Record<string, unknown> => ({ command: python.ok ? python.python : 'python3', args: [pythonFixture], timeout: 30_000 });

  it('ctx.elicit works (the server falls back to 2025-11-25) and ctx.info lines reach the logs', async () => {
    const { host, seen } = await start({ servers: { py: entry() }, person, versionMode: 'auto' });
    expect(await viewOf(host, 'py')).toMatchObject({ status: 'ready', era: 'modern' });
    expect(textOf(await host.api['tools:call']({ server: 'py', tool: 'shout', args: { text: 'hi' } }))).toBe('HI');
    await waitFor(async () => (await host.api['logs:list']({ server: 'py' })).some((e) => e.data === 'shout: hi'), 5000, 'ctx.info on 2026-07-28');

    // greet declares no hints, so the host does not repeat it by itself; the person's second call is answered.
    expect(textOf(await host.api['tools:call']({ server: 'py', tool: 'greet', args: {} }))).toContain('run it again');
    expect(textOf(await host.api['tools:call']({ server: 'py', tool: 'greet', args: {} }))).toBe('Hello, Ada!');
    expect(seen.map((r) => r.kind)).toEqual(['elicitation-form']);
    expect(await viewOf(host, 'py')).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', eraFallback: 'elicitation/create' });
    await waitFor(
      async () => (await host.api['logs:list']({ server: 'py' })).some((e) => e.data === 'greet: asking for a name'),
      5000,
      'ctx.info on 2025-11-25',
    );
  }, 90_000);
});
