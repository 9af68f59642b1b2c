import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  type CrossAppAccessContext,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { AuthView, LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import type { ResolvedServer } from '../config/resolve';
import { CoreError, messageOf, type Explained } from '../errors';
import type { SecretStore } from '../secrets/store';
import { scopeUnion } from './provider';
import { findInChain, refusedText, secretReference, type RemoteAuth, type RemoteServerAuth } from './server-auth';

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
    const missing =
      crossApp !== undefined ? (unset(secret) ?? unset(idToken) ?? unset(idpSecret)) : oauth?.privateKey !== undefined ? unset(key) : unset(secret);
    const clientId = oauth?.clientId;
    if (clientId === undefined || missing !== undefined) {
      this.problem = `mcpServers.${server.name}.oauth refers to \${secret:${missing ?? '?'}}, which is not set. Add it (Settings → Secrets, or \`switchboard secret set ${missing ?? 'NAME'}\`).`;
      return;
    }
    const common = {
      clientId,
      clientName: 'Switchboard',
      ...(scope !== undefined ? { scope } : {}),
      ...(oauth?.issuer !== undefined ? { expectedIssuer: oauth.issuer } : {}),
    };
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
          const result =
            idp.tokenEndpoint !== undefined
              ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
              : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer ?? '' });
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
    const how =
      this.server.entry.oauth?.grant === 'cross-app-access'
        ? 'cross-app access (the enterprise IdP vouches for you with the ID token in oauth.idp.idToken)'
        : 'client credentials (machine to machine)';
    return Promise.reject(
      new CoreError('invalid-argument', `Server "${this.name}" uses ${how}: it gets its tokens by itself, without a sign-in. Restart it to fetch new ones.`, {
        data: { server: this.name },
      }),
    );
  }

  /** Forgets the session's tokens (the restart that follows fetches new ones; there is nothing stored to revoke). */
  logout(): Promise<LogoutResult> {
    const had = this.current?.tokens() !== undefined;
    this.current = undefined;
    this.changed();
    return Promise.resolve({ removed: had, revoked: false });
  }
}
