import { SSEClientTransport, StreamableHTTPClientTransport, type FetchLike, type Transport } from '@modelcontextprotocol/client';
import type { TransportKind } from '../../../src-shared/schemas/config';
import type { RemoteAuth } from '../auth/server-auth';
import { ProcessTransport, type ProcessTransportOptions } from '../process/transport';
import type { AuthChallenge } from './diagnosis';

/**
 * The transport factory: one function turns "this server, over this kind" into a Transport. It is the one place
 * where transports are made, so it is where decorators wrap them (the protocol trace).
 */

/** Wraps a transport (e.g. to record every message). Must forward every Transport member it does not change. */
export type TransportDecorator = (transport: Transport, info: { server: string; kind: TransportKind }) => Transport;
/** Wraps a remote transport's fetch (e.g. to record HTTP status and `Mcp-*` headers). */
export type FetchDecorator = (fetch: FetchLike, info: { server: string; kind: 'http' | 'sse' }) => FetchLike;

export type TransportRequest =
  | { kind: 'stdio'; process: ProcessTransportOptions }
  | { kind: 'http' | 'sse'; url: URL; headers: Record<string, string>; fetch?: FetchLike; auth?: RemoteAuth | undefined };

/** The concrete transport (for what only it knows: exit, pid, session id) and the one to hand the SDK client. */
export type OpenedTransport =
  | { kind: 'stdio'; raw: ProcessTransport; transport: Transport }
  | { kind: 'http'; raw: StreamableHTTPClientTransport; transport: Transport }
  | { kind: 'sse'; raw: SSEClientTransport; transport: Transport };

export interface TransportFactoryOptions {
  server: string;
  decorate?: TransportDecorator | undefined;
  decorateFetch?: FetchDecorator | undefined;
}

export function createTransport(request: TransportRequest, options: TransportFactoryOptions): OpenedTransport {
  const wrap = (raw: Transport, kind: TransportKind): Transport => (options.decorate ? options.decorate(raw, { server: options.server, kind }) : raw);
  if (request.kind === 'stdio') {
    const raw = new ProcessTransport(request.process);
    return { kind: 'stdio', raw, transport: wrap(raw, 'stdio') };
  }
  // requestInit headers go on every POST, and on the SSE GET alike.
  const inner = request.fetch ?? fetch;
  const auth = request.auth;
  const endpoint = `${request.url.origin}${request.url.pathname}`;
  const base: FetchLike = auth?.unauthorized
    ? async (input, init) => {
        const response = await inner(input, init);
        if (response.status === 401) {
          const target = new URL(String(input instanceof Request ? input.url : input));
          if (`${target.origin}${target.pathname}` === endpoint) auth.unauthorized?.();
        }
        return response;
      }
    : inner;
  const wrapped = options.decorateFetch ? options.decorateFetch(base, { server: options.server, kind: request.kind }) : base;
  request.auth?.useFetch?.(wrapped);
  // The SDK runs discovery, registration, refresh and step-up through the provider (on a 401, or a 403
  // insufficient_scope); ours stores the results as secrets and stops where a person would be needed.
  const init = {
    requestInit: { headers: request.headers },
    fetch: wrapped,
    ...(request.auth ? { authProvider: request.auth.provider, maxStepUpRetries: 1 } : {}),
  };
  if (request.kind === 'http') {
    const raw = new StreamableHTTPClientTransport(request.url, init);
    return { kind: 'http', raw, transport: wrap(raw, 'http') };
  }
  const raw = new SSEClientTransport(request.url, init);
  return { kind: 'sse', raw, transport: wrap(raw, 'sse') };
}

/**
 * A fetch that notices a sign-in wall (401, or 403 with a challenge) with its WWW-Authenticate header, which the
 * SDK's errors do not carry. Every response of a remote server's transports passes here first.
 */
export function challengeWatchingFetch(): { fetch: FetchLike; challenge: () => AuthChallenge | undefined } {
  let challenge: AuthChallenge | undefined;
  const watched = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const header = response.headers.get('www-authenticate') ?? undefined;
    if (response.status === 401 || (response.status === 403 && header !== undefined)) {
      challenge ??= { status: response.status, method: init?.method ?? 'GET', ...(header !== undefined ? { header } : {}) };
    }
    return response;
  };
  return { fetch: watched, challenge: () => challenge };
}
