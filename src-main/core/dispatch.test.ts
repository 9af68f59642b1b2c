import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BridgeMessage, Envelope, HostApi } from '../../src-shared/host-api';
import { invokeChannel } from '../electron/envelope';
import { startHeadless, type HeadlessServer } from '../headless/server';
import { fakeHostApi } from '../test-support/fake-api';
import { tempDir } from '../test-support/processes';
import { dispatch } from './dispatch';
import { CoreError, notSupported } from './errors';

/** A host whose answers are fixed: the one dispatcher and its two faces are under test. */
function api(): HostApi {
  return fakeHostApi({
    'tools:call': async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request) }] }),
    'servers:restart': async (name) => {
      throw new CoreError('tool-call-failed', `Server "${name}" exited with code 3`, { data: { server: name, exitCode: 3, signal: null } });
    },
    'secrets:delete': async () => {
      throw new Error('disk on fire');
    },
    'resources:list': async (server) => {
      throw notSupported('resources:list', server);
    },
    'servers:set-enabled': async () => undefined,
  });
}

/** Calls that must answer alike through Electron IPC and the bridge: a value, a default applied, typed errors with data, bad arguments. */
const cases: Array<{ channel: string; args: unknown[] }> = [
  { channel: 'tools:call', args: [{ server: 'calc', tool: 'add' }] },
  { channel: 'servers:restart', args: ['crashy'] },
  { channel: 'secrets:delete', args: ['x'] },
  { channel: 'resources:list', args: ['calc'] },
  { channel: 'servers:restart', args: [42] },
  { channel: 'tools:call', args: [{ server: '' }] },
  { channel: 'servers:set-enabled', args: ['calc', true] },
];

describe('dispatch: one envelope for Electron IPC and the bridge', () => {
  let headless: HeadlessServer;
  let ws: WebSocket;
  const waiting = new Map<number, (envelope: Envelope<unknown>) => void>();
  let next = 1;
  const internal: string[] = [];

  beforeAll(async () => {
    headless = await startHeadless({ api: api(), rendererDir: tempDir(), log: (line) => internal.push(line) });
    const url = new URL(headless.url);
    ws = new WebSocket(`ws://${url.host}/bridge?token=${headless.token}`, { headers: { origin: url.origin } });
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as BridgeMessage;
      if (message.kind === 'response') waiting.get(message.id)?.(message.envelope);
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
  });
  afterAll(async () => {
    ws.close();
    await headless.dispose();
  });

  const overBridge = (channel: string, args: unknown[]): Promise<Envelope<unknown>> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, channel, args }));
    });
  /** What the page gets: the bridge serializes as JSON, Electron's IPC structured-clones (undefined survives). */
  const asJson = (envelope: Envelope<unknown>): unknown => JSON.parse(JSON.stringify(envelope));

  it.each(cases)('$channel $args', async ({ channel, args }) => {
    const direct = await dispatch(api(), channel, args);
    const ipc = await invokeChannel(api(), channel as 'tools:call', args);
    const bridge = await overBridge(channel, args);
    expect(ipc).toEqual(direct);
    expect(bridge).toEqual(asJson(direct));
  });

  it('answers with the value, defaults applied; typed errors keep code and data; anything else is internal and logged', async () => {
    expect(await dispatch(api(), 'tools:call', [{ server: 'calc', tool: 'add' }])).toEqual({
      ok: true,
      value: { content: [{ type: 'text', text: JSON.stringify({ server: 'calc', tool: 'add', args: {} }) }] },
    });
    expect(await dispatch(api(), 'servers:restart', ['crashy'])).toEqual({
      ok: false,
      error: { code: 'tool-call-failed', message: 'Server "crashy" exited with code 3', data: { server: 'crashy', exitCode: 3, signal: null } },
    });
    expect(await dispatch(api(), 'resources:list', ['calc'])).toMatchObject({
      ok: false,
      error: { code: 'not-supported', data: { channel: 'resources:list', server: 'calc' } },
    });
    const logged: string[] = [];
    expect(await dispatch(api(), 'secrets:delete', ['x'], (line) => logged.push(line))).toEqual({
      ok: false,
      error: { code: 'internal', message: 'disk on fire' },
    });
    expect(logged.join('\n')).toContain('secrets:delete failed: Error: disk on fire');
    expect(internal.join('\n')).toContain('disk on fire');
  });

  it('refuses bad arguments and unknown channels without calling the host, with the same text both ways', async () => {
    const bad = await dispatch(api(), 'servers:restart', [42]);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-argument', data: { channel: 'servers:restart' } } });
    if (!bad.ok) expect(bad.error.message).toMatch(/^Invalid arguments for servers:restart: /);
    expect(await overBridge('process:exec', ['rm -rf /'])).toEqual({
      ok: false,
      error: { code: 'invalid-argument', message: 'Unknown channel "process:exec".', data: { channel: 'process:exec' } },
    });
    expect(await dispatch(api(), 'toString', [])).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });
});
