import type {
  BridgeMessage,
  BridgeRequest,
  Envelope,
  HostApi,
  HostChannel,
  HostEventName,
  HostEvents,
  HostMethods,
  StatusReason,
  Unsubscribe,
} from '../../src-shared/host-api';
import { channelNames, HostCallError, isEventName, preloadGlobalName, unwrap } from './contract';
import { currentLanguage, errorText, reasonText } from '../i18n';

/**
 * How the renderer reaches the host. In Electron the preload exposes a `HostApi` as `window.switchboard`;
 * in headless mode (a plain browser) the same interface is spoken over the WebSocket bridge.
 */

export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'open' }
  /**
   * `retrying`: the bridge will try again on its own (it does unless there is no token or the page closed it).
   * `reason` is English; `why` its code and data (`reasons.bridge-*`), for the UI's language (see reasonText).
   */
  | { status: 'closed'; reason: string; why?: StatusReason; retrying: boolean };

/** The renderer's one way to the host, whichever carries it: Electron IPC through the preload, or the WebSocket bridge. */
export interface BridgeClient {
  readonly api: HostApi;
  readonly kind: 'preload' | 'bridge';
  connection(): ConnectionState;
  /** Called on every connection change (the bridge reconnects on its own). */
  onConnection(listener: (state: ConnectionState) => void): Unsubscribe;
  dispose(): void;
}

/** Rejection of a call that could not reach the host; distinct from a HostCallError the host returned. */
export class HostDisconnectedError extends Error {
  /** Why (English) and its code and data, for describeError to word in the UI's language. */
  readonly reason: string | undefined;
  readonly why: StatusReason | undefined;
  constructor(message = 'Disconnected from the Switchboard host.', cause?: { reason: string; why: StatusReason | undefined }) {
    super(message);
    this.name = 'HostDisconnectedError';
    this.reason = cause?.reason;
    this.why = cause?.why;
  }
}

export const TOKEN_STORAGE_KEY = 'switchboard.bridgeToken';

/** The preload's API, if this page runs inside the Electron window. */
export function findPreloadApi(scope: unknown = globalThis): HostApi | undefined {
  if (typeof scope !== 'object' || scope === null) return undefined;
  const exposed: unknown = (scope as Record<string, unknown>)[preloadGlobalName];
  if (typeof exposed !== 'object' || exposed === null) return undefined;
  const record = exposed as Record<string, unknown>;
  const complete = typeof record.on === 'function' && channelNames.every((c) => typeof record[c] === 'function');
  return complete ? (exposed as HostApi) : undefined;
}

export function createPreloadClient(api: HostApi): BridgeClient {
  const open: ConnectionState = { status: 'open' };
  return {
    api,
    kind: 'preload',
    connection: () => open,
    onConnection: () => () => undefined,
    dispose: () => undefined,
  };
}

/**
 * Reads the bridge token: from `?token=` (then remembered in sessionStorage so a reload works, and removed from
 * the address bar so it does not linger in history or screenshots), else from sessionStorage.
 */
export function takeBridgeToken(location: Location, storage: Storage | undefined, history: History | undefined): string | undefined {
  const url = new URL(location.href);
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) {
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, fromQuery);
    } catch {
      // storage may be unavailable; the token still works for this page load
    }
    if (history) {
      url.searchParams.delete('token');
      history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
    }
    return fromQuery;
  }
  try {
    return storage?.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type AnyListener = (payload: unknown) => void;

export interface WebSocketClientOptions {
  /** `ws://host/bridge?token=…`, or undefined when there is no token (then the client reports why). */
  url: string | undefined;
  WebSocketImpl?: typeof WebSocket;
  /** Delays between reconnection attempts, ms; the last one repeats. */
  reconnectDelays?: readonly number[];
  /**
   * After a dropped connection fails to come back: asks the host whether this page's token still opens it (see
   * `bridgeCheck`). `stale` stops the retries with a message to open the new URL; `gone` keeps retrying but says
   * the address may have changed.
   */
  checkBridge?: () => Promise<'ok' | 'stale' | 'gone'>;
}

/** What the page says when `serve` came back with a new token: retrying cannot help. */
export const STALE_TOKEN_REASON =
  'Switchboard was restarted and has a new access token, so this tab cannot reconnect. Open the new URL printed by `switchboard serve` (start it with --keep-token to keep the token across restarts).';
/** What the page says while nothing answers at this address any more. */
export const GONE_REASON =
  'Switchboard is not answering at this address. If you restarted `switchboard serve` and its port changed, open the new URL it printed.';

/**
 * Asks the host's `/bridge-info` (no token needed) for the hash of its token and compares it with this page's:
 * ok (same host, same token), stale (restarted with another token), gone (nothing answers).
 */
export async function bridgeCheck(origin: string, token: string, fetchImpl: typeof fetch = fetch): Promise<'ok' | 'stale' | 'gone'> {
  let info: unknown;
  try {
    const response = await fetchImpl(`${origin}/bridge-info`, { cache: 'no-store' });
    if (!response.ok) return 'gone';
    info = await response.json();
  } catch {
    return 'gone';
  }
  const hash = typeof info === 'object' && info !== null ? (info as { tokenHash?: unknown }).tokenHash : undefined;
  if (typeof hash !== 'string') return 'gone';
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))).subarray(0, 16);
  const mine = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return mine === hash ? 'ok' : 'stale';
}

