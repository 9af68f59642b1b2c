import type { ToolInfo } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { ErrorNote } from '../../ui/FeatureParts';
import { trustKey } from '../../store/trust-slice';
import { HiddenTextList } from './HiddenTextList';
import { changedFieldTexts, sideBySide } from './side-by-side';
import { needsReview } from './TrustBadge';
import './trust.css';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

/** One changed field: the pinned text on the left, the current one on the right, line by line. */
function FieldDiff({ field, before, after }: { field: string; before: string; after: string }) {
  const t = useT();
  const rows = sideBySide(before, after);
  return (
    <div className="trust-diff" data-testid="trust-diff" data-field={field}>
      <div className="trust-diff-field mono">{field}</div>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('trust.trusted')}</th>
            <th scope="col">{t('trust.now')}</th>
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
  const t = useT();
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
  const state = review.state as 'changed' | 'new' | 'flagged';
  if (kept) {
    return (
      <div className="trust-review trust-kept" data-testid="trust-review" data-state={state} data-kept="true">
        <p>
          <Trans i18nKey="trust.kept" values={{ tool: tool.name }} components={{ code: <span className="mono" /> }} />{' '}
          <button type="button" className="btn btn-small" data-testid="trust-review-again" onClick={() => reviewAgain(server, tool.name)}>
            {t('trust.reviewAgain')}
          </button>
        </p>
      </div>
    );
  }
  return (
    <section className="trust-review" data-testid="trust-review" data-state={state} aria-label={t('trust.reviewLabel', { tool: tool.name })}>
      <p className="trust-intro">
        <Trans i18nKey={`trust.intro.${state}`} values={{ tool: tool.name }} components={{ strong: <strong className="mono" /> }} />
      </p>
      {changedFieldTexts(tool, instructions, t('diagnostics.trust.none')).map((f) => (
        <FieldDiff key={f.field} {...f} />
      ))}
      {review.hidden && <HiddenTextList findings={review.hidden} />}
      {error && <ErrorNote testId="trust-error">{error}</ErrorNote>}
      <div className="trust-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="trust-accept"
          disabled={trusting}
          onClick={() => void accept(server, [tool.name])}
        >
          {trusting ? t('trust.accepting') : t('trust.accept')}
        </button>
        <button type="button" className="btn btn-small" data-testid="trust-keep-disabled" disabled={trusting} onClick={() => keepDisabled(server, tool.name)}>
          {t('trust.keepDisabled')}
        </button>
      </div>
    </section>
  );
}
