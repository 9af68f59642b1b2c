import type { HiddenTextFinding } from '../../../src-shared/host-api';
import { Trans } from 'react-i18next';
import { revealHidden } from '../../../src-shared/hidden-text';
import { useT } from '../../i18n';

/** Where a tool's definition hides text, with the text decoded: invisible characters spelled out, tags and variation selectors translated. */
export function HiddenTextList({ findings }: { findings: readonly HiddenTextFinding[] }) {
  const t = useT();
  if (findings.length === 0) return null;
  return (
    <div className="hidden-text" data-testid="hidden-text" role="note">
      <h4>{t('trust.hiddenHeading')}</h4>
      <ul>
        {findings.map((f) => (
          <li key={f.where} data-testid="hidden-finding" data-where={f.where}>
            <div className="hidden-where">
              <span className="mono">{f.where}</span> — {f.kinds.map((k) => t(`trust.kind.${k}`)).join(', ')}
              {t('trust.count', { count: f.count })}
            </div>
            {f.tagText !== undefined && (
              <div className="hidden-tags">
                <Trans i18nKey="trust.tagSpell" values={{ text: f.tagText }} components={{ code: <code data-testid="hidden-tag-text" /> }} />
              </div>
            )}
            {f.selectorText !== undefined && (
              <div className="hidden-tags">
                <Trans
                  i18nKey="trust.selectorSpell"
                  values={{ text: revealHidden(f.selectorText) }}
                  components={{ code: <code data-testid="hidden-selector-text" /> }}
                />
              </div>
            )}
            <pre className="hidden-decoded" data-testid="hidden-decoded">
              {f.decoded.length > 4000 ? `${f.decoded.slice(0, 4000)}…` : f.decoded}
            </pre>
          </li>
        ))}
      </ul>
    </div>
  );
}