/** WebSocket close code the host uses when too many tabs are open (its reason says so). */
const TRY_AGAIN_LATER = 1013;

const NO_TOKEN_REASON = 'No access token. Open the exact URL printed by `switchboard serve` (it ends in ?token=…).';

/** The host over the headless WebSocket bridge (`switchboard serve`): queues calls while connecting, reconnects on its own. */
export function createWebSocketClient(options: WebSocketClientOptions): BridgeClient {
  const WS = options.WebSocketImpl ?? WebSocket;
  const delays = options.reconnectDelays ?? [500, 1000, 2000, 5000];
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const listeners = new Map<HostEventName, Set<AnyListener>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = { status: 'connecting' };
  let socket: WebSocket | undefined;
  let nextId = 1;
  let attempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const setState = (next: ConnectionState): void => {
    state = next;
    for (const listener of connectionListeners) listener(next);
  };

  const rejectAll = (error: Error): void => {
    queue.length = 0;
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) call.reject(error);
  };

  const dispatch = (message: BridgeMessage): void => {
    if (message.kind === 'response') {
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      try {
        call.resolve(unwrap(message.envelope));
      } catch (error) {
        call.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return;
    }
    for (const listener of listeners.get(message.event) ?? []) {
      try {
        listener(message.payload);
      } catch (error) {
        console.error(`listener for ${message.event} failed`, error);
      }
    }
  };

  const connect = (): void => {
    if (disposed) return;
    if (options.url === undefined) {
      setState({ status: 'closed', reason: NO_TOKEN_REASON, why: { code: 'bridge-no-token' }, retrying: false });
      return;
    }
    setState({ status: 'connecting' });
    const ws = new WS(options.url);
    socket = ws;
    ws.onopen = () => {
      attempts = 0;
      setState({ status: 'open' });
      for (const frame of queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (event: MessageEvent) => {
      const message = parseBridgeMessage(event.data);
      if (message) dispatch(message);
      else console.warn('ignored a malformed bridge message');
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = undefined;
      const { reason, why } = closeReason(event);
      rejectAll(new HostDisconnectedError(`Disconnected from the Switchboard host: ${reason}`, { reason, why }));
      setState({ status: 'closed', reason, why, retrying: !disposed });
      // A connection that does not come back: is it a restart with a new token (stop, say so) or no host at all?
      if (!disposed && options.checkBridge && attempts >= 1 && event.code !== TRY_AGAIN_LATER) {
        const check = options.checkBridge;
        attempts += 1;
        void check().then(
          (verdict) => {
            if (disposed || socket !== undefined) return;
            if (verdict === 'stale') {
              setState({ status: 'closed', reason: STALE_TOKEN_REASON, why: { code: 'bridge-stale-token' }, retrying: false });
              return;
            }
            if (verdict === 'gone') setState({ status: 'closed', reason: GONE_REASON, why: { code: 'bridge-gone' }, retrying: true });
            reconnectTimer = setTimeout(connect, delays[Math.min(attempts - 1, delays.length - 1)] ?? 5000);
          },
          () => {
            if (!disposed && socket === undefined) reconnectTimer = setTimeout(connect, delays[delays.length - 1] ?? 5000);
          },
        );
        return;
      }
      if (!disposed) {
        // "Too many tabs" (1013) follows a successful open, which resets the backoff: wait the longest delay.
        const step = event.code === TRY_AGAIN_LATER ? delays.length - 1 : Math.min(attempts, delays.length - 1);
        const delay = delays[step] ?? 5000;
        attempts += 1;
        reconnectTimer = setTimeout(connect, delay);
      }
    };
  };

  const call = (channel: HostChannel, args: readonly unknown[]): Promise<unknown> =>
    new Promise<unknown>((resolve, reject) => {
      if (state.status === 'closed') {
        reject(new HostDisconnectedError(`Not connected to the Switchboard host: ${state.reason}`, { reason: state.reason, why: state.why }));
        return;
      }
      const id = nextId++;
      const request: BridgeRequest = { id, channel, args: [...args] };
      pending.set(id, { resolve, reject });
      const frame = JSON.stringify(request);
      if (state.status === 'open' && socket?.readyState === WS.OPEN) socket.send(frame);
      else queue.push(frame);
    });

  // One method per channel, from the list checked against the contract; main parses every argument.
  const methods = Object.fromEntries(channelNames.map((channel) => [channel, (...args: unknown[]) => call(channel, args)])) as unknown as HostMethods;

  const api: HostApi = {
    ...methods,
    on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): Unsubscribe {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      // The payload comes from main, which the renderer trusts; the wire type is `unknown`.
      const wrapped = listener as AnyListener;
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
  };

  connect();

  return {
    api,
    kind: 'bridge',
    connection: () => state,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      const ws = socket;
      socket = undefined;
      ws?.close();
      rejectAll(new HostDisconnectedError('The connection to the host was closed.', { reason: 'closed by the page', why: { code: 'bridge-page' } }));
      setState({ status: 'closed', reason: 'closed by the page', why: { code: 'bridge-page' }, retrying: false });
    },
  };
}

function closeReason(event: CloseEvent): { reason: string; why: StatusReason } {
  // The host's own close reason (e.g. too many tabs) is its English text: quoted as it is.
  if (event.reason)
    return { reason: `${event.reason} (code ${event.code})`, why: { code: 'bridge-said', data: { detail: event.reason, closeCode: event.code } } };
  if (event.code === 1006) return { reason: 'the host is not reachable (is `switchboard serve` still running?)', why: { code: 'bridge-unreachable' } };
  if (event.code === 1008) return { reason: 'the host refused the connection (bad or expired token)', why: { code: 'bridge-refused' } };
  return { reason: `connection closed (code ${event.code})`, why: { code: 'bridge-closed', data: { closeCode: event.code } } };
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  // `value` may be absent on the wire for void results (JSON drops undefined).
  if (record.ok === true) return true;
  if (record.ok !== false) return false;
  const error = record.error;
  return typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>).message === 'string';
}

