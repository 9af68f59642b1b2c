import { randomBytes } from 'node:crypto';
import { auth, discoverAuthorizationServerMetadata, RegistrationRejectedError, type FetchLike } from '@modelcontextprotocol/client';
import type { AuthView, LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import type { ResolvedServer } from '../config/resolve';
import { CoreError, messageOf, type Explained } from '../errors';
import type { SecretStore } from '../secrets/store';
import { checkAuthorizationUrl, UnsafeAuthorizationUrlError, type UrlOpener } from './browser';
import { challengeParams } from './challenge';
import type { LoopbackListener } from './loopback';
import { NeedsLoginError, scopeUnion, SwitchboardOAuthProvider } from './provider';
import { findInChain, refusedText, secretReference, type LoginOptions, type RemoteAuth, type RemoteServerAuth } from './server-auth';
import type { OAuthStore } from './store';

export interface InteractiveAuthOptions {
  secrets: SecretStore;
  /** Opens a URL in the person's browser without a shell (Electron: shell.openExternal); absent: only shown. */
  openUrl?: UrlOpener | undefined;
  log?: (line: string) => void;
  /** The fetch for sign-in requests (tests); default the global one. */
  fetch?: FetchLike;
  /** An https Client ID Metadata Document URL describing Switchboard, used where an authorization server supports CIMD. */
  clientMetadataUrl?: string | undefined;
}

/**
 * One remote server's sign-in: its {@link SwitchboardOAuthProvider} (handed to the transports), its view, and
 * the interactive login (loopback listener + browser step) and logout.
 */
export class InteractiveAuth implements RemoteServerAuth {
  readonly provider: SwitchboardOAuthProvider;
  private pendingUrl: URL | undefined;
  private signingIn: Promise<LoginResult> | undefined;

  constructor(
    private readonly server: ResolvedServer,
    private readonly manager: InteractiveAuthOptions,
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
        data: {
          server: this.name,
          how,
          ...(need.issuerHost !== undefined ? { issuerHost: need.issuerHost } : {}),
          ...(scopes ? { scopes: scopes.join(' ') } : {}),
        },
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
    if (this.signingIn)
      throw new CoreError(
        'invalid-argument',
        `A sign-in to "${this.name}" is already waiting for the browser${this.pendingUrl ? ` (${this.pendingUrl.host})` : ''}.`,
        { data: { server: this.name } },
      );
    if (this.missingSecret !== undefined) {
      throw new CoreError(
        'config-invalid',
        `mcpServers.${this.name}.oauth.clientSecret refers to \${secret:${this.missingSecret}}, which is not set. Add it (Settings → Secrets, or \`switchboard secret set ${this.missingSecret}\`).`,
        { data: { server: this.name } },
      );
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
    const listenOptions = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    // Loaded at sign-in only (node:http is not worth loading for every CLI command).
    const { LoopbackError, LoopbackListener } = await import('./loopback');
    let listener: LoopbackListener;
    try {
      listener = await LoopbackListener.open({ ...listenOptions, port: registeredPort ?? 0 });
    } catch (error) {
      // A dynamic registration's port is taken now: register again on another (a configured port must be kept).
      if (configuredPort !== undefined || registeredPort === undefined || !(error instanceof LoopbackError))
        throw new CoreError('request-failed', messageOf(error), { cause: error, data: { server: this.name } });
      this.manager.log?.(`[switchboard] ${this.name}: the registered redirect port ${registeredPort} is in use; registering again on another one`);
      provider.forgetRegistration();
      listener = await LoopbackListener.open({ ...listenOptions, port: 0 });
    }
    const state = randomBytes(24).toString('base64url');
    listener.expectState(state);
    let opened = false;
    let shown: string | undefined;
    const challenge =
      provider.lastChallenge.scope !== undefined || provider.lastChallenge.resourceMetadataUrl !== undefined
        ? provider.lastChallenge
        : await this.probeChallenge(fetchFn);
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
        throw new CoreError(
          'request-failed',
          `The authorization server did not grant access to "${this.name}" (${code}). Sign in again, and allow access when asked.`,
          { data: { server: this.name, error: code } },
        );
      }
      const authorizationCode = params.get('code');
      if (authorizationCode === null)
        throw new CoreError('request-failed', `The sign-in redirect for "${this.name}" carried no authorization code.`, { data: { server: this.name } });
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
        const why =
          error instanceof RegistrationRejectedError ? `refused Switchboard's registration (HTTP ${error.status})` : 'does not let apps register themselves';
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
      return {
        ...(params.scope !== undefined ? { scope: params.scope } : {}),
        ...(params.resource_metadata !== undefined ? { resourceMetadataUrl: params.resource_metadata } : {}),
      };
    } catch {
      return {};
    }
  }

  /** Signs out: revokes the tokens where the authorization server offers revocation (RFC 7009), then deletes them. */
  async logout(): Promise<LogoutResult> {
    const record = this.provider.currentTokens();
    let revoked = false;
    if (record)
      revoked = await this.revoke(
        record.tokens.refresh_token ?? record.tokens.access_token,
        record.tokens.refresh_token !== undefined ? 'refresh_token' : 'access_token',
      );
    this.provider.signOut();
    this.manager.log?.(`[switchboard] ${this.name}: signed out${revoked ? ' (tokens revoked)' : ''}`);
    return { removed: record !== undefined, revoked };
  }

  private async revoke(token: string, hint: string): Promise<boolean> {
    const discovery = this.provider.discoveryState();
    const fetchFn = this.manager.fetch ?? fetch;
    try {
      const metadata =
        discovery?.authorizationServerMetadata ??
        (discovery ? await discoverAuthorizationServerMetadata(discovery.authorizationServerUrl, { fetchFn }) : undefined);
      const endpoint: unknown = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
      if (typeof endpoint !== 'string') return false;
      checkAuthorizationUrl(endpoint);
      const client = this.provider.clientInformation(metadata?.issuer !== undefined ? { issuer: metadata.issuer } : undefined);
      if (!client) return false;
      const body = new URLSearchParams({ token, token_type_hint: hint });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (client.client_secret !== undefined)
        headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
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
