import type { ToolInfo } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import { ErrorNote } from '../../ui/FeatureParts';
import { trustKey } from '../../store/trust-slice';
import { HiddenTextList } from './HiddenTextList';
import { changedFieldTexts, sideBySide } from './side-by-side';
import { needsReview } from './TrustBadge';
import './trust.css';

const intro = {
  changed: 'changed since you trusted it. Until you accept the new definition it is not offered to the model, and calls to it are refused.',
  new: 'appeared after this server’s tools were trusted. Until you accept it, it is not offered to the model, and calls to it are refused.',
  flagged: 'hides text in its definition. Until you accept it, it is not offered to the model, and calls to it are refused.',
} as const;

/** One changed field: the pinned text on the left, the current one on the right, line by line. */
function FieldDiff({ field, before, after }: { field: string; before: string; after: string }) {
  const rows = sideBySide(before, after);
  return (
    <div className="trust-diff" data-testid="trust-diff" data-field={field}>
      <div className="trust-diff-field mono">{field}</div>
      <table>
        <thead>
          <tr>
            <th scope="col">Trusted</th>
            <th scope="col">Now</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className={`diff-${row.kind}`}>
              <td data-testid="diff-left">{row.left ?? ''}</td>
              <td data-testid="diff-right">{row.right ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The review of a tool that changed, is new, or hides text: what changed side by side, the hidden text decoded,
 * and Accept (pin the definition as it is now) / Keep disabled (leave it out of use). A trusted tool with hidden text
 * shows only that text.
 */
export function ReviewPanel({ server, tool, instructions }: { server: string; tool: ToolInfo; instructions?: string | undefined }) {
  const key = trustKey(server, tool.name);
  const trusting = useApp((s) => s.trusting[key] === true);
  const error = useApp((s) => s.trustErrors[key]);
  const kept = useApp((s) => s.keptDisabled[key] === true);
  const accept = useApp((s) => s.acceptTools);
  const keepDisabled = useApp((s) => s.keepDisabled);
  const reviewAgain = useApp((s) => s.reviewAgain);
  const review = tool.review;
  if (!review) return null;
  if (!needsReview(tool)) return review.hidden?.length ? <HiddenTextList findings={review.hidden} /> : null;
  const state = review.state as keyof typeof intro;
  if (kept) {
    return (
      <div className="trust-review trust-kept" data-testid="trust-review" data-state={state} data-kept="true">
        <p>
          Kept disabled: <span className="mono">{tool.name}</span> is not offered to the model and cannot run.{' '}
          <button type="button" className="btn btn-small" data-testid="trust-review-again" onClick={() => reviewAgain(server, tool.name)}>
            Review…
          </button>
        </p>
      </div>
    );
  }
  return (
    <section className="trust-review" data-testid="trust-review" data-state={state} aria-label={`Review ${tool.name}`}>
      <p className="trust-intro">
        <strong className="mono">{tool.name}</strong> {intro[state]}
      </p>
      {changedFieldTexts(tool, instructions).map((f) => (
        <FieldDiff key={f.field} {...f} />
      ))}
      {review.hidden && <HiddenTextList findings={review.hidden} />}
      {error && <ErrorNote testId="trust-error">{error}</ErrorNote>}
      <div className="trust-actions">
        <button type="button" className="btn btn-primary btn-small" data-testid="trust-accept" disabled={trusting} onClick={() => void accept(server, [tool.name])}>
          {trusting ? 'Accepting…' : 'Accept'}
        </button>
        <button type="button" className="btn btn-small" data-testid="trust-keep-disabled" disabled={trusting} onClick={() => keepDisabled(server, tool.name)}>
          Keep disabled
        </button>
      </div>
    </section>
  );
}
