import { useState } from 'react';
import type { AuthView, ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import './auth.css';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

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
 * A remote server's OAuth sign-in. Needs sign-in: the authorization server's host, the scopes asked, and
 * Sign in (main opens the browser on the desktop; in a browser tab the link is shown to click). Signing in: where to
 * finish it. Signed in: the granted scopes and Sign out (revokes where the authorization server offers it).
 * `compact` (the server row): one line unless something is asked of the person.
 */
export function AuthCard({ server, compact = false }: { server: ServerView; compact?: boolean }) {
  const busy = useApp((s) => s.authBusy[server.name]);
  const error = useApp((s) => s.authErrors[server.name]);
  const signIn = useApp((s) => s.signIn);
  const signOut = useApp((s) => s.signOut);
  const t = useT();
  if (!authShown(server)) return null;
  const { auth } = server;
  const host = auth.issuerHost;
  const headingId = `auth-${server.name}-title`;
  const errorNote = error && (
    <p className="form-error" role="alert" data-testid="auth-error">
      {error}
    </p>
  );

  if (auth.state === 'signing-in') {
    return (
      <section className="card auth-card auth-needed" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="signing-in">
        <h4 id={headingId}>
          {(auth.authorizationHost ?? host) !== undefined
            ? t('auth.finishAt', { server: server.name, host: auth.authorizationHost ?? host })
            : t('auth.finish', { server: server.name })}
        </h4>
        {auth.authorizationUrl !== undefined && (
          <>
            <p>{t('auth.openAddress')}</p>
            <pre className="code-line" data-testid="auth-url">
              {auth.authorizationUrl}
            </pre>
            <div className="auth-actions">
              <a className="btn btn-small" href={auth.authorizationUrl} target="_blank" rel="noopener noreferrer" data-testid="auth-open-link">
                {t('auth.openPage')}
              </a>
              <span className="muted">{t('auth.waits')}</span>
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
            {host !== undefined ? t('auth.signedInAt', { host }) : t('auth.signedIn')}
          </span>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            data-testid="auth-sign-out"
            disabled={busy !== undefined}
            onClick={() => void signOut(server.name)}
          >
            {busy === 'signing-out' ? t('auth.signingOut') : t('auth.signOut')}
          </button>
          {errorNote}
        </div>
      );
    }
    return (
      <section className="card auth-card" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="signed-in">
        <h4 id={headingId}>{host !== undefined ? t('auth.signedInAt', { host }) : t('auth.signedIn')}</h4>
        <Scopes scopes={auth.grantedScopes} testId="auth-granted-scopes" />
        {auth.expiresAt !== undefined && <p className="muted">{t('auth.renewed')}</p>}
        <div className="auth-actions">
          <button type="button" className="btn btn-small" data-testid="auth-sign-out" disabled={busy !== undefined} onClick={() => void signOut(server.name)}>
            {busy === 'signing-out' ? t('auth.signingOut') : t('auth.signOut')}
          </button>
          <span className="muted">{t('auth.revokes')}</span>
        </div>
        {errorNote}
      </section>
    );
  }

  // Needs a sign-in (first time, expired beyond refresh, or more access asked for).
  const stepUp = auth.stepUpScopes !== undefined && auth.stepUpScopes.length > 0;
  return (
    <section className="card auth-card auth-needed" role="group" aria-labelledby={headingId} data-testid="auth-card" data-state="needs-login">
      <h4 id={headingId}>{stepUp ? t('auth.moreAccess', { server: server.name }) : t('auth.signInToUse', { server: server.name })}</h4>
      <p>
        {stepUp ? t('auth.needsScopes') : host !== undefined ? t('auth.asksSignInAt', { host }) : t('auth.asksSignIn')}
        {!stepUp && auth.scopes && auth.scopes.length > 0 ? t('auth.forColon') : t('auth.period')}
      </p>
      <Scopes scopes={stepUp ? auth.stepUpScopes : auth.scopes} testId="auth-scopes" />
      <div className="auth-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="auth-sign-in"
          disabled={busy !== undefined}
          onClick={() => void signIn(server.name)}
        >
          {busy === 'signing-in' ? t('auth.signingIn') : stepUp ? t('auth.signInAgain') : t('auth.signIn')}
        </button>
        {!compact && <span className="muted">{t('auth.browserOpens')}</span>}
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
  const t = useT();
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
          <Trans i18nKey="auth.register" values={{ uri: needed.redirectUri }} components={{ code: <code data-testid="auth-redirect-uri" /> }} />
        </p>
      )}
      <label htmlFor={idField}>{t('auth.clientId')}</label>
      <input id={idField} data-testid="auth-client-id" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" required />
      <label htmlFor={secretField}>{t('auth.clientSecret')}</label>
      <input
        id={secretField}
        data-testid="auth-client-secret"
        type="password"
        value={clientSecret}
        onChange={(e) => setClientSecret(e.target.value)}
        autoComplete="off"
      />
      <button type="submit" className="btn btn-primary btn-small" data-testid="auth-client-save" disabled={busy !== undefined || clientId.trim() === ''}>
        {t('auth.saveAndSignIn')}
      </button>
    </form>
  );
}
