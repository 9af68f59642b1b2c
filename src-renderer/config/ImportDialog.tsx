import { useId, useState, type FormEvent } from 'react';
import type { ImportCandidateView, ImportPreviewView, ImportResultView } from '../../src-shared/host-api';
import { describeError } from '../host-client';
import { useApp } from '../hooks/useApp';
import { Dialog } from '../ui/Dialog';

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
  const sourceValue = source === 'path' ? path.trim() : source;

  const preview = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (sourceValue === '') {
      setError('Type the path of a config file to import from.');
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
    <Dialog title="Import servers" onClose={onClose} testId="import-dialog" wide>
      {step.kind === 'pick' && (
        <form onSubmit={(e) => void preview(e)} className="import-pick">
          <fieldset className="import-sources">
            <legend>From</legend>
            {hosts.map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name={`${id}-source`} value={value} data-testid={`import-source-${value}`} checked={source === value} onChange={() => setSource(value)} />
                {label}
              </label>
            ))}
            <label className="radio">
              <input type="radio" name={`${id}-source`} value="path" data-testid="import-source-path" checked={source === 'path'} onChange={() => setSource('path')} />
              A file…
            </label>
            {source === 'path' && (
              <input
                type="text"
                aria-label="Path of the config file to import"
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
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" data-testid="import-preview" disabled={busy}>
              {busy ? 'Reading…' : 'Preview'}
            </button>
          </div>
        </form>
      )}

      {step.kind === 'preview' && (
        <div data-testid="import-preview-view">
          <p className="muted">
            From <code data-testid="import-file">{step.preview.file}</code>
          </p>
          {step.preview.servers.length === 0 ? (
            <p>That file lists no servers.</p>
          ) : (
            <table className="import-table">
              <thead>
                <tr>
                  <th scope="col">Take</th>
                  <th scope="col">Server</th>
                  <th scope="col">What happens</th>
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
              Move secret-looking values into secret storage (the config gets {'${secret:…}'} references)
            </label>
          )}
          {errorView}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'pick' })}>
              Back
            </button>
            <button
              type="button"
              className="btn btn-primary"
              data-testid="import-apply"
              disabled={busy || !Object.values(selected).some(Boolean)}
              onClick={() => void apply(step.preview, false)}
            >
              {busy ? 'Importing…' : 'Import'}
            </button>
          </div>
        </div>
      )}

      {step.kind === 'confirm' && (
        <div data-testid="import-confirm" role="alertdialog" aria-label="Confirm overwrite">
          <p>
            <strong>Overwrite existing servers?</strong> Your current definitions of{' '}
            {step.preview.servers
              .filter((c) => c.status === 'conflict' && selected[c.name] === true)
              .map((c, i) => (
                <span key={c.name}>
                  {i > 0 && ', '}
                  <code>{c.name}</code>
                </span>
              ))}{' '}
            will be replaced by the imported ones. The previous file is kept as a <code>.bak</code>.
          </p>
          {errorView}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'preview', preview: step.preview })}>
              Back
            </button>
            <button type="button" className="btn btn-primary btn-danger" data-testid="import-confirm-overwrite" disabled={busy} onClick={() => void apply(step.preview, true)}>
              Overwrite and import
            </button>
          </div>
        </div>
      )}

      {step.kind === 'result' && (
        <div data-testid="import-result" role="status">
          <ResultList label="Added" names={step.result.added} testId="import-added" />
          <ResultList label="Replaced" names={step.result.replaced} testId="import-replaced" />
          {(step.result.skipped.length > 0 || step.notSelected.length > 0) && (
            <div className="import-result-group" data-testid="import-skipped">
              <h3>Skipped</h3>
              <ul>
                {step.result.skipped.map((s) => (
                  <li key={s.name} data-name={s.name}>
                    <code>{s.name}</code> — {s.reason}
                  </li>
                ))}
                {step.notSelected.map((name) => (
                  <li key={name} data-name={name}>
                    <code>{name}</code> — not selected
                  </li>
                ))}
              </ul>
            </div>
          )}
          <ResultList label="Secrets stored" names={step.result.secretsStored} testId="import-secrets" />
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setStep({ kind: 'pick' })}>
              Import more
            </button>
            <button type="button" className="btn btn-primary" data-testid="import-done" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function CandidateRow({ candidate: c, checked, onChange }: { candidate: ImportCandidateView; checked: boolean; onChange(v: boolean): void }) {
  const take = importable(c);
  return (
    <tr data-testid="import-candidate" data-name={c.name} data-status={c.invalid !== undefined ? 'invalid' : c.status}>
      <td>
        <label className="import-take">
          <input
            type="checkbox"
            aria-label={c.status === 'conflict' ? `Overwrite ${c.name}` : `Import ${c.name}`}
            data-testid="import-take"
            disabled={!take}
            checked={take && checked}
            onChange={(e) => onChange(e.target.checked)}
          />
          {c.status === 'conflict' && take && <span aria-hidden="true">Overwrite</span>}
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
          <span className="pill pill-error">invalid: {c.invalid}</span>
        ) : c.status === 'new' ? (
          <span className="pill pill-ok">new — will be added</span>
        ) : c.status === 'same' ? (
          <span className="pill">already in your config, identical</span>
        ) : (
          <span className="pill pill-pending" data-testid="import-conflict">
            conflict: a different “{c.name}” exists — skipped unless you tick Overwrite
          </span>
        )}
        {take && c.secretKeys.length > 0 && <div className="muted import-secret-keys">secret-looking: {c.secretKeys.join(', ')}</div>}
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
