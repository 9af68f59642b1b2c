import type { PendingRequestView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import type { SettledRequest } from '../../store/requests-slice';
import { ElicitationFormCard } from './ElicitationFormCard';
import { ElicitationUrlCard } from './ElicitationUrlCard';
import { isHttps, requestNoun, settledText } from './request-text';
import { TitleText } from './RequestFrame';
import { SamplingCard, SamplingResultCard } from './SamplingCard';
import { ToolApprovalCard } from './ToolApprovalCard';
import { useT } from '../../i18n';

/** One pending request, by kind. */
export function RequestCard({ request }: { request: PendingRequestView }) {
  switch (request.kind) {
    case 'sampling':
      return <SamplingCard request={request} />;
    case 'sampling-result':
      return <SamplingResultCard request={request} />;
    case 'elicitation-form':
      return <ElicitationFormCard request={request} />;
    case 'elicitation-url':
      return <ElicitationUrlCard request={request} />;
    case 'tool-approval':
      return <ToolApprovalCard request={request} />;
  }
}

/** A request that ended: how ("timed out after …", "declined: …"), and a link the host could not open itself. */
export function SettledCard({ entry }: { entry: SettledRequest }) {
  const t = useT();
  const dismiss = useApp((s) => s.dismissSettled);
  const { settled, view, link, followUp } = entry;
  const failed = settled.outcome === 'timed-out' || settled.outcome === 'cancelled' || followUp?.stage === 'failed' || followUp?.stage === 'cancelled';
  return (
    <div
      className={`card request-settled${failed ? ' request-failed' : ''}`}
      data-testid="request-settled"
      data-kind={settled.kind}
      data-outcome={settled.outcome}
      data-stage={followUp?.stage}
      data-request-id={settled.id}
      role="status"
    >
      <span className="tag">{requestNoun(settled.kind)}</span> <TitleText view={view} />
      {t('forms.afterTitle')}
      <span data-testid="request-settled-text">{settledText(settled, followUp)}</span>
      {link && isHttps(link) && (
        <p className="request-link">
          {t('requestCards.openYourself')}{' '}
          <a href={link} target="_blank" rel="noopener noreferrer" data-testid="request-link">
            {link}
          </a>
        </p>
      )}
      <button
        type="button"
        className="btn btn-small request-dismiss"
        aria-label={t('requestCards.dismissLabel', { server: settled.server })}
        onClick={() => dismiss(settled.id)}
      >
        {t('requestCards.dismiss')}
      </button>
    </div>
  );
}
