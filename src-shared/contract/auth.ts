/** OAuth sign-in of remote servers, as the UI and the CLI see it. Zod-free; tokens never appear here. */

/** A remote server's sign-in, in a server's view. */
export interface AuthView {
  /** `signed-in`: tokens are stored; `signed-out`: none (the server may not need any); `signing-in`: a sign-in waits for the browser. */
  state: 'signed-in' | 'signed-out' | 'signing-in';
  /** The authorization server's host (what a person signs in at), once discovered. */
  issuerHost?: string;
  /** The scopes asked for (the server's challenge, else what it supports, else the entry's `oauth.scopes`). */
  scopes?: string[];
  /** The scopes granted, once signed in. */
  grantedScopes?: string[];
  /** While signing in: the authorization URL (already checked: https, or http on loopback) and its host. */
  authorizationUrl?: string;
  authorizationHost?: string;
  /** The server asked for more scopes than were granted (step-up): signing in again asks for these. */
  stepUpScopes?: string[];
  /** When the access token expires (epoch ms), if the authorization server said. */
  expiresAt?: number;
}

/** The result of `auth:login`. */
export interface LoginResult {
  /** `signed-in`: tokens were obtained (the server restarts with them); `refreshed`: stored ones were still good. */
  outcome: 'signed-in' | 'refreshed';
  /** Whether the authorization URL was opened in a browser (false in headless mode or with noBrowser: show it). */
  opened: boolean;
  authorizationUrl?: string;
}

/** The result of `auth:logout`. */
export interface LogoutResult {
  /** Tokens were stored and are now deleted. */
  removed: boolean;
  /** The authorization server revoked them too (RFC 7009), where it offers revocation. */
  revoked: boolean;
}

export interface AuthResults {
  /** Resolves once signed in (or when stored tokens were refreshed); the server then restarts with its tokens. */
  'auth:login': LoginResult;
  'auth:logout': LogoutResult;
  /** The entry now names the client; sign in next. */
  'auth:set-client': void;
}

/** Each auth channel once, at runtime (the preload and the IPC gateway register them by name). */
export const authChannelNames = { 'auth:login': true, 'auth:logout': true, 'auth:set-client': true } as const satisfies Record<keyof AuthResults, true>;