export function parseBridgeMessage(data: unknown): BridgeMessage | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.kind === 'response' && typeof record.id === 'number' && isEnvelope(record.envelope)) {
    return { kind: 'response', id: record.id, envelope: record.envelope };
  }
  if (record.kind === 'event' && isEventName(record.event)) {
    return { kind: 'event', event: record.event, payload: record.payload };
  }
  return undefined;
}

/** The client for this page: the preload's API in Electron, else the WebSocket bridge. */
export function createBridgeClient(): BridgeClient {
  const preload = findPreloadApi(window);
  if (preload) return createPreloadClient(preload);
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  const token = takeBridgeToken(window.location, storage, window.history);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const url = token ? `${scheme}://${window.location.host}/bridge?token=${encodeURIComponent(token)}` : undefined;
  const origin = window.location.origin;
  return createWebSocketClient({ url, ...(token ? { checkBridge: () => bridgeCheck(origin, token) } : {}) });
}

/** A person-readable message, code and structured data (HostError.data) for anything a host call may throw. */
export function describeError(error: unknown): { message: string; code?: string; data?: Record<string, unknown> } {
  // The message in the UI's language, from the code and data (English: the host's own words; see errorText).
  if (error instanceof HostCallError) {
    const data = error.data !== undefined ? { data: error.data } : {};
    return { message: errorText({ code: error.code, message: error.message, ...data }), code: error.code, ...data };
  }
  if (error instanceof HostDisconnectedError) {
    // Other languages: the why in words of their own after their "disconnected" (English: the message as it is).
    const why = error.reason !== undefined && currentLanguage() !== 'en' ? reasonText(error.reason, error.why) : error.message;
    return { message: errorText({ code: 'disconnected', message: why }), code: 'disconnected' };
  }
  if (error instanceof Error) {
    // Errors crossing Electron's contextBridge keep only their message; keep a `code` if one survived.
    const code: unknown = (error as Error & { code?: unknown }).code;
    const message = error.message.replace(/^Error invoking remote method '[^']+': (?:\w*Error: )?/, '');
    return typeof code === 'string' ? { message: errorText({ message, code }), code } : { message };
  }
  // A plain `{ code, message }` (what survives contextBridge intact, unlike an Error's own fields).
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const { message, code, data } = error as { message: string; code?: unknown; data?: unknown };
    const structured = typeof data === 'object' && data !== null && !Array.isArray(data) ? { data: data as Record<string, unknown> } : {};
    return typeof code === 'string' ? { message: errorText({ message, code, ...structured }), code, ...structured } : { message, ...structured };
  }
  return { message: String(error) };
}
