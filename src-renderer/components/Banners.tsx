import { useApp } from '../hooks/useApp';

export function Banners() {
  const configError = useApp((s) => s.appInfo?.configError);
  const problem = useApp((s) => s.appInfo?.configProblem);
  const disconnectReason = useApp((s) => s.disconnectReason);
  const reconnecting = useApp((s) => s.reconnecting);
  const openEditorAt = useApp((s) => s.openEditorAt);
  return (
    <>
      {disconnectReason !== undefined && (
        <div className="banner banner-error" role="alert" data-testid="disconnected-banner">
          <strong>Disconnected from host.</strong> <span>{disconnectReason}</span>
          {reconnecting && <span className="muted"> Reconnecting…</span>}
        </div>
      )}
      {configError && (
        <div className="banner banner-warning" role="alert" data-testid="config-error-banner">
          <strong>The servers config has a problem.</strong>{' '}
          {problem && (
            <span className="chip" data-testid="config-error-location" title={problem.file}>
              line {problem.line}, column {problem.column}
            </span>
          )}{' '}
          <span data-testid="config-error">{configError.message}</span>
          <span className="muted"> Switchboard keeps using the last good config until the file is fixed.</span>
          {problem && (
            <>
              {' '}
              <button
                type="button"
                className="btn btn-small"
                data-testid="config-error-open-editor"
                onClick={() => openEditorAt(problem.line, problem.column)}
              >
                Open in editor at line {problem.line}
              </button>
            </>
          )}
        </div>
      )}
    </>
  );
}
