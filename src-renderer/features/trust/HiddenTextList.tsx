import type { HiddenTextFinding } from '../../../src-shared/host-api';

const kindText = { 'zero-width': 'zero-width characters', bidi: 'bidi controls', tag: 'Unicode tag characters', 'variation-selector': 'variation selectors', long: 'very long' } as const;

/** Where a tool's definition hides text, with the text decoded: invisible characters spelled out, tag characters translated. */
export function HiddenTextList({ findings }: { findings: readonly HiddenTextFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <div className="hidden-text" data-testid="hidden-text" role="note">
      <h4>Hidden text</h4>
      <ul>
        {findings.map((f) => (
          <li key={f.where} data-testid="hidden-finding" data-where={f.where}>
            <div className="hidden-where">
              <span className="mono">{f.where}</span> — {f.kinds.map((k) => kindText[k]).join(', ')}
              {f.kinds.includes('long') ? ` (${f.count} characters)` : ` (${f.count})`}
            </div>
            {f.tagText !== undefined && (
              <div className="hidden-tags">
                Tag characters spell: <code data-testid="hidden-tag-text">{f.tagText}</code>
              </div>
            )}
            <pre className="hidden-decoded" data-testid="hidden-decoded">
              {f.kinds.includes('long') && f.decoded.length > 4000 ? `${f.decoded.slice(0, 4000)}…` : f.decoded}
            </pre>
          </li>
        ))}
      </ul>
    </div>
  );
}
