import type { PendingRequestView } from '../../../src-shared/host-api';
import { JsonTree } from '../../chat/JsonTree';
import { useApp } from '../../hooks/useApp';
import { RequestButtons, RequestFrame } from './RequestCard';

type ToolApprovalRequest = Extract<PendingRequestView, { kind: 'tool-approval' }>;

/** A tool approval that no chat run shows (the chat's own cards show those of its runs). */
export function ToolApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const answer = useApp((s) => s.answerRequest);
  const busy = useApp((s) => s.answering[request.id] === true);
  const { payload } = request;
  return (
    <RequestFrame request={request}>
      <div className="card-body">
        <p>
          Run <strong>{payload.title ?? payload.tool}</strong> on <strong>{request.server}</strong>
          {payload.readOnly && <span className="tag">read-only</span>} with these arguments?
        </p>
        <JsonTree value={payload.args} openDepth={2} />
      </div>
      <RequestButtons label={`Run ${payload.tool}?`}>
        <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => void answer(request.id, { action: 'accept', content: {} })}>
          Allow once
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void answer(request.id, { action: 'accept', content: { always: true } })}>
          Always allow this tool
        </button>
        <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void answer(request.id, { action: 'decline', reason: 'denied by the user' })}>
          Deny
        </button>
      </RequestButtons>
    </RequestFrame>
  );
}
