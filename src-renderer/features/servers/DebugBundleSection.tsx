import { useApp } from '../../hooks/useApp';

/** Settings: one debug bundle of every server (config with values redacted, versions, launch info, stderr tails, traces). */
export function DebugBundleSection() {
  const bundle = useApp((s) => s.bundle);
  const exportBundle = useApp((s) => s.exportDebugBundle);
  return (
    <section className="settings-section" aria-labelledby="settings-debug">
      <h2 id="settings-debug">Debug bundle</h2>
      <p className="muted">
        For a bug report: a JSON file with the config (values redacted), versions, how each server was launched, the end of its stderr and its protocol trace.
        Secrets are not included.
      </p>
      <button type="button" className="btn btn-small" data-testid="debug-bundle-all" disabled={bundle?.state === 'loading'} onClick={() => void exportBundle()}>
        {bundle?.state === 'loading' ? 'Exporting…' : 'Export debug bundle'}
      </button>
      {bundle?.state === 'ok' && (
        <p role="status" data-testid="debug-bundle-all-path">
          Written ({Math.round(bundle.value.bytes / 1024)} KB): <code>{bundle.value.path}</code>
        </p>
      )}
      {bundle?.state === 'error' && (
        <p className="form-error" role="alert">
          Could not export it: {bundle.message}
        </p>
      )}
    </section>
  );
}
