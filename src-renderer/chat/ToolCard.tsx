import { useState } from 'react';
import type { ToolPart } from '../../src-shared/chat-types';
import { CallProgress } from '../components/CallProgress';
import { describeError } from '../host-client';
import { ResultContent } from '../components/ResultContent';
import { useApp } from '../hooks/useApp';
import { JsonTree } from './JsonTree';
import { CardTitle } from '../components/CardTitle';
import { CallRequests } from '../features/requests/RequestsPanel';
import { ToolTrustNote } from '../features/trust/ToolTrustNote';

const statusLabel: Record<ToolPart['status'], string> = {
  'awaiting-approval': 'Needs approval',
  running: 'Running…',
  done: 'Done',
  error: 'Error',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

const decisionLabel: Record<NonNullable<ToolPart['decision']>, string> = {
  'allow-once': 'allowed once',
  'always-allow': 'always allowed (from now on)',
  'auto-always': 'always allowed',
  'auto-readonly': 'auto-allowed (read-only)',
  'auto-all': 'auto-allowed (all)',
  deny: 'denied by you',
  'auto-deny': 'denied (tools are off)',
};

/** Progress, a timer and Cancel while the model's call runs (Cancel sends `tools:cancel` with the call's id). */
function RunningBody({ part }: { part: ToolPart }) {
  const [state, setState] = useState<{ cancelling: boolean; error?: string }>({ cancelling: false });
  const cancel = async (): Promise<void> => {
    setState({ cancelling: true });
    try {
      const wasRunning = await cancelCall(part.callId);
      setState(wasRunning ? { cancelling: true } : { cancelling: false, error: 'The host has no running call with that id (it may have just ended); Stop ends the whole turn.' });
    } catch (error) {
      setState({ cancelling: false, error: describeError(error).message });
    }
  };
  const cancelCall = useApp((s) => s.cancelToolCall);
  return (
    <div className="card-body tool-running">
      <CallProgress callId={part.callId} />
      <button type="button" className="btn btn-small" data-testid="tool-cancel" disabled={state.cancelling} onClick={() => void cancel()}>
        {state.cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
      {state.error && <span className="call-error">{state.error}</span>}
    </div>
  );
}

/** A tool call the model made: what it asks to run, the user's decision, and the result. */
export function ToolCard({ part, live }: { part: ToolPart; live: boolean }) {
  const approve = useApp((s) => s.approve);
  const waiting = part.status === 'awaiting-approval' && live;
  const state = part.status === 'done' ? 'ok' : part.status === 'running' || waiting ? 'pending' : part.status === 'awaiting-approval' ? 'cancelled' : part.status;
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
          {part.readOnly && <span className="tag">read-only</span>}
        </CardTitle>
        <span className={`pill pill-${state}`} data-testid="tool-status">
          {statusLabel[part.status]}
        </span>
        {part.durationMs !== undefined && <span className="muted duration">{part.durationMs < 1000 ? `${part.durationMs} ms` : `${(part.durationMs / 1000).toFixed(1)} s`}</span>}
      </header>
      {part.status === 'running' && live && <RunningBody part={part} />}
      {/* What the server asks of the person while this call runs (sampling, a form, a link). */}
      <CallRequests callId={part.callId} />
      <div className="card-body tool-args">
        <JsonTree value={part.args} openDepth={2} />
      </div>
      {waiting && (
        <div className="card-body approval" role="group" aria-label={`Run ${part.tool} on ${part.server}?`}>
          <span>
            The model wants to run <strong>{part.tool}</strong> on <strong>{part.server}</strong> with these arguments.
          </span>
          <ToolTrustNote server={part.server} tool={part.tool} />
          <div className="approval-buttons">
            <button type="button" className="btn btn-primary btn-small" data-testid="approve-once" onClick={() => void approve(part.callId, 'once')}>
              Allow once
            </button>
            <button type="button" className="btn btn-small" data-testid="approve-always" onClick={() => void approve(part.callId, 'always')}>
              Always allow this tool
            </button>
            <button type="button" className="btn btn-small btn-danger" data-testid="approve-deny" onClick={() => void approve(part.callId, 'deny')}>
              Deny
            </button>
          </div>
        </div>
      )}
      {part.decision && !waiting && <div className="card-body muted decision">{decisionLabel[part.decision]}</div>}
      {part.error && (
        <div className="card-body call-error" data-testid="tool-error">
          <p>{part.error}</p>
        </div>
      )}
      {part.result && (
        <div className={`card-body${part.result.isError === true ? ' call-error' : ''}`} data-testid="tool-result">
          {part.result.isError === true && <span className="error-code">tool error</span>}
          <ResultContent result={part.result} server={part.server} />
        </div>
      )}
    </article>
  );
}
