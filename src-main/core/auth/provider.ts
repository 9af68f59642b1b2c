import {
  auth,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthEntry } from '../../../src-shared/schemas/config';
import { messageOf } from '../errors';
import { checkAuthorizationUrl } from './browser';
import type { OAuthStore } from './store';

/** Refresh this long before the access token's expiry. */
export const refreshAheadMs = 60_000;

/** What a person must know to sign in: where, and for what. */
export interface SignInNeed {
  issuer?: string;
  issuerHost?: string;
  scopes?: string[];
  /** Why no stored credential could be used (for the log, not for display as an error). */
  reason: string;
}

/**
 * Thrown inside the SDK's auth flow when it would need a person (a browser sign-in) but none is driving this
 * flow: a background connect, a silent refresh. The session turns it into the `needs-login` status.
 */
export class NeedsLoginError extends Error {
  constructor(readonly need: SignInNeed) {
    super(need.reason);
    this.name = 'NeedsLoginError';
  }
}

/** An interactive sign-in in progress: the loopback redirect URI and whom to hand the authorization URL to. */
export interface InteractiveSignIn {
  redirectUrl: string;
  state: string;
  /** The scopes this sign-in asks for (a registration that cannot grant them is replaced). */
  scope?: string | undefined;
  /** Receives the authorization URL, already checked (https, or http on loopback; no shell metacharacters). */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
}

export interface ProviderOptions {
  store: OAuthStore;
  /** The MCP server's URL: the protected resource (RFC 8707 resource indicator, RFC 9728). */
  serverUrl: URL;
  oauth?: OAuthEntry | undefined;
  /** The pre-registered client secret, resolved from its `${secret:}` reference. */
  clientSecret?: string | undefined;
  /** A Client ID Metadata Document URL (https) to use where the authorization server supports CIMD. */
  clientMetadataUrl?: string | undefined;
  clientName?: string;
  log?: (line: string) => void;
  /** The view may have changed (tokens saved or deleted, a sign-in started or ended). */
  changed?: () => void;
}

/** The resource key: the server URL without fragment (what tokens are bound to). */
export function resourceKey(serverUrl: URL): string {
  const url = new URL(serverUrl.href);
  url.hash = '';
  return url.href;
}

const splitScopes = (scope: string | undefined): string[] => (scope ?? '').split(/\s+/).filter((s) => s.length > 0);

/** The union of space-separated scope lists, in first-seen order. */
export function scopeUnion(...scopes: Array<string | readonly string[] | undefined>): string | undefined {
  const out: string[] = [];
  for (const scope of scopes) {
    for (const s of typeof scope === 'string' || scope === undefined ? splitScopes(scope) : scope) if (!out.includes(s)) out.push(s);
  }
  return out.length > 0 ? out.join(' ') : undefined;
}

/**
 * Switchboard's `OAuthClientProvider` for one remote server: the SDK runs discovery, registration, PKCE, the token
 * requests and refresh; this class keeps what they produce in the secret store (keyed by issuer + resource +
 * client), checks the authorization URL before anyone opens it, and decides what happens when a person is needed:
 * in an interactive sign-in the URL goes to the `onAuthorizationUrl` hook (a browser, the CLI's print, a conformance
 * script); otherwise a {@link NeedsLoginError} ends the flow and the server shows `needs-login`.
 */
export class SwitchboardOAuthProvider implements OAuthClientProvider {
  readonly resource: string;
  private interactive: InteractiveSignIn | undefined;
  private issuer: string | undefined;
  private clientId: string | undefined;
  private fetchFn: FetchLike | undefined;
  private refreshing: Promise<void> | undefined;
  /** The latest challenge's scope and resource metadata URL (from a 401 / 403 WWW-Authenticate). */
  private challenge: { scope?: string; resourceMetadataUrl?: string } = {};
  /** Scopes a step-up asked for that no sign-in has granted yet. */
  stepUpScope: string | undefined;
  /** The last reason a person is needed (for the view). */
  lastNeed: SignInNeed | undefined;

