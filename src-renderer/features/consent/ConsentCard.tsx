import type { LaunchSubject, ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import { commandLine } from './consent-text';
import './consent.css';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

function SubjectFacts({ subject, testId }: { subject: LaunchSubject; testId: string }) {
  const t = useT();
  return (
    <dl className="consent-facts" data-testid={testId}>
      <dt>{t('fields.command')}</dt>
      <dd>
        <code data-testid="consent-command">{subject.command}</code>
      </dd>
      <dt>{t('fields.args')}</dt>
      <dd>
        {subject.args.length === 0 ? (
          <span className="muted">{t('consent.none')}</span>
        ) : (
          <ol className="consent-args" data-testid="consent-args">
            {subject.args.map((arg, index) => (
              // The same argument may appear twice: the index is part of its identity here.
              <li key={`${index}:${arg}`}>
                <code>{arg}</code>
              </li>
            ))}
          </ol>
        )}
      </dd>
      <dt>{t('fields.cwd')}</dt>
      <dd>{subject.cwd === null ? <span className="muted">{t('consent.ownFolder')}</span> : <code data-testid="consent-cwd">{subject.cwd}</code>}</dd>
      <dt>{t('fields.env')}</dt>
      <dd data-testid="consent-env">
        {subject.env.length === 0 ? (
          <span className="muted">{t('consent.noVars')}</span>
        ) : (
          <span className="env-names">
            {subject.env.map((name) => (
              <span key={name} className="env-name" title={t('consent.valueHidden')}>
                {name}
              </span>
            ))}
          </span>
        )}
        {subject.envFile !== undefined && (
          <span className="muted">
            {' '}
            <Trans i18nKey="consent.fromEnvFile" values={{ file: subject.envFile }} components={{ code: <code /> }} />
          </span>
        )}
      </dd>
      {subject.sandbox !== undefined && (
        <>
          <dt>{t('fields.sandbox')}</dt>
          <dd>
            <code>{JSON.stringify(subject.sandbox)}</code>
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * Consent before a command runs (SEP-1024): a stdio entry the person has not approved shows exactly what would run —
 * the full command line, each argument, the working folder and the environment variable names (values never) — and
 * starts only when they press Approve. A changed entry shows what was approved before.
 */
export function ConsentCard({ server }: { server: ServerView }) {
  const approving = useApp((s) => s.approving[server.name] === true);
  const error = useApp((s) => s.approveErrors[server.name]);
  const approve = useApp((s) => s.approveServer);
  const t = useT();
  const consent = server.consent;
  if (!consent?.enforced) return null;
  const headingId = `consent-${server.name}-title`;
  return (
    <section className="card consent-card" role="group" aria-labelledby={headingId} data-testid="consent-card" data-server={server.name}>
      <div className="card-head">
        <h4 id={headingId}>{consent.reason === 'changed' ? t('consent.changedTitle', { server: server.name }) : t('consent.runTitle', { server: server.name })}</h4>
      </div>
      <p className="consent-why">
        {consent.reason === 'changed'
          ? t('consent.changedWhy')
          : t('consent.newWhy')}
      </p>
      <pre className="code-line" data-testid="consent-line">
        {commandLine(consent.subject)}
      </pre>
      <SubjectFacts subject={consent.subject} testId="consent-subject" />
      {consent.previous && (
        <details className="consent-previous" data-testid="consent-previous">
          <summary>{t('consent.before')}</summary>
          <pre className="code-line">{commandLine(consent.previous)}</pre>
          <SubjectFacts subject={consent.previous} testId="consent-previous-subject" />
        </details>
      )}
      <div className="consent-actions">
        <button type="button" className="btn btn-primary" data-testid="consent-approve" disabled={approving} onClick={() => void approve(server.name, consent.hash)}>
          {approving ? t('consent.approving') : server.disabled ? t('consent.approveDisabled') : t('consent.approveStart')}
        </button>
        <span className="muted">{t('consent.notNow')}</span>
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="consent-error">
          {error}
        </p>
      )}
    </section>
  );
}
