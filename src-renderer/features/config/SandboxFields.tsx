import { newRowId, type Row, type SandboxMode, type ServerFormState } from './entry-form';
import { useT } from '../../i18n';

type SandboxState = Pick<ServerFormState, 'sandboxMode' | 'sandboxRead' | 'sandboxWrite' | 'sandboxNetwork'>;

const modes: readonly SandboxMode[] = ['default', 'off', 'on', 'custom'];

/**
 * A stdio server's sandbox: the settings default, off, on (system read-only, home hidden, private
 * /tmp, network allowed), or custom: extra paths to read and to write, and whether the network is allowed.
 */
export function SandboxFields({
  state,
  onChange,
  errors,
  idPrefix,
}: {
  state: SandboxState;
  onChange(patch: Partial<SandboxState>): void;
  errors: { read?: string; write?: string };
  idPrefix: string;
}) {
  const t = useT();
  const modeLabel = (mode: SandboxMode): string =>
    mode === 'default' ? t('sandbox.modeDefault') : mode === 'off' ? t('sandbox.modeOff') : mode === 'on' ? t('sandbox.modeOn') : t('sandbox.modeCustom');
  return (
    <fieldset className="kv-table" data-testid="form-sandbox">
      <legend>{t('sandbox.legend')}</legend>
      <div className="segmented" role="radiogroup" aria-label={t('sandbox.legend')}>
        {modes.map((mode) => (
          <label key={mode} className={state.sandboxMode === mode ? 'selected' : ''}>
            <input
              type="radio"
              name={`${idPrefix}-sandbox`}
              value={mode}
              data-testid={`form-sandbox-${mode}`}
              checked={state.sandboxMode === mode}
              onChange={() => onChange({ sandboxMode: mode })}
            />
            {modeLabel(mode)}
          </label>
        ))}
      </div>
      <p className="muted field-hint">
        {state.sandboxMode === 'default' ? t('sandbox.hintDefault') : state.sandboxMode === 'off' ? t('sandbox.hintOff') : t('sandbox.hintOn')}
      </p>
      {state.sandboxMode === 'custom' && (
        <>
          <PathList
            kind="read"
            label={t('sandbox.allowRead')}
            rows={state.sandboxRead}
            onChange={(sandboxRead) => onChange({ sandboxRead })}
            errorId={`${idPrefix}-sandboxRead-error`}
            {...(errors.read ? { error: errors.read } : {})}
          />
          <PathList
            kind="write"
            label={t('sandbox.allowWrite')}
            rows={state.sandboxWrite}
            onChange={(sandboxWrite) => onChange({ sandboxWrite })}
            errorId={`${idPrefix}-sandboxWrite-error`}
            {...(errors.write ? { error: errors.write } : {})}
          />
          <label className="field-check-inline">
            <input
              type="checkbox"
              data-testid="form-sandbox-network"
              checked={state.sandboxNetwork}
              onChange={(e) => onChange({ sandboxNetwork: e.target.checked })}
            />
            {t('sandbox.network')}
          </label>
        </>
      )}
    </fieldset>
  );
}

function PathList({
  kind,
  label,
  rows,
  onChange,
  error,
  errorId,
}: {
  kind: 'read' | 'write';
  label: string;
  rows: Row[];
  onChange(rows: Row[]): void;
  error?: string;
  errorId: string;
}) {
  const t = useT();
  const testId = kind === 'read' ? 'form-sandbox-read' : 'form-sandbox-write';
  return (
    <div data-testid={testId} aria-describedby={error ? errorId : undefined}>
      <span className="field">{label}</span>
      {rows.length === 0 && <p className="muted kv-empty">{t('sandbox.noPaths')}</p>}
      {rows.map((row, index) => (
        <div className="kv-inputs" key={row.id} data-testid={`${testId}-row`}>
          <input
            type="text"
            aria-label={t('sandbox.pathLabel', { list: label, n: index + 1 })}
            aria-invalid={error && row.value.trim() === '' ? true : undefined}
            spellCheck={false}
            placeholder={t('sandbox.pathPlaceholder')}
            value={row.value}
            onChange={(e) => onChange(rows.map((r) => (r.id === row.id ? { ...r, value: e.target.value } : r)))}
          />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label={t('sandbox.removePath', { list: label, n: index + 1 })}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" data-testid={`${testId}-add`} onClick={() => onChange([...rows, { id: newRowId(), value: '' }])}>
        {t('sandbox.addPath')}
      </button>
      {error && (
        <p className="form-error" id={errorId} data-testid={kind === 'read' ? 'form-error-sandboxRead' : 'form-error-sandboxWrite'}>
          {error}
        </p>
      )}
    </div>
  );
}
