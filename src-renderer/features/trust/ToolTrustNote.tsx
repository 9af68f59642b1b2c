import { useApp } from '../../store/useApp';
import { HiddenTextList } from './HiddenTextList';
import { TrustBadge } from './TrustBadge';
import './trust.css';

/**
 * In a chat approval card: the tool's review state and its hidden text decoded, looked up in the servers list (a
 * tool that needs review is never offered to the model, so here it is mostly accepted hidden text).
 */
export function ToolTrustNote({ server, tool }: { server: string; tool: string }) {
  const info = useApp((s) => s.servers.find((v) => v.name === server)?.tools.find((t) => t.name === tool));
  const review = info?.review;
  if (!info || !review || (review.state === 'trusted' && !review.hidden?.length)) return null;
  return (
    <div className="card-body tool-review-note" data-testid="approval-trust-note">
      <TrustBadge tool={info} />
      {review.hidden && <HiddenTextList findings={review.hidden} />}
    </div>
  );
}
