import type { PendingRequestView } from '../../../src-shared/host-api';
import { JsonTree } from '../../ui/JsonTree';
import { RequestButtons, RequestFrame, useAnswering } from './RequestFrame';
import { ownReasons } from './request-text';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

type ToolApprovalRequest = Extract<PendingRequestView, { kind: 'tool-approval' }>;

/** A tool approval that no chat run shows (the chat's own cards show those of its runs). */
export function ToolApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const t = useT();
  const { answer, busy } = useAnswering(request.id);
  const { payload } = request;
  return (
    <RequestFrame request={request}>
      <div className="card-body">
        <p>
          <Trans i18nKey="requestCards.runOn" values={{ tool: payload.title ?? payload.tool, server: request.server }} components={{ strong: <strong /> }} />
          {payload.readOnly && <span className="tag">{t('toolCard.readOnly')}</span>}
          {t('requestCards.withArgs')}
        </p>
        <JsonTree value={payload.args} openDepth={2} />
      </div>
      <RequestButtons label={t('requestCards.runQ', { tool: payload.tool })}>
        <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => void answer(request.id, { action: 'accept', content: {} })}>
          {t('toolCard.allowOnce')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() => void answer(request.id, { action: 'accept', content: { always: true } })}
        >
          {t('toolCard.alwaysAllow')}
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={busy}
          onClick={() => void answer(request.id, { action: 'decline', reason: ownReasons.denied })}
        >
          {t('toolCard.deny')}
        </button>
      </RequestButtons>
    </RequestFrame>
  );
}
