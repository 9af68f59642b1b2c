import type { LaunchSubject, ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import { commandLine } from './consent-text';
import './consent.css';

function SubjectFacts({ subject, testId }: { subject: LaunchSubject; testId: string }) {
  return (
    <dl className="consent-facts" data-testid={testId}>
      <dt>command</dt>
      <dd>
        <code data-testid="consent-command">{subject.command}</code>
      </dd>
      <dt>args</dt>
      <dd>
        {subject.args.length === 0 ? (
          <span className="muted">none</span>
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
      <dt>cwd</dt>
      <dd>{subject.cwd === null ? <span className="muted">Switchboard&apos;s working folder</span> : <code data-testid="consent-cwd">{subject.cwd}</code>}</dd>
      <dt>env</dt>
      <dd data-testid="consent-env">
        {subject.env.length === 0 ? (
          <span className="muted">no variables of its own</span>
        ) : (
          <span className="env-names">
            {subject.env.map((name) => (
              <span key={name} className="env-name" title="value hidden">
                {name}
              </span>
            ))}
          </span>
        )}
        {subject.envFile !== undefined && (
          <span className="muted">
            {' '}
            (from <code>{subject.envFile}</code> too)
          </span>
        )}
      </dd>
      {subject.sandbox !== undefined && (
        <>
          <dt>sandbox</dt>
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
  const consent = server.consent;
  if (!consent?.enforced) return null;
  const headingId = `consent-${server.name}-title`;
  return (
    <section className="card consent-card" role="group" aria-labelledby={headingId} data-testid="consent-card" data-server={server.name}>
      <div className="card-head">
        <h4 id={headingId}>{consent.reason === 'changed' ? `The command of “${server.name}” changed` : `Run “${server.name}”?`}</h4>
      </div>
      <p className="consent-why">
        {consent.reason === 'changed'
          ? 'Since you approved it, its command, arguments, working folder or environment names changed (an edit of the file, an import or a paste). It stays stopped until you approve the new one.'
          : 'This entry was added outside the server form (an import, a paste into the editor, or another program editing the file). Switchboard starts it only once you have checked what it runs.'}
      </p>
      <pre className="consent-line" data-testid="consent-line">
        {commandLine(consent.subject)}
      </pre>
      <SubjectFacts subject={consent.subject} testId="consent-subject" />
      {consent.previous && (
        <details className="consent-previous" data-testid="consent-previous">
          <summary>what you approved before</summary>
          <pre className="consent-line">{commandLine(consent.previous)}</pre>
          <SubjectFacts subject={consent.previous} testId="consent-previous-subject" />
        </details>
      )}
      <div className="consent-actions">
        <button type="button" className="btn btn-primary" data-testid="consent-approve" disabled={approving} onClick={() => void approve(server.name, consent.hash)}>
          {approving ? 'Approving…' : server.disabled ? 'Approve (it stays disabled)' : 'Approve and start'}
        </button>
        <span className="muted">Not now: leave it; it stays stopped. Remove it or edit it in the server form.</span>
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="consent-error">
          {error}
        </p>
      )}
    </section>
  );
}
