import type { FetchLike, JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { HttpExchange, TraceRecorder } from './trace-ring';
import { boundMembers } from './bound-members';

type OnMessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * `inner`, with every JSON-RPC message it sends and receives reported to `recorder` (under `info.server`).
 *
 * A Proxy, not a wrapper class, so that the SDK and our own code see the very same transport: every property and
 * method other than `send` and `onmessage` is the inner one's (`sessionId`, `setProtocolVersion`,
 * `terminateSession`, `pid`, `stderr`, `hasPerRequestStream`, `_serverParams`, `probeUnansweredWhileOpen`, …),
 * `send` records and then sends (a `send` set on the Proxy is read back, for a wrapper that calls the one it read),
 * `in` and `instanceof` answer as for `inner` (SDK 2.4.0's era probe tells stdio from HTTP by `'stderr' in` and
 * `'pid' in`), and methods run with `this` = `inner` (so its own `this.onmessage(…)` calls reach the recording
 * handler, and `#private` fields work). `onmessage` reads back what was set (the SDK saves and restores it around
 * its probe), while the inner transport holds a handler that records, then calls it.
 *
 * Recording is synchronous and small (the recorder redacts and keeps a reference; no serialization); a recorder
 * that throws never breaks the connection. With the trace off, do not wrap at all: that costs nothing.
 */
export function traceTransport<T extends Transport>(inner: T, recorder: TraceRecorder, info: { server: string }): T {
  const { server } = info;
  const record = (direction: 'send' | 'receive', message: JSONRPCMessage): void => {
    try {
      recorder.message(server, direction, message);
    } catch {
      // the trace must never break the connection
    }
  };
  let outer: OnMessage | undefined;
  const traced: OnMessage = (message, extra) => {
    record('receive', message);
    outer?.(message, extra);
  };
  const traceSend = (message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> => {
    record('send', message);
    return inner.send(message, options);
  };
  // What `send` reads: the recording one, or what was set over it (HostClient wraps `send` in place to note each
  // call as it goes; that wrapper calls the recording one it read first).
  let send: Transport['send'] = traceSend;
  try {
    recorder.begin(server);
  } catch {
    // as above
  }
  // A handler set before wrapping keeps working, now recorded.
  if (inner.onmessage) {
    outer = inner.onmessage as OnMessage;
    inner.onmessage = traced as Transport['onmessage'];
  }
  const member = boundMembers();
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'send') return send;
      if (prop === 'onmessage') return outer;
      return member(target, prop);
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage') {
        outer = typeof value === 'function' ? (value as OnMessage) : undefined;
        target.onmessage = (outer ? traced : undefined) as Transport['onmessage'];
        return true;
      }
      if (prop === 'send') {
        send = typeof value === 'function' ? (value as Transport['send']) : traceSend;
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
}

/**
 * A `fetch` for the SDK's Streamable HTTP / SSE transports (their `fetch` option) that reports each HTTP exchange:
 * the status, the `Mcp-*` headers both ways and the response's content type, and the ids and notification methods
 * its POST body carried, so the trace attaches them to those messages (and their responses). Request headers other
 * than `Mcp-*` (Authorization, cookies) are never read. `base` is the fetch to call (default: global fetch).
 */
export function tracingFetch(recorder: TraceRecorder, server: string, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const carried = method === 'POST' ? bodyMessages(init?.body) : { ids: [], notifications: [] };
    const requestHeaders = mcpHeaders(init?.headers);
    const report = (exchange: Omit<HttpExchange, 'method' | 'url' | 'ids' | 'notifications'>): void => {
      try {
        recorder.http?.(server, { method, url: String(url), ...carried, ...exchange });
      } catch {
        // the trace must never break the connection
      }
    };
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      report({ headers: requestHeaders, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    const headers = { ...requestHeaders, ...mcpHeaders(response.headers) };
    const type = response.headers.get('content-type');
    if (type !== null) headers['content-type'] = type;
    report({ status: response.status, headers });
    return response;
  };
}

/** Only `Mcp-*` headers (lower-cased names): nothing else of a request's headers is ever read. */
function mcpHeaders(headers: RequestInit['headers'] | Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  const take = (name: string, value: string): void => {
    const lower = name.toLowerCase();
    if (lower.startsWith('mcp-')) out[lower] = value;
  };
  if (headers instanceof Headers) headers.forEach((value, name) => take(name, value));
  else if (Array.isArray(headers)) for (const [name, value] of headers) take(String(name), String(value));
  else for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') take(name, value);
  return out;
}

const maxParsedBody = 1024 * 1024;

/** The JSON-RPC ids and notification methods a POST body carries (a message or a batch). */
function bodyMessages(body: RequestInit['body'] | undefined): Pick<HttpExchange, 'ids' | 'notifications'> {
  const ids: Array<string | number> = [];
  const notifications: string[] = [];
  if (typeof body !== 'string') return { ids, notifications };
  if (body.length > maxParsedBody) {
    // Too big to parse twice: read the id from the head, where the SDK's serializer puts it.
    const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(body.slice(0, 300))?.[1];
    if (id !== undefined) ids.push(JSON.parse(id) as string | number);
    return { ids, notifications };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ids, notifications };
  }
  for (const message of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
    if (typeof message !== 'object' || message === null) continue;
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.id === 'string' || typeof m.id === 'number') ids.push(m.id);
    else if (typeof m.method === 'string') notifications.push(m.method);
  }
  return { ids, notifications };
}
