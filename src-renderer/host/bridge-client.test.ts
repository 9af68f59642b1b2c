import { describe, expect, it } from 'vitest';
import { HostCallError } from './contract';
import {
  createWebSocketClient,
  describeError,
  GONE_REASON,
  STALE_TOKEN_REASON,
  HostDisconnectedError,
  parseBridgeMessage,
  type ConnectionState,
} from './bridge-client';

/** A scripted WebSocket: records frames, lets the test open, answer and close it. */
class FakeSocket {
  static readonly OPEN = 1;
  static last: FakeSocket | undefined;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(frame: string): void {
    this.sent.push(frame);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

const client = () =>
  createWebSocketClient({
    url: 'ws://127.0.0.1:1/bridge?token=t',
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    reconnectDelays: [60_000],
  });

describe('describeError', () => {
  it('keeps the code wherever it survived', () => {
    expect(describeError(new HostCallError({ code: 'cancelled', message: 'Cancelled.' }))).toEqual({
      code: 'cancelled',
      message: 'Cancelled.',
    });
    expect(describeError({ name: 'HostCallError', code: 'unknown-tool', message: 'no such tool' })).toEqual({
      code: 'unknown-tool',
      message: 'no such tool',
    });
    expect(describeError(new Error("Error invoking remote method 'tools:call': Error: boom"))).toEqual({ message: 'boom' });
    expect(describeError('odd')).toEqual({ message: 'odd' });
  });

  it('keeps HostError.data, from a HostCallError and from the preload’s plain rejection', () => {
    const data = { file: '/c/mcp.json', line: 4, column: 7, detail: 'must be an array' };
    expect(describeError(new HostCallError({ code: 'config-invalid', message: 'x', data }))).toEqual({ code: 'config-invalid', message: 'x', data });
    expect(describeError({ name: 'HostCallError', code: 'config-invalid', message: 'x', data })).toEqual({ code: 'config-invalid', message: 'x', data });
  });
});

describe('bridge client', () => {
  it('queues calls until open, then resolves and rejects by envelope', async () => {
    const host = client();
    const socket = FakeSocket.last;
    if (!socket) throw new Error('no socket');
    const list = host.api['servers:list']();
    const call = host.api['tools:call']({ server: 's', tool: 't', args: {} });
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.sent.map((f) => JSON.parse(f) as { id: number; channel: string })).toMatchObject([
      { id: 1, channel: 'servers:list', args: [] },
      { id: 2, channel: 'tools:call', args: [{ server: 's', tool: 't', args: {} }] },
    ]);
    socket.receive({ kind: 'response', id: 2, envelope: { ok: false, error: { code: 'unknown-tool', message: 'no t' } } });
    socket.receive({ kind: 'response', id: 1, envelope: { ok: true, value: [] } });
    await expect(list).resolves.toEqual([]);
    const error: unknown = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostCallError);
    expect(error).toMatchObject({ code: 'unknown-tool', message: 'no t' });
    host.dispose();
  });

  it('delivers events and rejects pending calls when the socket closes', async () => {
    const host = client();
    const socket = FakeSocket.last;
    if (!socket) throw new Error('no socket');
    const states: ConnectionState['status'][] = [];
    host.onConnection((s) => states.push(s.status));
    const seen: unknown[] = [];
    host.api.on('servers:changed', (servers) => seen.push(servers));
    socket.open();
    const delta = { changed: [], removed: ['gone'] };
    socket.receive({ kind: 'event', event: 'servers:changed', payload: delta });
    socket.receive({ kind: 'event', event: 'nope', payload: 1 });
    expect(seen).toEqual([delta]);
    const pending = host.api['app:info']();
    socket.drop();
    await expect(pending).rejects.toBeInstanceOf(HostDisconnectedError);
    await expect(host.api['app:info']()).rejects.toThrow(/Not connected/);
    expect(states).toEqual(['open', 'closed']);
    host.dispose();
  });

  it("too many tabs (1013): shows the host's reason and waits the longest delay before trying again", async () => {
    const host = createWebSocketClient({
      url: 'ws://127.0.0.1:1/bridge?token=t',
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      reconnectDelays: [0, 60_000],
    });
    const first = FakeSocket.last;
    if (!first) throw new Error('no socket');
    first.open();
    // An ordinary drop after an open retries at the first delay (0 here)...
    first.drop(1006);
    await new Promise((r) => setTimeout(r, 5));
    const second = FakeSocket.last;
    expect(second).not.toBe(first);
    if (!second) throw new Error('no socket');
    second.open();
    // ...but the host saying "too many tabs" right after the open does not start a reconnect storm.
    second.drop(1013, 'too many Switchboard tabs open (max 8); close one and reload');
    expect(host.connection()).toEqual({
      status: 'closed',
      reason: 'too many Switchboard tabs open (max 8); close one and reload (code 1013)',
      why: { code: 'bridge-said', data: { detail: 'too many Switchboard tabs open (max 8); close one and reload', closeCode: 1013 } },
      retrying: true,
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(FakeSocket.last).toBe(second);
    host.dispose();
  });

  it('without a token, says how to get one', () => {
    const host = createWebSocketClient({ url: undefined, WebSocketImpl: FakeSocket as unknown as typeof WebSocket });
    const state = host.connection();
    expect(state.status).toBe('closed');
    if (state.status === 'closed') expect(state.reason).toContain('?token=');
  });

  it('ignores malformed frames', () => {
    expect(parseBridgeMessage('nope')).toBeUndefined();
    expect(parseBridgeMessage(JSON.stringify({ kind: 'response', id: 'x' }))).toBeUndefined();
    expect(parseBridgeMessage(JSON.stringify({ kind: 'response', id: 1, envelope: { ok: true } }))).toEqual({
      kind: 'response',
      id: 1,
      envelope: { ok: true },
    });
  });
});

describe('a tab left open while serve restarts', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const restartingClient = (verdict: 'ok' | 'stale' | 'gone') => {
    const states: ConnectionState[] = [];
    const checks: string[] = [];
    const c = createWebSocketClient({
      url: 'ws://127.0.0.1:1/bridge?token=t',
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      reconnectDelays: [0],
      checkBridge: async () => {
        checks.push(verdict);
        return verdict;
      },
    });
    c.onConnection((s) => states.push(s));
    return { c, states, checks };
  };

  it('a new token: stops retrying and says to open the new URL', async () => {
    const { c, checks } = restartingClient('stale');
    FakeSocket.last?.open();
    FakeSocket.last?.drop(); // serve stopped: the first retry is plain
    await new Promise((resolve) => setTimeout(resolve, 5));
    FakeSocket.last?.drop(); // the retry failed (the new serve refuses the old token): ask the host
    await settle();
    expect(checks).toEqual(['stale']);
    expect(c.connection()).toEqual({ status: 'closed', reason: STALE_TOKEN_REASON, why: { code: 'bridge-stale-token' }, retrying: false });
    expect(STALE_TOKEN_REASON).toMatch(/Open the new URL printed by `switchboard serve`/);
    c.dispose();
  });

  it('nothing answering: keeps retrying, saying the address may have changed', async () => {
    const { c, checks } = restartingClient('gone');
    FakeSocket.last?.open();
    FakeSocket.last?.drop();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = FakeSocket.last;
    second?.drop();
    await settle();
    expect(checks).toEqual(['gone']);
    expect(c.connection()).toEqual({ status: 'closed', reason: GONE_REASON, why: { code: 'bridge-gone' }, retrying: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // It tried again, and reconnects once the host is back (same token: --keep-token, or the same run).
    expect(FakeSocket.last).not.toBe(second);
    FakeSocket.last?.open();
    expect(c.connection()).toEqual({ status: 'open' });
    c.dispose();
  });
});
