import { useState } from 'react';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { looksSecret, newRowId, secretNamePattern, secretReference, suggestSecretName, type KeyValueRow, type Row } from './entry-form';
import { useT } from '../../i18n';
import './config.css';

interface KeyValueTableProps {
  label: string;
  /** Singular noun for buttons: "variable", "header". */
  noun: string;
  rows: KeyValueRow[];
  onChange(rows: KeyValueRow[]): void;
  /** The server's name (for suggested secret names). */
  server: string;
  testId: string;
  error?: string;
}

/** Key/value rows (env, headers). A value that looks like a credential offers "Store as secret". */
export function KeyValueTable({ label, noun, rows, onChange, server, testId, error }: KeyValueTableProps) {
  const update = (id: number, patch: Partial<KeyValueRow>): void => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const t = useT();
  return (
    <fieldset className="kv-table" data-testid={testId}>
      <legend>{label}</legend>
      {rows.length === 0 && <p className="muted kv-empty">{t('kv.none')}</p>}
      {rows.map((row, index) => (
        <KeyValueRowView
          key={row.id}
          row={row}
          index={index}
          noun={noun}
          server={server}
          onChange={(patch) => update(row.id, patch)}
          onRemove={() => onChange(rows.filter((r) => r.id !== row.id))}
        />
      ))}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-small" data-testid={`${testId}-add`} onClick={() => onChange([...rows, { id: newRowId(), key: '', value: '' }])}>
        {t('kv.add', { noun })}
      </button>
    </fieldset>
  );
}

function KeyValueRowView({
  row,
  index,
  noun,
  server,
  onChange,
  onRemove,
}: {
  row: KeyValueRow;
  index: number;
  noun: string;
  server: string;
  onChange(patch: Partial<KeyValueRow>): void;
  onRemove(): void;
}) {
  const secretish = looksSecret(row.key, row.value);
  const [storing, setStoring] = useState<string | undefined>(undefined);
  const [storeError, setStoreError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const setSecret = useApp((s) => s.setSecret);
  const n = index + 1;
  const t = useT();

  const store = async (): Promise<void> => {
    if (storing === undefined) return;
    if (!secretNamePattern.test(storing)) {
      setStoreError(t('kv.badSecretName'));
      return;
    }
    setBusy(true);
    try {
      const { reference, secret } = secretReference(row.value, storing);
      await setSecret(storing, secret);
      onChange({ value: reference });
      setStoring(undefined);
      setStoreError(undefined);
    } catch (e) {
      setStoreError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="kv-row" data-testid="kv-row">
      <div className="kv-inputs">
        <input
          type="text"
          className="kv-key"
          aria-label={t('kv.rowName', { noun, n })}
          placeholder="NAME"
          spellCheck={false}
          value={row.key}
          onChange={(e) => onChange({ key: e.target.value })}
        />
        <input
          type={secretish ? 'password' : 'text'}
          className="kv-value"
          aria-label={t('kv.rowValue', { noun, n })}
          placeholder={t('kv.value')}
          spellCheck={false}
          autoComplete="off"
          value={row.value}
          onChange={(e) => onChange({ value: e.target.value })}
        />
        {secretish && storing === undefined && (
          <button type="button" className="btn btn-small" data-testid="store-as-secret" onClick={() => setStoring(suggestSecretName(server, row.key))}>
            {t('kv.storeAsSecret')}
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-small" aria-label={t('kv.remove', { noun, n })} onClick={onRemove}>
          ✕
        </button>
      </div>
      {storing !== undefined && (
        <div className="kv-secret">
          <label>
            <span className="muted">{t('kv.secretName')}</span>
            <input type="text" data-testid="secret-name-for-value" spellCheck={false} value={storing} onChange={(e) => setStoring(e.target.value)} />
          </label>
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void store()}>
            {t('kv.storeAndUse', { ref: '${secret:…}' })}
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setStoring(undefined)}>
            {t('common.cancel')}
          </button>
          {storeError && (
            <span className="form-error" role="alert">
              {storeError}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

/** One argument per row. */
export function ArgsList({ rows, onChange }: { rows: Row[]; onChange(rows: Row[]): void }) {
  const t = useT();
  return (
    <fieldset className="kv-table" data-testid="form-args">
      <legend>{t('kv.arguments')}</legend>
      {rows.length === 0 && <p className="muted kv-empty">{t('kv.none')}</p>}
      {rows.map((row, index) => (
        <div className="kv-inputs" key={row.id} data-testid="arg-row">
          <input
            type="text"
            aria-label={t('kv.argument', { n: index + 1 })}
            spellCheck={false}
            value={row.value}
            onChange={(e) => onChange(rows.map((r) => (r.id === row.id ? { ...r, value: e.target.value } : r)))}
          />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label={t('kv.removeArgument', { n: index + 1 })}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" data-testid="form-args-add" onClick={() => onChange([...rows, { id: newRowId(), value: '' }])}>
        {t('kv.addArgument')}
      </button>
    </fieldset>
  );
}
