import { useState } from 'react';
import { useApp } from '../../store/useApp';
import { CallProgress } from './CallProgress';
import type { CallEntry } from '../../store/transcript-entries';
import { ResultContent } from '../../ui/ResultContent';
import { CardTitle } from '../../ui/CardTitle';
import { formatMs } from '../../ui/search';
import { CallRequests } from '../requests/RequestsPanel';
import { useT } from '../../i18n';
import { AppSlot } from '../apps/AppView';

export function CallCard({ entry }: { entry: CallEntry }) {
  const argsText = JSON.stringify(entry.args);
  const t = useT();
  return (
    <article
      className={`card call call-${entry.state}`}
      data-testid="call-card"
      data-state={entry.state}
      data-server={entry.server}
      data-tool={entry.tool}
      aria-busy={entry.state === 'pending'}
    >
      <header className="card-head">
        <CardTitle server={entry.server} tool={entry.tool} />
        <span className={`pill pill-${entry.state}`} data-testid="call-state">
          {t(`call.state.${entry.state}`)}
        </span>
        {entry.durationMs !== undefined && <span className="muted duration">{formatMs(entry.durationMs)}</span>}
        {entry.state === 'pending' && <CancelButton entry={entry} />}
      </header>
      <div className="card-command" title={entry.command ? t('call.typed') : t('call.fromForm')}>
        {entry.command ?? t('call.form', { args: argsText })}
      </div>
      <AppSlot
        server={entry.server}
        tool={entry.tool}
        args={entry.args}
        result={entry.result}
        callId={entry.callId}
        {...(entry.state === 'cancelled' || (entry.state === 'error' && !entry.result) ? { cancelled: entry.failure?.message ?? t('call.cancelledDot') } : {})}
      />
      <CallBody entry={entry} />
      {/* What the server asks of the person while this call runs (sampling, a form, a link). */}
      <CallRequests callId={entry.callId} />
    </article>
  );
}

function CallBody({ entry }: { entry: CallEntry }) {
  const t = useT();
  if (entry.state === 'pending') {
    return (
      <div className="card-body muted">
        <PendingBody entry={entry} />
        <HostAwayNote entry={entry} />
        {entry.cancelError && <span className="call-error">{t('call.couldNotCancel', { error: entry.cancelError })}</span>}
      </div>
    );
  }
  if (entry.state === 'cancelled') {
    return (
      <div className="card-body muted" data-testid="call-cancelled">
        {entry.failure?.message ?? t('call.cancelledDot')}
      </div>
    );
  }
  if (entry.failure) {
    return (
      <div className="card-body call-error" data-testid="call-error">
        {entry.failure.code && <span className="error-code">{entry.failure.code}</span>}
        <p>{entry.failure.message}</p>
      </div>
    );
  }
  if (!entry.result) {
    return entry.resultNotKept ? (
      <div className="card-body muted" data-testid="call-result-not-kept">
        {t('call.resultNotKept')}
      </div>
    ) : null;
  }
  const isError = entry.state === 'error';
  return (
    <div className={`card-body${isError ? ' call-error' : ''}`} data-testid={isError ? 'call-error' : 'call-result'}>
      {isError && <span className="error-code">{t('call.toolError')}</span>}
      <ResultContent result={entry.result} server={entry.server} />
    </div>
  );
}

/** "Waiting…" and the timer until the server reports progress; then the bar and its message too. */
function PendingBody({ entry }: { entry: CallEntry }) {
  const reported = useApp((s) => s.progress[entry.callId] !== undefined);
  // When the host holds the call, its start (epoch ms) is the true one (a card restored after a reload has no other).
  const hostStarted = useApp((s) => s.hostCalls[entry.callId]?.startedAt);
  const t = useT();
  // CallEntry times are performance.now(); the progress view counts in epoch ms.
  const [ownStart] = useState(() => Date.now() - (performance.now() - entry.startedAt));
  const startedAt = hostStarted ?? (entry.detached ? undefined : ownStart);
  return <CallProgress callId={entry.callId} startedAt={startedAt} idle={reported ? undefined : t('call.waitingFor', { server: entry.server })} />;
}

/** While the connection to the host is down, a call this window follows goes on there: say so. */
function HostAwayNote({ entry }: { entry: CallEntry }) {
  const away = useApp((s) => s.connection.status !== 'open');
  const t = useT();
  if (entry.detached !== true || !away) return null;
  return (
    <p className="muted" data-testid="call-host-away">
      {t('call.hostAway')}
    </p>
  );
}

function CancelButton({ entry }: { entry: CallEntry }) {
  const cancelCall = useApp((s) => s.cancelCall);
  const t = useT();
  return (
    <button type="button" className="btn btn-small" data-testid="call-cancel" disabled={entry.cancelling === true} onClick={() => void cancelCall(entry.id)}>
      {entry.cancelling ? t('call.cancelling') : t('common.cancel')}
    </button>
  );
}
