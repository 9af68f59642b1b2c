import type { ResolvedServer } from '../config/resolve';
import { InteractiveAuth, type InteractiveAuthOptions } from './interactive';
import { MachineAuth } from './machine';
import type { RemoteServerAuth } from './server-auth';
import { OAuthStore } from './store';

export type AuthManagerOptions = InteractiveAuthOptions;

/** Whether a remote entry brings its own Authorization header (then Switchboard does not sign in for it). */
function hasOwnAuthorization(server: ResolvedServer): boolean {
  return Object.keys(server.headers ?? server.entry.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}

/** Makes each remote server's {@link InteractiveAuth} or {@link MachineAuth}; owns the OAuth records in the secret store. */
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
    if (server.entry.oauth?.grant === 'client_credentials' || server.entry.oauth?.grant === 'cross-app-access')
      return new MachineAuth(server, this.options.secrets, changed, this.options.fetch);
    return new InteractiveAuth(server, this.options, this.store, changed);
  }
}
