import type { ToolInfo } from '../../../src-shared/host-api';
import './trust.css';

const labels = { changed: 'changed — needs review', new: 'new — needs review', flagged: 'hidden text — needs review' } as const;
const titles = {
  changed: 'Its definition (or its server’s instructions) changed since you trusted it. It is not offered to the model and cannot run until you accept it.',
  new: 'It appeared after this server’s tools were trusted. It is not offered to the model and cannot run until you accept it.',
  flagged: 'Its definition hides text (invisible or deceptive characters, or a very long description). It is not offered to the model and cannot run until you accept it.',
} as const;

/** Whether the tool waits for a person's review. */
export const needsReview = (tool: ToolInfo): boolean => tool.review !== undefined && tool.review.state !== 'trusted';

/** A tool's review state as a badge: needs review (changed / new / hidden text), or a quieter note for accepted hidden text. */
export function TrustBadge({ tool }: { tool: ToolInfo }) {
  const review = tool.review;
  if (!review) return null;
  if (review.state === 'trusted') {
    if (!review.hidden?.length) return null;
    return (
      <span className="tag trust-badge trust-hidden" data-testid="review-badge" data-state="trusted" title="Trusted, but its definition contains hidden text (shown decoded in its details)">
        hidden text
      </span>
    );
  }
  return (
    <span className="tag trust-badge trust-needs-review" data-testid="review-badge" data-state={review.state} title={titles[review.state]}>
      {labels[review.state]}
    </span>
  );
}
