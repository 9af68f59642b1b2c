import { useId, useState, type FormEvent } from 'react';
import type { ImportCandidateView, ImportPreviewView, ImportResultView } from '../../../src-shared/host-api';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { Dialog } from '../../ui/Dialog';
import { Trans } from 'react-i18next';
import { reasonText, useT } from '../../i18n';
import './config.css';

const hosts = [
  ['claude', 'Claude Desktop'],
  ['cursor', 'Cursor'],
  ['vscode', 'VS Code'],
  ['cline', 'Cline'],
  ['windsurf', 'Windsurf'],
  ['inspector', 'MCP Inspector (./mcp.json)'],
] as const;

type Step =
  | { kind: 'pick' }
  | { kind: 'preview'; preview: ImportPreviewView }
  | { kind: 'confirm'; preview: ImportPreviewView }
  | { kind: 'result'; preview: ImportPreviewView; result: ImportResultView; notSelected: string[] };

const importable = (c: ImportCandidateView): boolean => c.invalid === undefined && c.status !== 'same';

function describeEntry(c: ImportCandidateView): string {
  if (typeof c.entry.url === 'string') return c.entry.url;
  return [c.entry.command ?? '', ...(c.entry.args ?? [])].join(' ');
}

/**
 * Import from another MCP host (or a file): pick a source, see what would be added and what conflicts, choose,
 * confirm any overwrite explicitly, apply, and see what happened.
 */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const importPreview = useApp((s) => s.importPreview);
  const importApply = useApp((s) => s.importApply);
  const [source, setSource] = useState<string>('claude');
  const [path, setPath] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [selected, setSelected] = useState<Record<string, boolean>>({});
  const [moveSecrets, setMoveSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = useId();
  const t = useT();
  const sourceValue = source === 'path' ? path.trim() : source;

  const preview = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (sourceValue === '') {
      setError(t('importDialog.needPath'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const p = await importPreview(sourceValue);
      // New servers are taken by default; a conflict only when the user explicitly chooses to overwrite it.
      setSelected(Object.fromEntries(p.servers.filter(importable).map((c) => [c.name, c.status === 'new'])));
      setMoveSecrets(p.servers.some((c) => importable(c) && c.secretKeys.length > 0));
      setStep({ kind: 'preview', preview: p });
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const apply = async (p: ImportPreviewView, confirmed: boolean): Promise<void> => {
    const candidates = p.servers.filter(importable);
    const overwrite = candidates.filter((c) => c.status === 'conflict' && selected[c.name] === true).map((c) => c.name);
    if (overwrite.length > 0 && !confirmed) {
      setStep({ kind: 'confirm', preview: p });
      return;
    }
    // Conflicts left unticked are sent too, so main reports them as skipped with its reason.
    const names = candidates.filter((c) => c.status === 'conflict' || selected[c.name] === true).map((c) => c.name);
    const notSelected = candidates.filter((c) => c.status === 'new' && selected[c.name] !== true).map((c) => c.name);
    setBusy(true);
    setError(undefined);
    try {
      const result = await importApply({ source: p.source, names, overwrite, moveSecrets });
      setStep({ kind: 'result', preview: p, result, notSelected });
    } catch (e) {
      setError(describeError(e).message);
      setStep({ kind: 'preview', preview: p });
    } finally {
      setBusy(false);
    }
  };

  const errorView = error && (
    <p className="form-error" role="alert" data-testid="import-error">
      {error}
    </p>
  );

  return (
    <Dialog title={t('importDialog.title')} onClose={onClose} testId="import-dialog" wide>
      {step.kind === 'pick' && (
        <form onSubmit={(e) => void preview(e)} className="import-pick">
          <fieldset className="import-sources">
            <legend>{t('importDialog.from')}</legend>
            {hosts.map(([value, label]) => (
              <label key={value} className="radio">
                <input
                  type="radio"
                  name={`${id}-source`}
                  value={value}
                  data-testid={`import-source-${value}`}
                  checked={source === value}
                  onChange={() => setSource(value)}
                />
                {label}
              </label>
            ))}
            <label className="radio">
              <input
                type="radio"
                name={`${id}-source`}
                value="path"
                data-testid="import-source-path"
                checked={source === 'path'}
                onChange={() => setSource('path')}
              />
              {t('importDialog.aFile')}
            </label>
            {source === 'path' && (
              <input
                type="text"
                aria-label={t('importDialog.pathLabel')}
                data-testid="import-path"
                placeholder="/path/to/claude_desktop_config.json"
                spellCheck={false}
                value={path}
                onChange={(e) => setPath(e.target.value)}
              />
            )}
          </fieldset>
          {errorView}
          <div className="form-actions">
            <button type="button" className="btn" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" data-testid="import-preview" disabled={busy}>
              {busy ? t('importDialog.reading') : t('importDialog.preview')}
            </button>
          </div>
        </form>
      )}

      {step.kind === 'preview' && (
        <div data-testid="import-preview-view">
          <p className="muted">
            <Trans i18nKey="importDialog.fromFile" values={{ file: step.preview.file }} components={{ code: <code data-testid="import-file" /> }} />
          </p>
          {step.preview.servers.length === 0 ? (
            <p>{t('importDialog.noServers')}</p>
          ) : (
            <table className="import-table">
              <thead>
                <tr>
                  <th scope="col">{t('importDialog.take')}</th>
                  <th scope="col">{t('importDialog.server')}</th>
                  <th scope="col">{t('importDialog.whatHappens')}</th>
                </tr>
              </thead>
              <tbody>
                {step.preview.servers.map((c) => (
                  <CandidateRow key={c.name} candidate={c} checked={selected[c.name] === true} onChange={(v) => setSelected((s) => ({ ...s, [c.name]: v }))} />
                ))}
              </tbody>
            </table>
          )}
          {step.preview.servers.some((c) => importable(c) && c.secretKeys.length > 0) && (
            <label className="field-check-inline">
              <input type="checkbox" data-testid="import-move-secrets" checked={moveSecrets} onChange={(e) => setMoveSecrets(e.target.checked)} />
              {t('importDialog.moveSecrets', { ref: '${secret:…}' })}
            </label>
          )}
          {errorView}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'pick' })}>
              {t('importDialog.back')}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              data-testid="import-apply"
              disabled={busy || !Object.values(selected).some(Boolean)}
              onClick={() => void apply(step.preview, false)}
            >
              {busy ? t('importDialog.importing') : t('importDialog.import')}
            </button>
          </div>
        </div>
      )}

      {step.kind === 'confirm' && (
        <div data-testid="import-confirm" role="alertdialog" aria-label={t('importDialog.confirmLabel')}>
          <p>
            <strong>{t('importDialog.overwriteQ')}</strong> {t('importDialog.confirmBefore')}{' '}
            {step.preview.servers
              .filter((c) => c.status === 'conflict' && selected[c.name] === true)
              .map((c, i) => (
                <span key={c.name}>
                  {i > 0 && ', '}
                  <code>{c.name}</code>
                </span>
              ))}{' '}
            <Trans i18nKey="importDialog.confirmAfter" components={{ code: <code /> }} />
          </p>
          {errorView}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'preview', preview: step.preview })}>
              {t('importDialog.back')}
            </button>
            <button
              type="button"
              className="btn btn-primary btn-danger"
              data-testid="import-confirm-overwrite"
              disabled={busy}
              onClick={() => void apply(step.preview, true)}
            >
              {t('importDialog.overwriteAndImport')}
            </button>
          </div>
        </div>
      )}

      {step.kind === 'result' && (
        <div data-testid="import-result" role="status">
          <ResultList label={t('importDialog.added')} names={step.result.added} testId="import-added" />
          <ResultList label={t('importDialog.replaced')} names={step.result.replaced} testId="import-replaced" />
          {(step.result.skipped.length > 0 || step.notSelected.length > 0) && (
            <div className="import-result-group" data-testid="import-skipped">
              <h3>{t('importDialog.skipped')}</h3>
              <ul>
                {step.result.skipped.map((s) => (
                  <li key={s.name} data-name={s.name}>
                    <code>{s.name}</code> — {reasonText(s.reason, s.reasonInfo)}
                  </li>
                ))}
                {step.notSelected.map((name) => (
                  <li key={name} data-name={name}>
                    <code>{name}</code> — {t('importDialog.notSelected')}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <ResultList label={t('importDialog.secretsStored')} names={step.result.secretsStored} testId="import-secrets" />
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'pick' })}>
              {t('importDialog.importMore')}
            </button>
            <button type="button" className="btn btn-primary" data-testid="import-done" onClick={onClose}>
              {t('importDialog.done')}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function CandidateRow({ candidate: c, checked, onChange }: { candidate: ImportCandidateView; checked: boolean; onChange(v: boolean): void }) {
  const t = useT();
  const take = importable(c);
  return (
    <tr data-testid="import-candidate" data-name={c.name} data-status={c.invalid !== undefined ? 'invalid' : c.status}>
      <td>
        <label className="import-take">
          <input
            type="checkbox"
            aria-label={c.status === 'conflict' ? t('importDialog.overwriteLabel', { name: c.name }) : t('importDialog.importLabel', { name: c.name })}
            data-testid="import-take"
            disabled={!take}
            checked={take && checked}
            onChange={(e) => onChange(e.target.checked)}
          />
          {c.status === 'conflict' && take && <span aria-hidden="true">{t('importDialog.overwrite')}</span>}
        </label>
      </td>
      <td>
        <code className="import-name">{c.name}</code>
        {c.invalid === undefined && (
          <div className="muted import-target" title={describeEntry(c)}>
            {describeEntry(c)}
          </div>
        )}
      </td>
      <td>
        {c.invalid !== undefined ? (
          <span className="pill pill-error">{t('importDialog.invalid', { reason: reasonText(c.invalid, c.invalidInfo) })}</span>
        ) : c.status === 'new' ? (
          <span className="pill pill-ok">{t('importDialog.isNew')}</span>
        ) : c.status === 'same' ? (
          <span className="pill">{t('importDialog.same')}</span>
        ) : (
          <span className="pill pill-pending" data-testid="import-conflict">
            {t('importDialog.conflict', { name: c.name })}
          </span>
        )}
        {take && c.secretKeys.length > 0 && (
          <div className="muted import-secret-keys">{t('importDialog.secretLooking', { keys: c.secretKeys.join(', ') })}</div>
        )}
      </td>
    </tr>
  );
}

function ResultList({ label, names, testId }: { label: string; names: string[]; testId: string }) {
  if (names.length === 0) return null;
  return (
    <div className="import-result-group" data-testid={testId}>
      <h3>{label}</h3>
      <ul>
        {names.map((n) => (
          <li key={n} data-name={n}>
            <code>{n}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
