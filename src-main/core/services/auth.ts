import type { HostMethods } from '../../../src-shared/host-api';
import type { LoginResult, LogoutResult } from '../../../src-shared/contract/auth';
import type { LoginOptions, RemoteServerAuth } from '../auth/manager';
import { CoreError } from '../errors';
import type { Registry } from '../registry';

export type AuthChannel = 'auth:login' | 'auth:logout';

/**
 * OAuth sign-in and sign-out of remote servers (`auth:login`, `auth:logout`). A login resolves once the person
 * signed in (the loopback redirect arrived and the code was exchanged); the server then restarts with its tokens.
 * While it waits, the server's view carries the authorization URL (`auth.authorizationUrl`) for a UI to show.
 */
export class AuthService {
  readonly api: Pick<HostMethods, AuthChannel>;

  constructor(private readonly registry: Registry) {
    this.api = {
      'auth:login': (server, options) => this.login(server, options ?? {}),
      'auth:logout': (server) => this.logout(server),
    };
  }

  private serverAuth(name: string): RemoteServerAuth {
    const auth = this.registry.get(name).auth;
    if (!auth) {
      throw new CoreError('invalid-argument', `Server "${name}" does not sign in with OAuth: it is a stdio server, or its entry sends its own Authorization header.`, { data: { server: name } });
    }
    return auth;
  }

  /** Signs in (see {@link ServerAuth.login}; `onAuthorizationUrl` lets the CLI print the URL, a script drive it). */
  async login(name: string, options: LoginOptions = {}): Promise<LoginResult> {
    const result = await this.serverAuth(name).login(options);
    // The supervisor may have been replaced meanwhile (a config change): restart whichever serves the name now.
    await this.registry.get(name).restart();
    return result;
  }

  async logout(name: string): Promise<LogoutResult> {
    const result = await this.serverAuth(name).logout();
    await this.registry.get(name).restart();
    return result;
  }
}
