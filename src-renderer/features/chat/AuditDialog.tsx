import type { AuditEntry } from '../../../src-shared/contract/chat';
import { useApp } from '../../store/useApp';
import { Trans } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Dialog } from '../../ui/Dialog';
import { formatCount, formatWhen, useT } from '../../i18n';

/** Every approval decision and tool call (the model's and direct ones), newest first. */
export function AuditDialog() {
  const audit = useApp((s) => s.audit);
  const close = useApp((s) => s.setChatDialog);
  const reload = useApp((s) => s.loadAudit);
  const t = useT();
  return (
    <Dialog title={t('audit.title')} onClose={() => close(undefined)} testId="audit-dialog" wide closeOnBackdrop>
      <p className="muted">
        <Trans i18nKey="audit.intro" components={{ code: <code /> }} />{' '}
        <button type="button" className="btn btn-small" onClick={() => void reload()}>
          {t('common.refresh')}
        </button>
      </p>
      {audit === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : audit.length === 0 ? (
        <p className="muted">{t('common.nothingYet')}</p>
      ) : (
        <table className="audit-table">
          <thead>
            <tr>
              <th>{t('audit.when')}</th>
              <th>{t('audit.from')}</th>
              <th>{t('audit.tool')}</th>
              <th>{t('audit.what')}</th>
              <th>{t('audit.detail')}</th>
            </tr>
          </thead>
          <tbody>
            {audit.map((a, i) => (
              <tr key={`${a.at}-${i}`} data-testid="audit-row" data-kind={a.kind} data-direct={a.direct === true ? 'true' : undefined}>
                <td>{formatWhen(a.at)}</td>
                <td>{a.direct === true ? t('audit.direct', { source: a.source }) : a.source}</td>
                <td>
                  <code>{a.tool !== undefined ? `${a.server}/${a.tool}` : a.server}</code>
                </td>
                <td>{what(t, a)}</td>
                <td className="audit-detail">
                  <code>{a.detail ?? a.args ?? samplingSummary(t, a)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}

function what(t: TFunction, a: AuditEntry): string {
  if (a.kind === 'decision') return a.decision ?? a.outcome ?? '';
  if (a.kind === 'sampling') return t('audit.sampling', { decision: a.sampling?.decision ?? '' });
  return `${a.outcome ?? ''}${a.durationMs !== undefined ? t('audit.durationMs', { ms: formatCount(a.durationMs) }) : ''}`;
}

function samplingSummary(t: TFunction, a: AuditEntry): string | undefined {
  const s = a.sampling;
  if (!s) return undefined;
  const result = s.resultChars !== undefined ? t('audit.resultChars', { chars: formatCount(s.resultChars) }) : '';
  const summary = t('audit.samplingSummary', { model: s.model ?? t('audit.noModel'), count: s.messages, chars: formatCount(s.promptChars) });
  return `${summary}${result}${s.edited ? t('audit.edited') : ''}`;
}
