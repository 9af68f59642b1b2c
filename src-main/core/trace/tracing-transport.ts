import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import { ObservedTransport } from '../support/observed-transport';
import type { HttpExchange, TraceRecorder } from './trace-ring';

/**
 * `inner`, with every JSON-RPC message it sends and receives reported to `recorder` (under `info.server`): a plain
 * decorator (see ObservedTransport) that the SDK client is handed instead of `inner`. Keep `inner` for what only it
 * knows (a ProcessTransport's exit, a Streamable HTTP session's `terminateSession()`).
 *
 * Recording is synchronous and small (the recorder redacts and keeps a reference; no serialization); a recorder
 * that throws never breaks the connection. With the trace off, do not wrap at all: that costs nothing.
 */
export function traceTransport<T extends Transport>(inner: T, recorder: TraceRecorder, info: { server: string }): ObservedTransport<T> {
  const { server } = info;
  try {
    recorder.begin(server);
  } catch {
    // the trace must never break the connection
  }
  return new ObservedTransport(inner, {
    sent: (message) => recorder.message(server, 'send', message),
    received: (message) => recorder.message(server, 'receive', message),
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
