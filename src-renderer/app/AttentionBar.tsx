import type { ServerView } from '../../src-shared/host-api';
import { subjectLine } from '../features/consent/consent-text';
import { needsReview } from '../features/trust/TrustBadge';
import { useApp } from '../store/useApp';
import { reasonText, useT } from '../i18n';

type Need = 'approval' | 'login' | 'error' | 'review';

/** The server's tools that are refused until a person reviews them (new since the first listing, changed, flagged). */
export function toolsToReview(server: ServerView): string[] {
  return server.tools.filter(needsReview).map((tool) => tool.name);
}

/** What a server waits on the person for, if anything (a disabled server waits for nothing). */
export function needOf(server: ServerView): Need | undefined {
  if (server.disabled) return undefined;
  if (server.status === 'needs-approval' && server.consent?.enforced) return 'approval';
  if (server.status === 'needs-login') return 'login';
  if (server.status === 'error' || server.status === 'crash-loop') return 'error';
  if (server.status === 'ready' && server.tools.some(needsReview)) return 'review';
  return undefined;
}

/** How many tool names an attention item spells out before "and N more". */
const namesShown = 3;

/**
 * Above every screen: the servers that need the person — an approval, a sign-in, a look at why they fail, or tools
 * to review before they run — each with its action one click away, so they are not found only by scrolling the
 * sidebar.
 */
export function AttentionBar() {
  const servers = useApp((s) => s.servers);
  const unreachable = useApp((s) => s.connection.status !== 'open');
  const t = useT();
  // While the host is unreachable nothing here would be current (and its banner says so).
  if (unreachable) return null;
  const needing = servers.flatMap((server) => {
    const need = needOf(server);
    return need ? [{ server, need }] : [];
  });
  if (needing.length === 0) return null;
  return (
    <section className="attention-bar" aria-label={t('attention.label')} data-testid="attention-bar">
      <ul className="attention-list">
        {needing.map(({ server, need }) => (
          <AttentionItem key={server.name} server={server} need={need} />
        ))}
      </ul>
    </section>
  );
}

function AttentionItem({ server, need }: { server: ServerView; need: Need }) {
  const approving = useApp((s) => s.approving[server.name] === true);
  const approveError = useApp((s) => s.approveErrors[server.name]);
  const approve = useApp((s) => s.approveServer);
  const signingIn = useApp((s) => s.authBusy[server.name] !== undefined);
  const authError = useApp((s) => s.authErrors[server.name]);
  const signIn = useApp((s) => s.signIn);
  const openServerPage = useApp((s) => s.openServerPage);
  const t = useT();
  const consent = server.consent?.enforced ? server.consent : undefined;
  const reason = server.error !== undefined ? reasonText(server.error, server.errorInfo) : t('serverRow.noReason');
  const remote = consent !== undefined && !('command' in consent.subject);
  const details = (
    <button
      type="button"
      className="btn btn-small"
      data-testid="attention-open"
      aria-label={t('attention.detailsLabel', { server: server.name })}
      onClick={() => openServerPage(server.name)}
    >
      {need === 'error' ? t('attention.open') : t('attention.details')}
    </button>
  );
  return (
    <li className={`attention-item attention-${need}`} data-testid="attention-item" data-server={server.name} data-need={need}>
      <span className={`status-dot status-${server.status}`} aria-hidden="true" />
      {need === 'approval' && consent && (
        <>
          <span className="attention-text">{t(remote ? 'attention.approvalRemote' : 'attention.approval', { server: server.name })}</span>
          {/* What is approved is shown where the button is: the full line, as on the consent card. */}
          <code className="attention-line" data-testid="attention-line" title={subjectLine(consent.subject)}>
            {subjectLine(consent.subject)}
          </code>
          <button
            type="button"
            className="btn btn-small btn-primary"
            data-testid="attention-approve"
            aria-label={t('attention.approveLabel', { server: server.name })}
            disabled={approving}
            onClick={() => void approve(server.name, consent.hash)}
          >
            {approving ? t('attention.approving') : t('attention.approve')}
          </button>
          {details}
          {approveError && (
            <span className="form-error" role="alert">
              {approveError}
            </span>
          )}
        </>
      )}
      {need === 'login' && (
        <>
          <span className="attention-text">{t('attention.login', { server: server.name })}</span>
          <button
            type="button"
            className="btn btn-small btn-primary"
            data-testid="attention-sign-in"
            disabled={signingIn}
            onClick={() => void signIn(server.name)}
          >
            {signingIn ? t('attention.signingIn') : t('attention.signIn')}
          </button>
          {server.auth?.state === 'signing-in' && server.auth.authorizationUrl !== undefined && (
            <a className="btn btn-small" href={server.auth.authorizationUrl} target="_blank" rel="noopener noreferrer" data-testid="attention-auth-link">
              {t('auth.openPage')}
            </a>
          )}
          {details}
          {authError && (
            <span className="form-error" role="alert">
              {authError}
            </span>
          )}
        </>
      )}
      {need === 'review' && <ReviewNeed server={server} />}
      {need === 'error' && (
        <>
          <span className="attention-text">{t('attention.error', { server: server.name })}</span>
          <span className="attention-line attention-reason" data-testid="attention-reason" title={reason}>
            {reason}
          </span>
          {details}
        </>
      )}
    </li>
  );
}

function ReviewNeed({ server }: { server: ServerView }) {
  const openServerPage = useApp((s) => s.openServerPage);
  const t = useT();
  const names = toolsToReview(server);
  const shown = names.slice(0, namesShown).join(', ');
  const more = names.length - namesShown;
  return (
    <>
      <span className="attention-text">{t('attention.review', { server: server.name, count: names.length })}</span>
      <code className="attention-line" data-testid="attention-tools" title={names.join(', ')}>
        {more > 0 ? t('attention.andMore', { names: shown, count: more }) : shown}
      </code>
      <button
        type="button"
        className="btn btn-small btn-primary"
        data-testid="attention-review"
        aria-label={t('attention.reviewLabel', { server: server.name })}
        onClick={() => openServerPage(server.name, 'tools')}
      >
        {t('attention.reviewButton')}
      </button>
    </>
  );
}
