import { useState } from 'react';
import type { AuthView, ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import './auth.css';

function Scopes({ scopes, testId }: { scopes: string[] | undefined; testId: string }) {
  if (!scopes || scopes.length === 0) return null;
  return (
    <span className="auth-scopes" data-testid={testId}>
      {scopes.map((scope) => (
        <span key={scope} className="chip">
          {scope}
        </span>
      ))}
    </span>
  );
}

/** Whether a server's sign-in is something to show: it needs one, one is under way, or it is signed in. */
export function authShown(server: ServerView): server is ServerView & { auth: AuthView } {
  return server.auth !== undefined && (server.status === 'needs-login' || server.auth.state !== 'signed-out');
}

/**
 * A remote server's OAuth sign-in (issue 11). Needs sign-in: the authorization server's host, the scopes asked, and
 * Sign in (main opens the browser on the desktop; in a browser tab the link is shown to click). Signing in: where to
 * finish it. Signed in: the granted scopes and Sign out (revokes where the authorization server offers it).
 * `compact` (the server row): one line unless something is asked of the person.
 */
export function AuthCard({ server, compact = false }: { server: ServerView; compact?: boolean }) {
  const busy = useApp((s) => s.authBusy[server.name]);
  const error = useApp((s) => s.authErrors[server.name]);
  const signIn = useApp((s) => s.signIn);
  const signOut = useApp((s) => s.signOut);
  if (!authShown(server)) return null;
  const { auth } = server;
  const at = auth.issuerHost !== undefined ? ` at ${auth.issuerHost}` : '';
  const headingId = `auth-${server.name}-title`;
  const errorNote = error && (
    <p className="form-error" role="alert" data-testid="auth-error">
      {error}
    </p>
  );

  if (auth.state === 'signing-in') {
    return (
      <section className="card auth-card auth-needed" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="signing-in">
        <h4 id={headingId}>Finish signing in to “{server.name}”{auth.authorizationHost !== undefined ? ` at ${auth.authorizationHost}` : at}</h4>
        {auth.authorizationUrl !== undefined && (
          <>
            <p>If no browser window opened, open this address (it was checked: https, or this computer):</p>
            <pre className="auth-url" data-testid="auth-url">
              {auth.authorizationUrl}
            </pre>
            <div className="auth-actions">
              <a className="btn btn-small" href={auth.authorizationUrl} target="_blank" rel="noopener noreferrer" data-testid="auth-open-link">
                Open the sign-in page
              </a>
              <span className="muted">Switchboard waits up to 5 minutes for the redirect.</span>
            </div>
          </>
        )}
        {errorNote}
      </section>
    );
  }

  if (auth.state === 'signed-in' && (auth.stepUpScopes === undefined || auth.stepUpScopes.length === 0)) {
    if (compact) {
      return (
        <div className="auth-actions" data-testid="auth-card" data-state="signed-in">
          <span className="muted" data-testid="auth-signed-in">
            Signed in{at}
          </span>
          <button type="button" className="btn btn-small btn-ghost" data-testid="auth-sign-out" disabled={busy !== undefined} onClick={() => void signOut(server.name)}>
            {busy === 'signing-out' ? 'Signing out…' : 'Sign out'}
          </button>
          {errorNote}
        </div>
      );
    }
    return (
      <section className="card auth-card" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="signed-in">
        <h4 id={headingId}>Signed in{at}</h4>
        <Scopes scopes={auth.grantedScopes} testId="auth-granted-scopes" />
        {auth.expiresAt !== undefined && <p className="muted">The access token is renewed automatically before it expires.</p>}
        <div className="auth-actions">
          <button type="button" className="btn btn-small" data-testid="auth-sign-out" disabled={busy !== undefined} onClick={() => void signOut(server.name)}>
            {busy === 'signing-out' ? 'Signing out…' : 'Sign out'}
          </button>
          <span className="muted">Revokes the tokens where the authorization server allows it, and deletes them here.</span>
        </div>
        {errorNote}
      </section>
    );
  }

  // Needs a sign-in (first time, expired beyond refresh, or more access asked for).
  const stepUp = auth.stepUpScopes !== undefined && auth.stepUpScopes.length > 0;
  return (
    <section className="card auth-card auth-needed" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="needs-login">
      <h4 id={headingId}>{stepUp ? `“${server.name}” asks for more access` : `Sign in to use “${server.name}”`}</h4>
      <p>
        {stepUp ? 'It needs these scopes, which your sign-in did not grant' : `It asks you to sign in${at}`}
        {!stepUp && auth.scopes && auth.scopes.length > 0 ? ' for:' : '.'}
      </p>
      <Scopes scopes={stepUp ? auth.stepUpScopes : auth.scopes} testId="auth-scopes" />
      <div className="auth-actions">
        <button type="button" className="btn btn-primary btn-small" data-testid="auth-sign-in" disabled={busy !== undefined} onClick={() => void signIn(server.name)}>
          {busy === 'signing-in' ? 'Signing in…' : stepUp ? 'Sign in again' : 'Sign in'}
        </button>
        {!compact && <span className="muted">Your browser opens the authorization server&apos;s page; Switchboard keeps the tokens as secrets.</span>}
      </div>
      {errorNote}
      <ClientForm server={server} />
    </section>
  );
}

/**
 * The authorization server lets no app register itself: the person registers Switchboard there (with the redirect
 * URI shown) and enters the client id, and the secret if it gave one (kept as a secret, never in the config).
 */
export function ClientForm({ server }: { server: ServerView }) {
  const needed = useApp((s) => s.authNeedsClient[server.name]);
  const busy = useApp((s) => s.authBusy[server.name]);
  const setClient = useApp((s) => s.setClient);
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  if (!needed) return null;
  const idField = `auth-${server.name}-client-id`;
  const secretField = `auth-${server.name}-client-secret`;
  return (
    <form
      className="auth-client-form"
      data-testid="auth-client-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (clientId.trim() === '') return;
        void setClient(server.name, { clientId: clientId.trim(), ...(clientSecret !== '' ? { clientSecret } : {}) });
      }}
    >
      {needed.redirectUri !== undefined && (
        <p>
          Register Switchboard as a native app with the redirect URI <code data-testid="auth-redirect-uri">{needed.redirectUri}</code>, then enter what the
          authorization server gave you:
        </p>
      )}
      <label htmlFor={idField}>Client id</label>
      <input id={idField} data-testid="auth-client-id" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" required />
      <label htmlFor={secretField}>Client secret (if it gave one)</label>
      <input id={secretField} data-testid="auth-client-secret" type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} autoComplete="off" />
      <button type="submit" className="btn btn-primary btn-small" data-testid="auth-client-save" disabled={busy !== undefined || clientId.trim() === ''}>
        Save and sign in
      </button>
    </form>
  );
}
