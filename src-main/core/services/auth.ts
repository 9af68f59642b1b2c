import type { HostMethods } from '../../../src-shared/host-api';
import type { LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import type { OAuthEntry, ServerEntry } from '../../../src-shared/schemas/config';
import type { SecretStore } from '../secrets/store';
import type { LoginOptions, RemoteServerAuth } from '../auth/server-auth';
import { CoreError } from '../errors';
import type { ServerFleet } from '../servers/fleet';

/** What setting a hand-registered client needs: the entry as configured, a way to save it, the secret store. */
export interface AuthServiceDeps {
  entry(name: string): ServerEntry | undefined;
  saveEntry(name: string, entry: ServerEntry): Promise<void>;
  secrets: SecretStore;
}

export type AuthChannel = 'auth:login' | 'auth:logout' | 'auth:set-client';

/**
 * OAuth sign-in and sign-out of remote servers (`auth:login`, `auth:logout`). A login resolves once the person
 * signed in (the loopback redirect arrived and the code was exchanged); the server then restarts with its tokens.
 * While it waits, the server's view carries the authorization URL (`auth.authorizationUrl`) for a UI to show.
 */
export class AuthService {
  readonly api: Pick<HostMethods, AuthChannel>;

  constructor(
    private readonly fleet: ServerFleet,
    private readonly deps: AuthServiceDeps,
  ) {
    this.api = {
      'auth:login': (server, options) => this.login(server, options ?? {}),
      'auth:logout': (server) => this.logout(server),
      'auth:set-client': (server, client) => this.setClient(server, client),
    };
  }

  /** Saves a client the person registered by hand: the id (and redirect port) in the entry, the secret as a secret. */
  private async setClient(name: string, client: { clientId: string; clientSecret?: string | undefined; redirectPort?: number | undefined }): Promise<void> {
    const entry = this.deps.entry(name);
    if (!entry) throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`, { data: { server: name } });
    if (entry.url === undefined)
      throw new CoreError('invalid-argument', `Server "${name}" is a stdio server; it does not sign in with OAuth.`, {
        data: { server: name, reason: 'stdio-no-oauth' },
      });
    let clientSecret = entry.oauth?.clientSecret;
    if (client.clientSecret !== undefined) {
      const secretName = `oauth-client-secret.${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 128);
      this.deps.secrets.set(secretName, client.clientSecret);
      clientSecret = `\${secret:${secretName}}`;
    }
    const redirectPort = client.redirectPort ?? entry.oauth?.redirectPort;
    const oauth: OAuthEntry = {
      ...entry.oauth,
      clientId: client.clientId,
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      ...(redirectPort !== undefined ? { redirectPort } : {}),
    };
    await this.deps.saveEntry(name, { ...entry, oauth });
    // The edited entry restarts the server: the next auth:login talks to the new one.
    await this.fleet.settled(name);
  }

  private serverAuth(name: string): RemoteServerAuth {
    const auth = this.fleet.get(name).auth;
    if (!auth) {
      throw new CoreError(
        'invalid-argument',
        `Server "${name}" does not sign in with OAuth: it is a stdio server, or its entry sends its own Authorization header.`,
        { data: { server: name, reason: 'no-oauth' } },
      );
    }
    return auth;
  }

  /** Signs in (see {@link InteractiveAuth.login}; `onAuthorizationUrl` lets the CLI print the URL, a script drive it). */
  async login(name: string, options: LoginOptions = {}): Promise<LoginResult> {
    const result = await this.serverAuth(name).login(options);
    // The supervisor may have been replaced meanwhile (a config change): restart whichever serves the name now.
    await this.fleet.get(name).restart();
    return result;
  }

  async logout(name: string): Promise<LogoutResult> {
    const result = await this.serverAuth(name).logout();
    await this.fleet.get(name).restart();
    return result;
  }
}
