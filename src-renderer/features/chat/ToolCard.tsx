import { useState } from 'react';
import type { ToolPart } from '../../../src-shared/contract/chat';
import { CallProgress } from './CallProgress';
import { describeError } from '../../host/bridge-client';
import { ResultContent } from '../../ui/ResultContent';
import { useApp } from '../../store/useApp';
import { JsonTree } from '../../ui/JsonTree';
import { CardTitle } from '../../ui/CardTitle';
import { CallRequests } from '../requests/RequestsPanel';
import { ToolTrustNote } from '../trust/ToolTrustNote';
import { ToolSearchCard } from './ToolSearchCard';
import { Trans } from 'react-i18next';
import { formatCount, useT } from '../../i18n';
import { AppSlot } from '../apps/AppView';

/** Progress, a timer and Cancel while the model's call runs (Cancel sends `tools:cancel` with the call's id). */
function RunningBody({ part }: { part: ToolPart }) {
  const [state, setState] = useState<{ cancelling: boolean; error?: string }>({ cancelling: false });
  const t = useT();
  const cancel = async (): Promise<void> => {
    setState({ cancelling: true });
    try {
      const wasRunning = await cancelCall(part.callId);
      setState(wasRunning ? { cancelling: true } : { cancelling: false, error: t('toolCard.noRunningCall') });
    } catch (error) {
      setState({ cancelling: false, error: describeError(error).message });
    }
  };
  const cancelCall = useApp((s) => s.cancelToolCall);
  return (
    <div className="card-body tool-running">
      <CallProgress callId={part.callId} />
      <button type="button" className="btn btn-small" data-testid="tool-cancel" disabled={state.cancelling} onClick={() => void cancel()}>
        {state.cancelling ? t('call.cancelling') : t('common.cancel')}
      </button>
      {state.error && <span className="call-error">{state.error}</span>}
    </div>
  );
}

/** A tool call the model made: what it asks to run, the user's decision, and the result. */
export function ToolCard({ part, live }: { part: ToolPart; live: boolean }) {
  const approve = useApp((s) => s.approve);
  const t = useT();
  if (part.search) return <ToolSearchCard part={part} search={part.search} />;
  const waiting = part.status === 'awaiting-approval' && live;
  const state =
    part.status === 'done' ? 'ok' : part.status === 'running' || waiting ? 'pending' : part.status === 'awaiting-approval' ? 'cancelled' : part.status;
  return (
    <article
      className={`card call call-${state} tool-card${waiting ? ' needs-approval' : ''}`}
      data-testid={waiting ? 'approval-card' : 'tool-card'}
      data-status={part.status}
      data-server={part.server}
      data-tool={part.tool}
      aria-busy={part.status === 'running'}
    >
      <header className="card-head">
        <CardTitle server={part.server} tool={part.tool}>
          {part.readOnly && <span className="tag">{t('toolCard.readOnly')}</span>}
        </CardTitle>
        <span className={`pill pill-${state}`} data-testid="tool-status">
          {t(`toolCard.status.${part.status}`)}
        </span>
        {part.durationMs !== undefined && (
          <span className="muted duration">
            {part.durationMs < 1000
              ? `${formatCount(part.durationMs)} ms`
              : `${formatCount(part.durationMs / 1000, { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s`}
          </span>
        )}
      </header>
      {part.status === 'running' && live && <RunningBody part={part} />}
      {/* What the server asks of the person while this call runs (sampling, a form, a link). */}
      <CallRequests callId={part.callId} />
      <div className="card-body tool-args">
        <JsonTree value={part.args} openDepth={2} />
      </div>
      {waiting && (
        <div className="card-body approval" role="group" aria-label={t('toolCard.runOn', { tool: part.tool, server: part.server })}>
          <span>
            <Trans i18nKey="toolCard.wantsToRun" values={{ tool: part.tool, server: part.server }} components={{ strong: <strong /> }} />
          </span>
          <ToolTrustNote server={part.server} tool={part.tool} />
          <div className="approval-buttons">
            <button type="button" className="btn btn-primary btn-small" data-testid="approve-once" onClick={() => void approve(part.callId, 'once')}>
              {t('toolCard.allowOnce')}
            </button>
            <button type="button" className="btn btn-small" data-testid="approve-always" onClick={() => void approve(part.callId, 'always')}>
              {t('toolCard.alwaysAllow')}
            </button>
            <button type="button" className="btn btn-small btn-danger" data-testid="approve-deny" onClick={() => void approve(part.callId, 'deny')}>
              {t('toolCard.deny')}
            </button>
          </div>
        </div>
      )}
      {part.decision && !waiting && <div className="card-body muted decision">{t(`toolCard.decision.${part.decision}`)}</div>}
      {part.error && (
        <div className="card-body call-error" data-testid="tool-error">
          <p>{part.error}</p>
        </div>
      )}
      {/* Once it runs (not while it waits for approval, nor when denied). */}
      {part.status !== 'awaiting-approval' && part.status !== 'denied' && (
        <AppSlot
          server={part.server}
          tool={part.tool}
          args={part.args}
          result={part.result}
          callId={part.callId}
          {...(part.status === 'cancelled' || (part.status === 'error' && !part.result)
            ? { cancelled: part.error ?? t(`toolCard.status.${part.status}`) }
            : {})}
        />
      )}
      {part.result && (
        <div className={`card-body${part.result.isError === true ? ' call-error' : ''}`} data-testid="tool-result">
          {part.result.isError === true && <span className="error-code">{t('call.toolError')}</span>}
          <ResultContent result={part.result} server={part.server} />
        </div>
      )}
    </article>
  );
}
