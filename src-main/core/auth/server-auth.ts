import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { AuthView, LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import type { Explained } from '../errors';
import { UnsafeAuthorizationUrlError } from './browser';

/*
 * What a remote server's auth is to the rest of the host, whatever its grant: the session hands its provider to the
 * transports, the supervisor asks it why a connect failed, the auth service signs in and out through it.
 */

export interface LoginOptions {
  /** Do not open a browser; only hand the URL to `onAuthorizationUrl` (and show it in the view). */
  noBrowser?: boolean;
  /**
   * Receives the authorization URL once it is checked. The CLI prints it; a conformance client or a test drives
   * the "browser" with it (fetch it, follow the redirects to the loopback listener).
   */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
  signal?: AbortSignal;
  /** How long the loopback listener waits for the redirect (default 5 minutes). */
  timeoutMs?: number;
}

/** OAuth for a remote transport: the SDK's provider, told which fetch its own auth requests should use. */
export interface RemoteAuth {
  provider: OAuthClientProvider;
  useFetch?(fetch: FetchLike): void;
  /**
   * The server answered 401 (before the SDK runs its auth flow): cached discovery is dropped so that a changed
   * `authorization_servers` list is seen (SEP-2352; the SDK leaves this to the host).
   */
  unauthorized?(): void;
}

/** What the session, the supervisor and the auth service need of a remote server's OAuth, whatever its grant. */
export interface RemoteServerAuth {
  readonly name: string;
  /** For the transport factory: the SDK provider and the hooks around it. */
  transportAuth(): RemoteAuth;
  view(): AuthView;
  /** A connect or call failed for want of a person's sign-in: the reason to show, with its code and data (`needs-login`); else undefined. */
  needsLogin(error: unknown): Explained | undefined;
  /** A connect failed because hostile or broken metadata was refused: the reason (else undefined). */
  refused(error: unknown): string | undefined;
  noteChallenge(header: string | undefined): void;
  login(options?: LoginOptions): Promise<LoginResult>;
  logout(): Promise<LogoutResult>;
}

/** A whole `${secret:NAME}` value (the client secret, the private key, the ID token of an entry's `oauth`). */
export const secretReference = /^\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}$/;

/** The first of `error` and its causes that `match` accepts. */
export function findInChain<T>(error: unknown, match: (value: unknown) => value is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (match(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A connect that failed on an authorization URL refused as unsafe: why, naming the server. */
export function refusedText(name: string, error: unknown): string | undefined {
  const found = findInChain(error, (v): v is UnsafeAuthorizationUrlError => v instanceof UnsafeAuthorizationUrlError);
  return found ? `Server "${name}" cannot be signed in to: ${found.message}` : undefined;
}
