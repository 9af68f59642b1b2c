import { pinnedRevision, transportOf } from '../../../src-shared/schemas/config';
import type { RemoteServerAuth } from '../auth/server-auth';
import type { ResolvedServer } from '../config/resolve';
import { messageOf } from '../errors';
import type { AttemptSlot } from './attempt';
import { EraCache, pushStyleOf } from './era-cache';
import { causeChain, httpStatus, isClientHttpError, ReasonError, SignInRequired, signInExplained, type AuthChallenge } from './diagnosis';
import { challengeWatchingFetch, createTransport, type FetchDecorator, type TransportDecorator } from './transports';

/** What the remote path reports to its session's supervisor. */
export interface RemoteHooks {
  /** A `[switchboard] …` line (stderr tail and log). */
  note(line: string): void;
  /** A remote server closed the connection. */
  remoteClosed(): void;
}

export interface RemoteConnectOptions {
  server: ResolvedServer;
  hooks: RemoteHooks;
  decorate?: TransportDecorator | undefined;
  decorateFetch?: FetchDecorator | undefined;
  /** A remote server's OAuth sign-in (its provider goes to the transports). */
  auth?: RemoteServerAuth | undefined;
  /** Where a push-style fallback is remembered (by URL; see era-fallback.ts). */
  eraCache?: EraCache | undefined;
  /** The server fell back to the `initialize` era for this request it sends the host push-style. */
  pushStyle?: string | undefined;
}

/**
 * A remote server's connect: Streamable HTTP, falling back to legacy HTTP+SSE when the first POST gets a 4xx (unless
 * the entry names its transport). A server that wants a sign-in (401, or 403 with a challenge) is not a server
 * that speaks only legacy HTTP+SSE: that ends the connect, with the authorization server and scopes where known.
 * A server that fell back to the `initialize` era for a push-style request connects on it (remembered by URL, unless
 * the entry pins a revision). Answers that push-style request, when it is the reason the era is legacy.
 */
export async function connectRemote(options: RemoteConnectOptions, slot: AttemptSlot, timeout: number, abandoned: AbortSignal): Promise<string | undefined> {
  const { entry } = options.server;
  const url = new URL(entry.url ?? '');
  const eraKey = EraCache.remoteKey(url.href);
  const pinned = pinnedRevision(entry.protocolVersion) !== undefined;
  const remembered = pinned ? undefined : pushStyleOf(options.eraCache?.get(eraKey));
  const pushStyle = pinned ? undefined : (options.pushStyle ?? remembered);
  try {
    await connectRemoteOnce(options, slot, url, timeout, abandoned, pushStyle !== undefined);
  } catch (error) {
    // A remembered fallback that no longer connects is forgotten: the next start negotiates afresh.
    if (remembered !== undefined) options.eraCache?.delete(eraKey);
    throw error;
  }
  if (pushStyle !== undefined && slot.currentClient()?.getProtocolEra() === 'legacy') {
    options.eraCache?.set(eraKey, { kind: 'legacy', pushStyle });
    return pushStyle;
  }
  return undefined;
}

async function connectRemoteOnce(
  options: RemoteConnectOptions,
  slot: AttemptSlot,
  url: URL,
  timeout: number,
  abandoned: AbortSignal,
  legacy: boolean,
): Promise<void> {
  const { entry, headers, name } = options.server;
  // Needs sign-in (401, or 403 with a challenge): seen with its WWW-Authenticate header, which SDK errors lack.
  const watched = challengeWatchingFetch();
  const kind = transportOf(entry);
  const serverAuth = options.auth;
  // Wanting a sign-in is a state, not a failure: said as such (with the authorization server and the scopes).
  const signIn = (error: unknown): ReasonError | undefined => {
    const challenge = watched.challenge();
    serverAuth?.noteChallenge(challenge?.header);
    const refused = serverAuth?.refused(error);
    if (refused !== undefined) return new ReasonError(refused, { cause: error });
    const need = serverAuth?.needsLogin(error);
    return need !== undefined ? new SignInRequired(need.text, { cause: error, reason: need.reason }) : undefined;
  };
  const open = async (transportKind: 'http' | 'sse'): Promise<void> => {
    const opened = createTransport(
      { kind: transportKind, url, headers: headers ?? {}, fetch: watched.fetch, auth: serverAuth?.transportAuth() },
      { server: name, decorate: options.decorate, decorateFetch: options.decorateFetch },
    );
    const client = slot.newClient(timeout);
    slot.hold(opened, client);
    client.onclose = () => options.hooks.remoteClosed();
    await client.connect(opened.transport, { timeout, ...(legacy ? { prior: { kind: 'legacy' as const } } : {}) });
  };
  if (kind !== 'sse') {
    try {
      await open('http');
      return;
    } catch (error) {
      // Needs sign-in: not a sign that the server speaks only legacy HTTP+SSE, so no fallback (and no GET).
      const needed = signIn(error);
      if (needed) throw needed;
      const challenge = watched.challenge();
      if (challenge) throw signInError(name, url, challenge, headers, serverAuth ? innermostMessage(error) : undefined, error);
      if (kind === 'http' || !isClientHttpError(error) || abandoned.aborted) throw error;
      options.hooks.note(`[switchboard] Streamable HTTP answered ${httpStatus(error)}; falling back to legacy HTTP+SSE`);
      await slot.closeCurrent();
      if (abandoned.aborted || slot.isClosing()) throw error;
    }
  }
  try {
    await open('sse');
  } catch (error) {
    const needed = signIn(error);
    if (needed) throw needed;
    const challenge = watched.challenge();
    if (challenge) throw signInError(name, url, challenge, headers, serverAuth ? innermostMessage(error) : undefined, error);
    throw error;
  }
}

/** The deepest cause's message (what the SDK's auth flow tripped on, under its wrappers). */
function innermostMessage(error: unknown): string {
  const chain = causeChain(error);
  return messageOf(chain[chain.length - 1]);
}

/** A 401 / 403 challenge the OAuth layer did not take up: why, with code `sign-in-required` and its data. */
function signInError(
  server: string,
  url: URL,
  challenge: AuthChallenge,
  headers: Record<string, string> | undefined,
  problem: string | undefined,
  cause: unknown,
): ReasonError {
  const { text, reason } = signInExplained(server, url, challenge, headers, problem);
  return new ReasonError(text, { cause, reason });
}
