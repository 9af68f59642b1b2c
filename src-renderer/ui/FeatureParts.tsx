import type { ReactNode } from 'react';

/** A failure shown above a feature's list or detail (`server-error`, announced as an alert). */
export function ErrorNote({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="server-error" role="alert" data-testid={testId}>
      {children}
    </p>
  );
}

/** The ↻ button of a feature list's toolbar. */
export function ReloadButton({ label, title, onClick }: { label: string; title: string; onClick(): void }) {
  return (
    <button type="button" className="btn btn-small btn-ghost" aria-label={label} title={title} onClick={onClick}>
      ↻
    </button>
  );
}

export interface DetailHeadProps {
  /** The heading (absent: none, just the id). */
  title?: string | undefined;
  /** What names it on the wire (a tool or prompt name, a URI or URI template), in code. */
  id: string;
  /** A tooltip on the id (a long URI in full). */
  idTitle?: string | undefined;
  /** Buttons and marks at the right (`detail-actions`). */
  actions?: ReactNode;
}

/** The head of a feature's detail pane: its title over its id, actions beside. */
export function DetailHead({ title, id, idTitle, actions }: DetailHeadProps) {
  return (
    <header className="detail-head">
      <div className="detail-title">
        {title !== undefined && <h3>{title}</h3>}
        <code className="resource-uri" title={idTitle}>
          {id}
        </code>
      </div>
      {actions !== undefined && <div className="detail-actions">{actions}</div>}
    </header>
  );
}
