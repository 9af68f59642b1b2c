import type { ReactNode } from 'react';
import type { ConsentPart, ConsentSubject, LaunchSubject, RemoteSubject, SamplingSubject, ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { referenceLines, subjectLine } from './consent-text';
import './consent.css';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

type Changed = ReadonlySet<ConsentPart>;

/** One fact of the card; marked when it is what changed since the last approval. */
function Fact({ label, part, changed, children }: { label: string; part: ConsentPart; changed: Changed; children: ReactNode }) {
  const t = useT();
  const isChanged = changed.has(part);
  return (
    <>
      <dt>
        {label}
        {isChanged && (
          <span className="consent-changed" data-testid="consent-changed-mark">
            {' '}
            {t('consent.changedMark')}
          </span>
        )}
      </dt>
      <dd data-part={part} data-changed={isChanged ? 'true' : undefined}>
        {children}
      </dd>
    </>
  );
}

function References({ references }: { references: Record<string, string[]> }) {
  const t = useT();
  return (
    <ul className="consent-list" data-testid="consent-references" title={t('consent.referencesHint')}>
      {referenceLines(references).map((line) => (
        <li key={line}>
          <code>{line}</code>
        </li>
      ))}
    </ul>
  );
}

function Sampling({ sampling }: { sampling: SamplingSubject }) {
  const t = useT();
  return (
    <span data-testid="consent-sampling">
      {t(`consent.samplingMode.${sampling.mode}`)}
      {sampling.mode !== 'never' && <>, {sampling.perMinute !== undefined ? t('consent.perMinute', { count: sampling.perMinute }) : t('consent.noLimit')}</>}
    </span>
  );
}

function LaunchFacts({ subject, changed }: { subject: LaunchSubject; changed: Changed }) {
  const t = useT();
  return (
    <>
      <Fact label={t('fields.command')} part="command" changed={changed}>
        <code data-testid="consent-command">{subject.command}</code>
      </Fact>
      <Fact label={t('fields.args')} part="args" changed={changed}>
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
      </Fact>
      <Fact label={t('fields.cwd')} part="cwd" changed={changed}>
        {subject.cwd === null ? <span className="muted">{t('consent.ownFolder')}</span> : <code data-testid="consent-cwd">{subject.cwd}</code>}
      </Fact>
      <Fact label={t('fields.env')} part="env" changed={changed}>
        <span data-testid="consent-env">
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
        </span>
      </Fact>
      {subject.loader !== undefined && (
        <Fact label={t('consent.loader')} part="loader" changed={changed}>
          <ul className="consent-list" data-testid="consent-loader" title={t('consent.loaderHint')}>
            {Object.entries(subject.loader).map(([name, value]) => (
              <li key={name}>
                <code>{`${name}=${value}`}</code>
              </li>
            ))}
          </ul>
        </Fact>
      )}
      {subject.sandbox !== undefined && (
        <Fact label={t('fields.sandbox')} part="sandbox" changed={changed}>
          <code>{JSON.stringify(subject.sandbox)}</code>
        </Fact>
      )}
    </>
  );
}

function RemoteFacts({ subject, changed }: { subject: RemoteSubject; changed: Changed }) {
  const t = useT();
  return (
    <>
      <Fact label={t('fields.url')} part="url" changed={changed}>
        <code data-testid="consent-url">{subject.url}</code>
      </Fact>
      {subject.oauth !== undefined && (
        <Fact label={t('consent.oauth')} part="oauth" changed={changed}>
          <code data-testid="consent-oauth">{JSON.stringify(subject.oauth)}</code>
        </Fact>
      )}
    </>
  );
}

function SubjectFacts({ subject, testId, changed }: { subject: ConsentSubject; testId: string; changed: Changed }) {
  const t = useT();
  return (
    <dl className="consent-facts" data-testid={testId}>
      {'command' in subject ? <LaunchFacts subject={subject} changed={changed} /> : <RemoteFacts subject={subject} changed={changed} />}
      {subject.references !== undefined && (
        <Fact label={t('consent.references')} part="references" changed={changed}>
          <References references={subject.references} />
        </Fact>
      )}
      {subject.sampling !== undefined && (
        <Fact label={t('consent.sampling')} part="sampling" changed={changed}>
          <Sampling sampling={subject.sampling} />
        </Fact>
      )}
    </dl>
  );
}

const nothingChanged: Changed = new Set();

/**
 * Consent before a command runs or a secret is sent (SEP-1024): an entry the person has not approved shows exactly
 * what would run — the full command line, each argument, the working folder, the environment variable names, the
 * references their values come from (by name, values never) and the code-loading variables in full — or, for a
 * remote entry, the URL and the references its headers send; and its sampling policy. It starts only when they press
 * Approve. A changed entry marks what changed and shows what was approved before.
 */
export function ConsentCard({ server }: { server: ServerView }) {
  const approving = useApp((s) => s.approving[server.name] === true);
  const error = useApp((s) => s.approveErrors[server.name]);
  const approve = useApp((s) => s.approveServer);
  const t = useT();
  const consent = server.consent;
  if (!consent?.enforced) return null;
  const headingId = `consent-${server.name}-title`;
  const remote = !('command' in consent.subject);
  const changed = new Set(consent.changed ?? []);
  const title =
    consent.reason === 'changed'
      ? t(remote ? 'consent.changedTitleRemote' : 'consent.changedTitle', { server: server.name })
      : t(remote ? 'consent.connectTitle' : 'consent.runTitle', { server: server.name });
  return (
    <section className="card consent-card" role="group" aria-labelledby={headingId} data-testid="consent-card" data-server={server.name}>
      <div className="card-head">
        <h4 id={headingId}>{title}</h4>
      </div>
      <p className="consent-why">{consent.reason === 'changed' ? t('consent.changedWhy') : remote ? t('consent.newWhyRemote') : t('consent.newWhy')}</p>
      <pre className="code-line" data-testid="consent-line">
        {subjectLine(consent.subject)}
      </pre>
      <SubjectFacts subject={consent.subject} testId="consent-subject" changed={changed} />
      {consent.previous && (
        <details className="consent-previous" data-testid="consent-previous">
          <summary>{t('consent.before')}</summary>
          <pre className="code-line">{subjectLine(consent.previous)}</pre>
          <SubjectFacts subject={consent.previous} testId="consent-previous-subject" changed={nothingChanged} />
        </details>
      )}
      <div className="consent-actions">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="consent-approve"
          disabled={approving}
          onClick={() => void approve(server.name, consent.hash)}
        >
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
