import { newRowId, type Row } from './entry-form';
import { useT } from '../../i18n';

/** The server's roots: folders it may work in, one per row (paths relative to the config file's folder, or file:// URIs). */
export function RootsList({ rows, onChange, error, errorId }: { rows: Row[]; onChange(rows: Row[]): void; error?: string; errorId: string }) {
  const t = useT();
  return (
    <fieldset className="kv-table" data-testid="form-roots" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend>{t('kv.roots')}</legend>
      {rows.length === 0 && <p className="muted kv-empty">{t('kv.rootsNone')}</p>}
      {rows.map((row, index) => (
        <div className="kv-inputs" key={row.id} data-testid="root-row">
          <input
            type="text"
            aria-label={`Root ${index + 1}`}
            spellCheck={false}
            placeholder={t('kv.rootPlaceholder')}
            value={row.value}
            onChange={(e) => onChange(rows.map((r) => (r.id === row.id ? { ...r, value: e.target.value } : r)))}
          />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label={t('kv.removeRoot', { n: index + 1 })}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" data-testid="form-roots-add" onClick={() => onChange([...rows, { id: newRowId(), value: '' }])}>
        {t('kv.addRoot')}
      </button>
      {error && (
        <p className="form-error" id={errorId} data-testid="form-error-roots">
          {error}
        </p>
      )}
    </fieldset>
  );
}
