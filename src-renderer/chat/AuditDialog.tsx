import { useApp } from '../hooks/useApp';
import { Dialog } from './Dialog';

/** Every approval decision and tool call the model made, newest first. */
export function AuditDialog() {
  const audit = useApp((s) => s.audit);
  const close = useApp((s) => s.setChatDialog);
  const reload = useApp((s) => s.loadAudit);
  return (
    <Dialog title="Audit log" onClose={() => close(undefined)} testId="audit-dialog">
      <p className="muted">
        Each decision (allowed, denied, and how) and each call the model made, with its outcome. Kept in <code>audit.jsonl</code> in the data folder.{' '}
        <button type="button" className="btn btn-small" onClick={() => void reload()}>
          Refresh
        </button>
      </p>
      {audit === undefined ? (
        <p className="muted">Loading…</p>
      ) : audit.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <table className="audit-table">
          <thead>
            <tr>
              <th>When</th>
              <th>From</th>
              <th>Tool</th>
              <th>What</th>
              <th>Arguments / detail</th>
            </tr>
          </thead>
          <tbody>
            {audit.map((a, i) => (
              <tr key={`${a.at}-${i}`} data-testid="audit-row" data-kind={a.kind}>
                <td>{new Date(a.at).toLocaleString()}</td>
                <td>{a.source}</td>
                <td>
                  <code>
                    {a.server}/{a.tool}
                  </code>
                </td>
                <td>{a.kind === 'decision' ? (a.decision ?? a.outcome) : `${a.outcome ?? ''}${a.durationMs !== undefined ? ` · ${a.durationMs} ms` : ''}`}</td>
                <td className="audit-detail">
                  <code>{a.detail ?? a.args}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
