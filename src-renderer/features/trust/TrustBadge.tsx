import type { ToolInfo } from '../../../src-shared/host-api';
import './trust.css';
import { useT } from '../../i18n';

/** Whether the tool waits for a person's review. */
export const needsReview = (tool: ToolInfo): boolean => tool.review !== undefined && tool.review.state !== 'trusted';

/** A tool's review state as a badge: needs review (changed / new / hidden text), or a quieter note for accepted hidden text. */
export function TrustBadge({ tool }: { tool: ToolInfo }) {
  const t = useT();
  const review = tool.review;
  if (!review) return null;
  if (review.state === 'trusted') {
    if (!review.hidden?.length) return null;
    return (
      <span className="tag trust-badge trust-hidden" data-testid="review-badge" data-state="trusted" title={t('trust.trustedHiddenTitle')}>
        {t('trust.hiddenText')}
      </span>
    );
  }
  return (
    <span className="tag trust-badge trust-needs-review" data-testid="review-badge" data-state={review.state} title={t(`trust.title.${review.state}`)}>
      {t(`trust.label.${review.state}`)}
    </span>
  );
}