  constructor(private readonly options: ProviderOptions) {
    this.resource = resourceKey(options.serverUrl);
    const record = options.store.resource(this.resource);
    this.issuer = record?.issuer;
    this.clientId = options.oauth?.clientId ?? record?.clientId;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  clientMetadataUrl?: string;

  get serverUrl(): URL {
    return this.options.serverUrl;
  }

  /** The fetch the SDK's auth requests go through when this provider runs a flow itself (refresh before expiry). */
  useFetch(fetchFn: FetchLike): void {
    this.fetchFn = fetchFn;
  }

  noteChallenge(challenge: { scope?: string | undefined; resourceMetadataUrl?: string | undefined }): void {
    this.challenge = {
      ...(challenge.scope !== undefined ? { scope: challenge.scope } : {}),
      ...(challenge.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    };
  }

  get lastChallenge(): { scope?: string; resourceMetadataUrl?: string } {
    return this.challenge;
  }

  beginInteractive(signIn: InteractiveSignIn): void {
    this.interactive = signIn;
    this.options.changed?.();
  }

  endInteractive(): void {
    this.interactive = undefined;
    this.options.changed?.();
  }

  get isInteractive(): boolean {
    return this.interactive !== undefined;
  }

  /** The port of the registered loopback redirect, so that a sign-in listens where the registration says. */
  registeredRedirectPort(): number | undefined {
    const configured = this.options.oauth?.redirectPort;
    if (configured !== undefined) return configured;
    if (this.issuer === undefined) return undefined;
    const client = this.options.store.client(this.issuer, this.resource) as (StoredOAuthClientInformation & { redirect_uris?: unknown }) | undefined;
    const uris = Array.isArray(client?.redirect_uris) ? client.redirect_uris : [];
    for (const uri of uris) {
      if (typeof uri !== 'string') continue;
      try {
        const url = new URL(uri);
        if (url.hostname === '127.0.0.1' && url.port !== '') return Number(url.port);
      } catch {
        // not a URL
      }
    }
    return undefined;
  }

  /** Forgets a dynamic registration (its redirect port cannot be listened on any more): the next sign-in registers anew. */
  forgetRegistration(): void {
    if (this.issuer !== undefined && this.options.oauth?.clientId === undefined) this.options.store.deleteClient(this.issuer, this.resource);
  }

  get redirectUrl(): string {
    if (this.interactive) return this.interactive.redirectUrl;
    // Never undefined: the SDK would take that for a client-credentials client. A background flow stops before
    // the URL is used (see redirectToAuthorization).
    return `http://127.0.0.1:${this.registeredRedirectPort() ?? 0}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.options.clientSecret !== undefined;
    const scope = scopeUnion(this.options.oauth?.scopes);
    return {
      client_name: this.options.clientName ?? 'Switchboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      application_type: 'native',
      ...(scope !== undefined ? { scope } : {}),
    };
  }

  state(): string {
    return this.interactive?.state ?? '';
  }

  private issuerOf(ctx?: OAuthClientInformationContext): string | undefined {
    if (ctx?.issuer !== undefined) this.issuer = ctx.issuer;
    return this.issuer;
  }

  private need(reason: string): NeedsLoginError {
    const discovery = this.options.store.resource(this.resource)?.discovery;
    const issuer = this.issuer ?? discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    let issuerHost: string | undefined;
    try {
      issuerHost = issuer !== undefined ? new URL(issuer).host : undefined;
    } catch {
      issuerHost = undefined;
    }
    const scope = scopeUnion(this.options.oauth?.scopes, this.challenge.scope ?? discovery?.resourceMetadata?.scopes_supported, this.stepUpScope);
    const need: SignInNeed = {
      reason,
      ...(issuer !== undefined ? { issuer } : {}),
      ...(issuerHost !== undefined ? { issuerHost } : {}),
      ...(scope !== undefined ? { scopes: splitScopes(scope) } : {}),
    };
    this.lastNeed = need;
    return new NeedsLoginError(need);
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const issuer = this.issuerOf(ctx);
    const { oauth, clientSecret } = this.options;
    if (oauth?.clientId !== undefined) {
      this.clientId = oauth.clientId;
      // Stamped with the configured issuer where given: the SDK then sends these credentials to no other server.
      const stamp = oauth.issuer ?? issuer;
      return {
        client_id: oauth.clientId,
        ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
        ...(stamp !== undefined ? { issuer: stamp } : {}),
      };
    }
    const stored = issuer !== undefined ? this.options.store.client(issuer, this.resource) : undefined;
    if (stored) {
      // A sign-in listening on another port than the registration names: register again (same port at registration
      // and authorization, RFC 8252).
      const uris = (stored as { redirect_uris?: unknown }).redirect_uris;
      if (
        this.interactive &&
        Array.isArray(uris) &&
        uris.length > 0 &&
        !uris.includes(this.interactive.redirectUrl) &&
        stored.client_id !== this.clientMetadataUrl
      ) {
        return undefined;
      }
      // A registration limited to fewer scopes than this sign-in asks for (a step-up): register again with them.
      const registered = (stored as { scope?: unknown }).scope;
      if (
        this.interactive?.scope !== undefined &&
        typeof registered === 'string' &&
        splitScopes(this.interactive.scope).some((s) => !splitScopes(registered).includes(s) && s !== 'offline_access')
      ) {
        return undefined;
      }
      this.clientId = stored.client_id;
      return stored;
    }
    if (!this.interactive) throw this.need('no client is registered with the authorization server yet');
    return undefined;
  }

  saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    const issuer = this.issuerOf(ctx) ?? client.issuer;
    this.clientId = client.client_id;
    if (issuer === undefined || this.options.oauth?.clientId !== undefined) return;
    this.options.store.saveClient(issuer, this.resource, client);
  }

  /**
   * The stored tokens. Called without `ctx` before every request to the server: then a token that expires within
   * a minute is refreshed first (silently; when that fails, the request goes as it is and a 401 takes over).
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx === undefined) {
      const record = this.currentTokens();
      if (record && this.expiresSoon(record) && record.tokens.refresh_token !== undefined && !this.interactive) {
        await this.refreshNow();
        return this.currentTokens()?.tokens;
      }
      return record?.tokens;
    }
    const issuer = this.issuerOf(ctx);
    const clientId = this.clientId;
    if (issuer === undefined || clientId === undefined) return undefined;
    return this.options.store.tokens(issuer, this.resource, clientId)?.tokens;
  }

  /** The tokens this resource is signed in with now (the last saved), with when they were saved. */
  currentTokens(): { tokens: StoredOAuthTokens; savedAt: number } | undefined {
    const record = this.options.store.resource(this.resource);
    if (record?.issuer === undefined || record.clientId === undefined) return undefined;
    return this.options.store.tokens(record.issuer, this.resource, record.clientId);
  }

  expiresAt(record = this.currentTokens()): number | undefined {
    const seconds = record?.tokens.expires_in;
    return record && typeof seconds === 'number' ? record.savedAt + seconds * 1000 : undefined;
  }

  private expiresSoon(record: { tokens: StoredOAuthTokens; savedAt: number }): boolean {
    const at = this.expiresAt(record);
    return at !== undefined && at - refreshAheadMs <= Date.now();
  }

  /** Refreshes the tokens now (one flow at a time); a failure is logged and leaves the tokens as they were. */
  refreshNow(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        await auth(this, { serverUrl: this.options.serverUrl, ...(this.fetchFn ? { fetchFn: this.fetchFn } : {}) });
        this.options.log?.('[switchboard] OAuth tokens refreshed before they expired');
      } catch (error) {
        this.options.log?.(`[switchboard] refreshing the OAuth tokens failed (${messageOf(error)}); the server will ask for a sign-in if they no longer work`);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    const issuer = this.issuerOf(ctx) ?? tokens.issuer;
    const clientId = this.clientId;
    if (issuer === undefined || clientId === undefined) throw new Error('OAuth tokens arrived before the client was known');
    this.options.store.saveTokens(issuer, this.resource, clientId, tokens);
    this.options.store.updateResource(this.resource, { issuer, clientId });
    const granted = splitScopes(tokens.scope);
    if (this.stepUpScope !== undefined && splitScopes(this.stepUpScope).every((s) => granted.includes(s))) this.stepUpScope = undefined;
    this.lastNeed = undefined;
    this.options.changed?.();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const url = checkAuthorizationUrl(authorizationUrl);
    if (!this.interactive) {
      // A background flow (connect, refresh, step-up) that would need a person: stop, and say so.
      // Signed in already: the server wants more scopes than were granted (step-up), which only a person can grant.
      const scope = url.searchParams.get('scope') ?? undefined;
      if (scope !== undefined && this.currentTokens() !== undefined) this.stepUpScope = scopeUnion(this.stepUpScope, scope);
      const need = this.need(
        this.stepUpScope !== undefined ? `the server asks for more access (${this.stepUpScope})` : 'the server needs a sign-in in the browser',
      );
      this.options.changed?.();
      throw need;
    }
    await this.interactive.onAuthorizationUrl(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // A background flow stops at the browser step (redirectToAuthorization), so its verifier is never used; writing it
    // would replace the verifier of a sign-in another process (`switchboard login`) has in progress for this server.
    if (!this.interactive) return;
    const { issuer, clientId } = this;
    if (issuer === undefined || clientId === undefined) throw new Error('a PKCE verifier arrived before the client was known');
    this.options.store.saveFlow(issuer, this.resource, clientId, {
      codeVerifier,
      ...(this.interactive ? { state: this.interactive.state } : {}),
      startedAt: Date.now(),
    });
  }

  codeVerifier(): string {
    const { issuer, clientId } = this;
    const verifier = issuer !== undefined && clientId !== undefined ? this.options.store.flow(issuer, this.resource, clientId)?.codeVerifier : undefined;
    if (verifier === undefined) throw new Error('No sign-in is in progress for this server (its PKCE code verifier is missing); start the sign-in again.');
    return verifier;
  }

  /** The flow finished: its verifier is not kept. */
  clearFlow(): void {
    const { issuer, clientId } = this;
    if (issuer !== undefined && clientId !== undefined) this.options.store.deleteFlow(issuer, this.resource, clientId);
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const { issuer, clientId } = this;
    const store = this.options.store;
    if ((scope === 'all' || scope === 'tokens') && issuer !== undefined && clientId !== undefined) store.deleteTokens(issuer, this.resource, clientId);
    if ((scope === 'all' || scope === 'verifier') && issuer !== undefined && clientId !== undefined) store.deleteFlow(issuer, this.resource, clientId);
    if ((scope === 'all' || scope === 'client') && issuer !== undefined && this.options.oauth?.clientId === undefined) {
      store.deleteClient(issuer, this.resource);
      if (this.options.oauth?.clientId === undefined) this.clientId = undefined;
    }
    if (scope === 'all' || scope === 'discovery') store.updateResource(this.resource, { discovery: undefined });
    this.options.changed?.();
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // A malicious or broken metadata document is refused here, before anything is registered or opened.
    const endpoint = state.authorizationServerMetadata?.authorization_endpoint;
    if (endpoint !== undefined) checkAuthorizationUrl(endpoint);
    const issuer = state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
    const record = this.options.store.resource(this.resource);
    if (record?.issuer !== undefined && record.issuer !== issuer) {
      // The resource moved to another authorization server (SEP-2352): its tokens and client are bound to the old one.
      this.options.log?.(`[switchboard] the server's authorization server changed (${record.issuer} → ${issuer}); signing in there again`);
    }
    this.options.store.updateResource(this.resource, { discovery: state });
  }

  /** Drops the cached discovery (not during a sign-in, whose callback leg is bound to the discovery it began with). */
  forgetDiscovery(): void {
    if (this.interactive) return;
    if (this.options.store.resource(this.resource)?.discovery !== undefined) this.options.store.updateResource(this.resource, { discovery: undefined });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.store.resource(this.resource)?.discovery;
  }

  /** Forgets the sign-in (tokens, flow, binding); the client registration is kept for the next sign-in. */
  signOut(): void {
    this.options.store.forgetResource(this.resource);
    this.stepUpScope = undefined;
    this.options.changed?.();
  }
}
