import { useEffect, type ReactNode } from 'react';

export function Dialog({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId?: string }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="chat-dialog-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="chat-dialog" role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <header className="chat-dialog-head">
          <h2>{title}</h2>
          <button type="button" className="btn btn-small" data-testid="dialog-close" onClick={onClose}>
            Close
          </button>
        </header>
        <div className="chat-dialog-body">{children}</div>
      </div>
    </div>
  );
}
