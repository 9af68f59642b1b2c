import { useApp } from '../store/useApp';
import { errorText, reasonText, useT } from '../i18n';

export function Banners() {
  const configError = useApp((s) => s.appInfo?.configError);
  const problem = useApp((s) => s.appInfo?.configProblem);
  const disconnectReason = useApp((s) => s.disconnectReason);
  const disconnectWhy = useApp((s) => s.disconnectWhy);
  const reconnecting = useApp((s) => s.reconnecting);
  const openEditorAt = useApp((s) => s.openEditorAt);
  const t = useT();
  return (
    <>
      {disconnectReason !== undefined && (
        <div className="banner banner-error" role="alert" data-testid="disconnected-banner">
          <strong>{t('banners.disconnected')}</strong> <span>{reasonText(disconnectReason, disconnectWhy)}</span>
          {reconnecting && <span className="muted"> {t('banners.reconnecting')}</span>}
        </div>
      )}
      {configError && (
        <div className="banner banner-warning" role="alert" data-testid="config-error-banner">
          <strong>{t('banners.configProblem')}</strong>{' '}
          {problem && (
            <span className="chip" data-testid="config-error-location" title={problem.file}>
              {t('banners.location', { line: problem.line, column: problem.column })}
            </span>
          )}{' '}
          <span data-testid="config-error">{errorText(configError)}</span>
          <span className="muted"> {t('banners.keepsLastGood')}</span>
          {problem && (
            <>
              {' '}
              <button type="button" className="btn btn-small" data-testid="config-error-open-editor" onClick={() => openEditorAt(problem.line, problem.column)}>
                {t('banners.openInEditor', { line: problem.line })}
              </button>
            </>
          )}
        </div>
      )}
    </>
  );
}
