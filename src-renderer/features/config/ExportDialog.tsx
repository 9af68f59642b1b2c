import { useEffect, useState } from 'react';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { Dialog } from '../../ui/Dialog';
import { useClipboard } from '../../ui/useClipboard';
import { useT } from '../../i18n';
import './config.css';

/** Claude-compatible JSON for one server or all of them: shown, and copied on request. */
export function ExportDialog({ names, onClose }: { names: string[] | undefined; onClose(): void }) {
  const exportConfig = useApp((s) => s.exportConfig);
  const [text, setText] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const { copy, copied, failed } = useClipboard();
  const t = useT();
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

  const title = names === undefined ? t('exportDialog.all') : t('exportDialog.some', { names: names.join(', ') });
  return (
    <Dialog title={title} onClose={onClose} testId="export-dialog" wide>
      <p className="muted">{t('exportDialog.intro', { ref: '${secret:…}' })}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {text === undefined && !error && <p className="muted">{t('common.loading')}</p>}
      {text !== undefined && (
        <textarea
          className="export-text"
          data-testid="export-text"
          readOnly
          rows={Math.min(20, text.split('\n').length + 1)}
          value={text}
          onFocus={(e) => e.target.select()}
        />
      )}
      <div className="form-actions">
        {failed && <span className="form-error">{t('exportDialog.noClipboard')}</span>}
        <button type="button" className="btn" onClick={onClose}>
          {t('common.close')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="export-copy"
          disabled={text === undefined}
          onClick={() => text !== undefined && void copy(text)}
        >
          {copied ? t('common.copied') : t('exportDialog.copy')}
        </button>
      </div>
    </Dialog>
  );
}
