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
