import type { AuditEntry } from '../../src-shared/chat-types';
import { useApp } from '../hooks/useApp';
import { Dialog } from '../ui/Dialog';

/** Every approval decision and tool call (the model's and direct ones), newest first. */
export function AuditDialog() {
  const audit = useApp((s) => s.audit);
  const close = useApp((s) => s.setChatDialog);
  const reload = useApp((s) => s.loadAudit);
  return (
    <Dialog title="Audit log" onClose={() => close(undefined)} testId="audit-dialog" wide closeOnBackdrop>
      <p className="muted">
        Each decision (allowed, denied, and how) and each tool call — the model’s, and the ones you made directly with /tool or a form — with its outcome, and each sampling request a server made (sizes only). Kept in <code>audit.jsonl</code> in the data folder.{' '}
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
              <tr key={`${a.at}-${i}`} data-testid="audit-row" data-kind={a.kind} data-direct={a.direct === true ? 'true' : undefined}>
                <td>{new Date(a.at).toLocaleString()}</td>
                <td>{a.direct === true ? `you (direct, ${a.source})` : a.source}</td>
                <td>
                  <code>{a.tool !== undefined ? `${a.server}/${a.tool}` : a.server}</code>
                </td>
                <td>{what(a)}</td>
                <td className="audit-detail">
                  <code>{a.detail ?? a.args ?? samplingSummary(a)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}

function what(a: AuditEntry): string {
  if (a.kind === 'decision') return a.decision ?? a.outcome ?? '';
  if (a.kind === 'sampling') return `sampling ${a.sampling?.decision ?? ''}`;
  return `${a.outcome ?? ''}${a.durationMs !== undefined ? ` · ${a.durationMs} ms` : ''}`;
}

function samplingSummary(a: AuditEntry): string | undefined {
  const s = a.sampling;
  if (!s) return undefined;
  const result = s.resultChars !== undefined ? ` → ${s.resultChars} characters` : '';
  return `${s.model ?? 'no model'} · ${s.messages} message(s), ${s.promptChars} characters${result}${s.edited ? ' · edited' : ''}`;
}
