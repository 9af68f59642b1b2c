import { useApp } from '../../store/useApp';
import { Trans } from 'react-i18next';
import { formatCount, useT } from '../../i18n';

/** Settings: one debug bundle of every server (config with values redacted, versions, launch info, stderr tails, traces). */
export function DebugBundleSection() {
  const bundle = useApp((s) => s.bundle);
  const exportBundle = useApp((s) => s.exportDebugBundle);
  const t = useT();
  return (
    <section className="settings-section" aria-labelledby="settings-debug">
      <h2 id="settings-debug">{t('debugBundle.heading')}</h2>
      <p className="muted">{t('debugBundle.intro')}</p>
      <button type="button" className="btn btn-small" data-testid="debug-bundle-all" disabled={bundle?.state === 'loading'} onClick={() => void exportBundle()}>
        {bundle?.state === 'loading' ? t('debugBundle.exporting') : t('debugBundle.export')}
      </button>
      {bundle?.state === 'ok' && (
        <p role="status" data-testid="debug-bundle-all-path">
          <Trans
            i18nKey="debugBundle.written"
            values={{ size: formatCount(Math.round(bundle.value.bytes / 1024)), path: bundle.value.path }}
            components={{ code: <code /> }}
          />
        </p>
      )}
      {bundle?.state === 'error' && (
        <p className="form-error" role="alert">
          {t('debugBundle.failed', { error: bundle.message })}
        </p>
      )}
    </section>
  );
}
