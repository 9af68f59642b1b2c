import { randomBytes } from 'node:crypto';
import {
  auth,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  discoverAuthorizationServerMetadata,
  PrivateKeyJwtProvider,
  RegistrationRejectedError,
  requestJwtAuthorizationGrant,
  type CrossAppAccessContext,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { AuthView, LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import { CoreError, messageOf } from '../errors';
import type { SecretStore } from '../secrets/store';
import { challengeParams, type Explained } from '../servers/diagnosis';
import type { ResolvedServer } from '../servers/policy';
import type { RemoteAuth } from '../servers/transports';
import { checkAuthorizationUrl, UnsafeAuthorizationUrlError, type UrlOpener } from './browser';
import type { LoopbackListener } from './loopback';
import { NeedsLoginError, scopeUnion, SwitchboardOAuthProvider } from './provider';
import { OAuthStore } from './store';

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

export interface AuthManagerOptions {
  secrets: SecretStore;
  /** Opens a URL in the person's browser without a shell (Electron: shell.openExternal); absent: only shown. */
  openUrl?: UrlOpener | undefined;
  log?: (line: string) => void;
  /** The fetch for sign-in requests (tests); default the global one. */
  fetch?: FetchLike;
  /** An https Client ID Metadata Document URL describing Switchboard, used where an authorization server supports CIMD. */
  clientMetadataUrl?: string | undefined;
}

const secretReference = /^\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}$/;

/** Whether a remote entry brings its own Authorization header (then Switchboard does not sign in for it). */
function hasOwnAuthorization(server: ResolvedServer): boolean {
  return Object.keys(server.headers ?? server.entry.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
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

function findInChain<T>(error: unknown, match: (value: unknown) => value is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (match(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function refusedText(name: string, error: unknown): string | undefined {
  const found = findInChain(error, (v): v is UnsafeAuthorizationUrlError => v instanceof UnsafeAuthorizationUrlError);
  return found ? `Server "${name}" cannot be signed in to: ${found.message}` : undefined;
}

/**
 * One remote server's sign-in: its {@link SwitchboardOAuthProvider} (handed to the transports), its view, and
 * the interactive login (loopback listener + browser step) and logout.
 */
export class ServerAuth implements RemoteServerAuth {
  readonly provider: SwitchboardOAuthProvider;
  private pendingUrl: URL | undefined;
  private signingIn: Promise<LoginResult> | undefined;

  constructor(
    private readonly server: ResolvedServer,
    private readonly manager: AuthManagerOptions,
    private readonly store: OAuthStore,
    private readonly changed: () => void,
  ) {
    const url = new URL(server.entry.url ?? '');
    const oauth = server.entry.oauth;
    const secretName = oauth?.clientSecret?.match(secretReference)?.[1];
    const clientSecret = secretName !== undefined ? manager.secrets.get(secretName) : undefined;
    this.provider = new SwitchboardOAuthProvider({
      store,
      serverUrl: url,
      oauth,
      clientSecret,
      ...(manager.clientMetadataUrl !== undefined ? { clientMetadataUrl: manager.clientMetadataUrl } : {}),
      ...(manager.log ? { log: manager.log } : {}),
      changed,
    });
    this.missingSecret = secretName !== undefined && clientSecret === undefined ? secretName : undefined;
  }

  /** A `${secret:NAME}` client secret that is not set. */
  readonly missingSecret: string | undefined;

  get name(): string {
    return this.server.name;
  }

  view(): AuthView {
    const record = this.provider.currentTokens();
    const need = this.provider.lastNeed;
    const discovery = this.provider.discoveryState();
    const issuer = need?.issuer ?? discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    let issuerHost = need?.issuerHost;
    if (issuerHost === undefined && issuer !== undefined) {
      try {
        issuerHost = new URL(issuer).host;
      } catch {
        issuerHost = undefined;
      }
    }
    const scopes = need?.scopes ?? (this.server.entry.oauth?.scopes && this.server.entry.oauth.scopes.length > 0 ? this.server.entry.oauth.scopes : undefined);
    const granted = record?.tokens.scope?.split(/\s+/).filter((s) => s.length > 0);
    const expiresAt = this.provider.expiresAt(record);
    const stepUp = this.provider.stepUpScope?.split(' ');
    return {
      state: this.pendingUrl !== undefined || this.signingIn !== undefined ? 'signing-in' : record ? 'signed-in' : 'signed-out',
      ...(issuerHost !== undefined ? { issuerHost } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
      ...(granted !== undefined && granted.length > 0 ? { grantedScopes: granted } : {}),
      ...(this.pendingUrl !== undefined ? { authorizationUrl: this.pendingUrl.href, authorizationHost: this.pendingUrl.host } : {}),
      ...(stepUp !== undefined ? { stepUpScopes: stepUp } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  }

  transportAuth(): RemoteAuth {
    return {
      provider: this.provider,
      useFetch: (fetchFn) => this.provider.useFetch(fetchFn),
      unauthorized: () => this.provider.forgetDiscovery(),
    };
  }

  /** A connect failed because the authorization server's metadata was refused (a hostile or broken document)? */
  refused(error: unknown): string | undefined {
    return refusedText(this.name, error);
  }

  /**
   * A connect or call failed: was it for want of a sign-in? Then the reason to show (the AS host and scopes). Found
   * as the error itself in the cause chain, or — where a layer kept only its text — as the message of the need the
   * provider last raised. Its code and data: `needs-login` { server, issuerHost?, scopes? }, `how` naming which of
   * the two are known (`host-scopes`, `host`, `scopes`, `plain`), so the UI words it in the person's language.
   */
  needsLogin(error: unknown): Explained | undefined {
    const found = findInChain(error, (v): v is NeedsLoginError => v instanceof NeedsLoginError);
    const last = this.provider.lastNeed;
    const need =
      found?.need ??
      (last !== undefined && findInChain(error, (v): v is Error => v instanceof Error && v.message.includes(last.reason)) !== undefined ? last : undefined);
    if (!need) return undefined;
    const scopes = need.scopes !== undefined && need.scopes.length > 0 ? need.scopes : undefined;
    const where = need.issuerHost !== undefined ? ` at ${need.issuerHost}` : '';
    const what = scopes ? ` for ${scopes.join(' ')}` : '';
    const how = need.issuerHost !== undefined ? (scopes ? 'host-scopes' : 'host') : scopes ? 'scopes' : 'plain';
    return {
      text: `Server "${this.name}" needs you to sign in${where}${what}. Press Sign in (or run \`switchboard login ${this.name}\`).`,
      reason: {
        code: 'needs-login',
        data: { server: this.name, how, ...(need.issuerHost !== undefined ? { issuerHost: need.issuerHost } : {}), ...(scopes ? { scopes: scopes.join(' ') } : {}) },
      },
    };
  }

  /** The 401 / 403 challenge of a connect, for the next sign-in (its scope and resource metadata URL). */
  noteChallenge(header: string | undefined): void {
    if (header === undefined) return;
    const params = challengeParams(header);
    this.provider.noteChallenge({ scope: params.scope, resourceMetadataUrl: params.resource_metadata });
  }

  /**
   * Signs in: a loopback listener on 127.0.0.1 (the registered redirect's port, or `oauth.redirectPort`, or one the
   * OS picks for a first registration — the same port for registration and authorization), the SDK's discovery,
   * registration and authorization request, the browser step, the redirect, the code exchange. One at a time.
   */
  login(options: LoginOptions = {}): Promise<LoginResult> {
    if (this.signingIn) throw new CoreError('invalid-argument', `A sign-in to "${this.name}" is already waiting for the browser${this.pendingUrl ? ` (${this.pendingUrl.host})` : ''}.`, { data: { server: this.name } });
    if (this.missingSecret !== undefined) {
      throw new CoreError('config-invalid', `mcpServers.${this.name}.oauth.clientSecret refers to \${secret:${this.missingSecret}}, which is not set. Add it (Settings → Secrets, or \`switchboard secret set ${this.missingSecret}\`).`, { data: { server: this.name } });
    }
    const run = this.runLogin(options).finally(() => {
      this.signingIn = undefined;
      this.pendingUrl = undefined;
      this.changed();
    });
    this.signingIn = run;
    this.changed();
    return run;
  }

  private async runLogin(options: LoginOptions): Promise<LoginResult> {
    const provider = this.provider;
    const fetchFn = this.manager.fetch ?? fetch;
    provider.useFetch(fetchFn);
    const configuredPort = this.server.entry.oauth?.redirectPort;
    const registeredPort = provider.registeredRedirectPort();
    const listenOptions = { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
    // Loaded at sign-in only (node:http is not worth loading for every CLI command).
    const { LoopbackError, LoopbackListener } = await import('./loopback');
    let listener: LoopbackListener;
    try {
      listener = await LoopbackListener.open({ ...listenOptions, port: registeredPort ?? 0 });
    } catch (error) {
      // A dynamic registration's port is taken now: register again on another (a configured port must be kept).
      if (configuredPort !== undefined || registeredPort === undefined || !(error instanceof LoopbackError)) throw new CoreError('request-failed', messageOf(error), { cause: error, data: { server: this.name } });
      this.manager.log?.(`[switchboard] ${this.name}: the registered redirect port ${registeredPort} is in use; registering again on another one`);
      provider.forgetRegistration();
      listener = await LoopbackListener.open({ ...listenOptions, port: 0 });
    }
    const state = randomBytes(24).toString('base64url');
    listener.expectState(state);
    let opened = false;
    let shown: string | undefined;
    const challenge = provider.lastChallenge.scope !== undefined || provider.lastChallenge.resourceMetadataUrl !== undefined ? provider.lastChallenge : await this.probeChallenge(fetchFn);
    const scope = scopeUnion(this.server.entry.oauth?.scopes, challenge.scope, provider.stepUpScope);
    // A person's sign-in discovers afresh: the server may have moved to another authorization server (SEP-2352).
    provider.forgetDiscovery();
    provider.beginInteractive({
      redirectUrl: listener.redirectUrl,
      state,
      scope,
      onAuthorizationUrl: async (url) => {
        this.pendingUrl = url;
        shown = url.href;
        this.changed();
        await options.onAuthorizationUrl?.(url);
        if (!options.noBrowser && this.manager.openUrl) opened = await this.manager.openUrl(url.href).catch(() => false);
      },
    });
    try {
      const resourceMetadataUrl = challenge.resourceMetadataUrl !== undefined ? new URL(challenge.resourceMetadataUrl) : undefined;
      const common = { serverUrl: provider.serverUrl, fetchFn, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
      const first = await auth(provider, { ...common, ...(scope !== undefined ? { scope } : {}), forceReauthorization: true });
      if (first === 'AUTHORIZED') return { outcome: 'refreshed', opened };
      const { params } = await listener.wait();
      const error = params.get('error');
      if (error !== null) {
        // error_description is the authorization server's text (or an attacker's, in a mix-up): the code only.
        const code = /^[\w.-]{1,64}$/.test(error) ? error : 'an error';
        throw new CoreError('request-failed', `The authorization server did not grant access to "${this.name}" (${code}). Sign in again, and allow access when asked.`, { data: { server: this.name, error: code } });
      }
      const authorizationCode = params.get('code');
      if (authorizationCode === null) throw new CoreError('request-failed', `The sign-in redirect for "${this.name}" carried no authorization code.`, { data: { server: this.name } });
      const iss = params.get('iss');
      await auth(provider, { ...common, authorizationCode, ...(iss !== null ? { iss } : {}) });
      this.manager.log?.(`[switchboard] ${this.name}: signed in`);
      return { outcome: 'signed-in', opened, ...(shown !== undefined ? { authorizationUrl: shown } : {}) };
    } catch (error) {
      if (error instanceof CoreError) throw error;
      if (error instanceof UnsafeAuthorizationUrlError) throw new CoreError('request-failed', error.message, { cause: error, data: { server: this.name } });
      // No way for Switchboard to register itself: the person registers it and enters the client id (the form, or the entry).
      if (error instanceof RegistrationRejectedError || /does not support dynamic client registration/.test(messageOf(error))) {
        const host = provider.discoveryState()?.authorizationServerMetadata?.issuer ?? provider.discoveryState()?.authorizationServerUrl;
        const where = host !== undefined ? ` at ${new URL(host).host}` : '';
        const why = error instanceof RegistrationRejectedError ? `refused Switchboard's registration (HTTP ${error.status})` : 'does not let apps register themselves';
        throw new CoreError(
          'request-failed',
          `The authorization server${where} ${why}. Register Switchboard there as a native app with the redirect URI ${listener.redirectUrl}, then enter its client id (and secret, if it gave one) for "${this.name}" — or put them in the entry: "oauth": {"clientId": "…", "redirectPort": ${listener.port}}.`,
          { cause: error, data: { server: this.name, needsClient: true, redirectUri: listener.redirectUrl, redirectPort: listener.port } },
        );
      }
      throw new CoreError('request-failed', `Signing in to "${this.name}" failed: ${messageOf(error)}`, { cause: error, data: { server: this.name } });
    } finally {
      listener.close();
      provider.clearFlow();
      provider.endInteractive();
    }
  }

  /** One unauthenticated request, for the server's challenge (its resource_metadata and scope). */
  private async probeChallenge(fetchFn: FetchLike): Promise<{ scope?: string; resourceMetadataUrl?: string }> {
    try {
      const response = await fetchFn(this.provider.serverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
      });
      await response.body?.cancel().catch(() => undefined);
      const header = response.headers.get('www-authenticate');
      if (header === null) return {};
      const params = challengeParams(header);
      return { ...(params.scope !== undefined ? { scope: params.scope } : {}), ...(params.resource_metadata !== undefined ? { resourceMetadataUrl: params.resource_metadata } : {}) };
    } catch {
      return {};
    }
  }

  /** Signs out: revokes the tokens where the authorization server offers revocation (RFC 7009), then deletes them. */
  async logout(): Promise<LogoutResult> {
    const record = this.provider.currentTokens();
    let revoked = false;
    if (record) revoked = await this.revoke(record.tokens.refresh_token ?? record.tokens.access_token, record.tokens.refresh_token !== undefined ? 'refresh_token' : 'access_token');
    this.provider.signOut();
    this.manager.log?.(`[switchboard] ${this.name}: signed out${revoked ? ' (tokens revoked)' : ''}`);
    return { removed: record !== undefined, revoked };
  }

  private async revoke(token: string, hint: string): Promise<boolean> {
    const discovery = this.provider.discoveryState();
    const fetchFn = this.manager.fetch ?? fetch;
    try {
      const metadata = discovery?.authorizationServerMetadata ?? (discovery ? await discoverAuthorizationServerMetadata(discovery.authorizationServerUrl, { fetchFn }) : undefined);
      const endpoint: unknown = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
      if (typeof endpoint !== 'string') return false;
      checkAuthorizationUrl(endpoint);
      const client = this.provider.clientInformation(metadata?.issuer !== undefined ? { issuer: metadata.issuer } : undefined);
      if (!client) return false;
      const body = new URLSearchParams({ token, token_type_hint: hint });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (client.client_secret !== undefined) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
      else body.set('client_id', client.client_id);
      const response = await fetchFn(endpoint, { method: 'POST', headers, body: body.toString() });
      await response.body?.cancel().catch(() => undefined);
      return response.ok;
    } catch (error) {
      this.manager.log?.(`[switchboard] ${this.name}: revoking the tokens failed (${messageOf(error)}); they are deleted here anyway`);
      return false;
    }
  }
}

/** The enterprise IdP refused the token exchange of a cross-app-access entry (the message says which IdP and what to do). */
export class CrossAppAccessError extends Error {
  override readonly name = 'CrossAppAccessError';
}

type MachineProvider = ClientCredentialsProvider | PrivateKeyJwtProvider | CrossAppAccessProvider;

/**
 * A machine-to-machine entry (`"oauth": {"grant": "client_credentials", …}`): the SDK's client-credentials
 * providers (client_secret_basic, or private_key_jwt with a `${secret:}` PEM key) get tokens without a person.
 * Also enterprise-managed authorization (`"grant": "cross-app-access"`, SEP-990): the person's ID token (a
 * `${secret:}`) is exchanged at the enterprise IdP for an ID-JAG (RFC 8693), which the SDK's CrossAppAccessProvider
 * trades for tokens at the server's authorization server (RFC 7523 JWT bearer, client_secret_basic).
 * Tokens live in memory: a new process asks for new ones, as nothing is lost by it.
 */
export class MachineAuth implements RemoteServerAuth {
  private readonly make: (() => MachineProvider) | undefined;
  private readonly problem: string | undefined;
  /** The current session's provider (each session gets a new one: tokens are fetched per session). */
  private current: MachineProvider | undefined;

  constructor(
    private readonly server: ResolvedServer,
    secrets: SecretStore,
    private readonly changed: () => void,
    fetchFn?: FetchLike,
  ) {
    const oauth = server.entry.oauth;
    const secretOf = (reference: string | undefined): { name?: string; value?: string } => {
      const name = reference?.match(secretReference)?.[1];
      const value = name !== undefined ? secrets.get(name) : undefined;
      return { ...(name !== undefined ? { name } : {}), ...(value !== undefined ? { value } : {}) };
    };
    const scope = scopeUnion(oauth?.scopes);
    const key = secretOf(oauth?.privateKey);
    const secret = secretOf(oauth?.clientSecret);
    const crossApp = oauth?.grant === 'cross-app-access' ? oauth.idp : undefined;
    const idToken = secretOf(crossApp?.idToken);
    const idpSecret = secretOf(crossApp?.clientSecret);
    const unset = (found: { name?: string; value?: string }): string | undefined => (found.value === undefined ? found.name : undefined);
    const missing = crossApp !== undefined ? (unset(secret) ?? unset(idToken) ?? unset(idpSecret)) : oauth?.privateKey !== undefined ? unset(key) : unset(secret);
    const clientId = oauth?.clientId;
    if (clientId === undefined || missing !== undefined) {
      this.problem = `mcpServers.${server.name}.oauth refers to \${secret:${missing ?? '?'}}, which is not set. Add it (Settings → Secrets, or \`switchboard secret set ${missing ?? 'NAME'}\`).`;
      return;
    }
    const common = { clientId, clientName: 'Switchboard', ...(scope !== undefined ? { scope } : {}), ...(oauth?.issuer !== undefined ? { expectedIssuer: oauth.issuer } : {}) };
    if (crossApp !== undefined) {
      const idp = crossApp;
      const assertion = async (context: CrossAppAccessContext): Promise<string> => {
        const request = {
          audience: context.authorizationServerUrl,
          resource: context.resourceUrl,
          // Read when the tokens are fetched: a person who puts a fresh ID token in the secret needs only a restart.
          idToken: (idToken.name !== undefined ? secrets.get(idToken.name) : undefined) ?? idToken.value ?? '',
          clientId: idp.clientId,
          ...(idpSecret.value !== undefined ? { clientSecret: idpSecret.value } : {}),
          ...(context.scope !== undefined ? { scope: context.scope } : {}),
          fetchFn: fetchFn ?? context.fetchFn,
        };
        try {
          const result = idp.tokenEndpoint !== undefined ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint }) : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer ?? '' });
          return result.jwtAuthGrant;
        } catch (error) {
          throw new CrossAppAccessError(
            `The enterprise IdP (${idp.tokenEndpoint ?? idp.issuer ?? '?'}) did not exchange the ID token for server "${server.name}": ${messageOf(error)}. The ID token in \${secret:${idToken.name ?? '?'}} may have expired: put a current one there.`,
            { cause: error },
          );
        }
      };
      this.make = () =>
        new CrossAppAccessProvider({
          assertion,
          clientId,
          clientSecret: secret.value ?? '',
          clientName: 'Switchboard',
          ...(fetchFn !== undefined ? { fetchFn } : {}),
          ...(oauth?.issuer !== undefined ? { expectedIssuer: oauth.issuer } : {}),
        });
      return;
    }
    this.make = () =>
      key.value !== undefined
        ? new PrivateKeyJwtProvider({ ...common, privateKey: key.value, algorithm: oauth?.signingAlgorithm ?? 'ES256' })
        : new ClientCredentialsProvider({ ...common, clientSecret: secret.value ?? '' });
  }

  get name(): string {
    return this.server.name;
  }

  transportAuth(): RemoteAuth {
    if (!this.make) throw new CoreError('config-invalid', this.problem ?? 'OAuth client credentials are incomplete', { data: { server: this.name } });
    const provider = this.make();
    this.current = provider;
    // Saved tokens change the view (signed in).
    const save = provider.saveTokens.bind(provider);
    provider.saveTokens = (tokens) => {
      save(tokens);
      this.changed();
    };
    return { provider };
  }

  view(): AuthView {
    const tokens = this.current?.tokens();
    const granted = tokens?.scope?.split(/\s+/).filter((s) => s.length > 0);
    return {
      state: tokens ? 'signed-in' : 'signed-out',
      ...(this.server.entry.oauth?.scopes ? { scopes: this.server.entry.oauth.scopes } : {}),
      ...(granted && granted.length > 0 ? { grantedScopes: granted } : {}),
    };
  }

  needsLogin(): Explained | undefined {
    return undefined;
  }

  refused(error: unknown): string | undefined {
    const exchange = findInChain(error, (v): v is CrossAppAccessError => v instanceof CrossAppAccessError);
    return exchange ? exchange.message : refusedText(this.name, error);
  }

  noteChallenge(): void {}

  login(): Promise<LoginResult> {
    const how = this.server.entry.oauth?.grant === 'cross-app-access' ? 'cross-app access (the enterprise IdP vouches for you with the ID token in oauth.idp.idToken)' : 'client credentials (machine to machine)';
    return Promise.reject(new CoreError('invalid-argument', `Server "${this.name}" uses ${how}: it gets its tokens by itself, without a sign-in. Restart it to fetch new ones.`, { data: { server: this.name } }));
  }

  /** Forgets the session's tokens (the restart that follows fetches new ones; there is nothing stored to revoke). */
  logout(): Promise<LogoutResult> {
    const had = this.current?.tokens() !== undefined;
    this.current = undefined;
    this.changed();
    return Promise.resolve({ removed: had, revoked: false });
  }
}

/** Makes each remote server's {@link ServerAuth}; owns the OAuth records in the secret store. */
export class AuthManager {
  readonly store: OAuthStore;

  constructor(private readonly options: AuthManagerOptions) {
    this.store = new OAuthStore(options.secrets);
  }

  /** A remote server's sign-in; undefined for stdio servers and entries with their own Authorization header. */
  forServer(server: ResolvedServer, changed: () => void): RemoteServerAuth | undefined {
    if (server.entry.url === undefined || hasOwnAuthorization(server)) return undefined;
    try {
      new URL(server.entry.url);
    } catch {
      return undefined;
    }
    if (server.entry.oauth?.grant === 'client_credentials' || server.entry.oauth?.grant === 'cross-app-access') return new MachineAuth(server, this.options.secrets, changed, this.options.fetch);
    return new ServerAuth(server, this.options, this.store, changed);
  }
}
