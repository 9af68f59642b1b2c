import { useEffect, useState } from 'react';
import { describeError } from '../host-client';
import { useApp } from '../hooks/useApp';
import { Dialog } from '../ui/Dialog';
import { useClipboard } from './useClipboard';

/** Claude-compatible JSON for one server or all of them: shown, and copied on request. */
export function ExportDialog({ names, onClose }: { names: string[] | undefined; onClose(): void }) {
  const exportConfig = useApp((s) => s.exportConfig);
  const [text, setText] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const { copy, copied, failed } = useClipboard();
  const key = names?.join('\u0000');
  useEffect(() => {
    let live = true;
    exportConfig(key === undefined ? undefined : key.split('\u0000')).then(
      (t) => live && setText(t),
      (e: unknown) => live && setError(describeError(e).message),
    );
    return () => {
      live = false;
    };
  }, [exportConfig, key]);

  const title = names === undefined ? 'Export all servers' : `Export ${names.join(', ')}`;
  return (
    <Dialog title={title} onClose={onClose} testId="export-dialog" wide>
      <p className="muted">Claude Desktop–compatible JSON: paste it into another MCP host's config. References such as {'${secret:…}'} are exported as written, never their values.</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {text === undefined && !error && <p className="muted">Loading…</p>}
      {text !== undefined && (
        <textarea className="export-text" data-testid="export-text" readOnly rows={Math.min(20, text.split('\n').length + 1)} value={text} onFocus={(e) => e.target.select()} />
      )}
      <div className="form-actions">
        {failed && <span className="form-error">The clipboard is not available here; select the text and copy it.</span>}
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
        <button type="button" className="btn btn-primary" data-testid="export-copy" disabled={text === undefined} onClick={() => text !== undefined && void copy(text)}>
          {copied ? 'Copied' : 'Copy to clipboard'}
        </button>
      </div>
    </Dialog>
  );
}
