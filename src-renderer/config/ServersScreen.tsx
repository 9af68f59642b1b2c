import { lazy, Suspense, useMemo, useState } from 'react';
import type { ServerView } from '../../src-shared/host-api';
import { ErrorReason } from '../components/ErrorReason';
import { ConsentCard } from '../features/consent/ConsentCard';
import { BundleDropZone } from '../features/registry/BundleDropZone';
import { RegistryCatalogue } from '../features/registry/RegistryCatalogue';
import { StatusDot, statusLabel } from '../components/StatusDot';
import { describeError } from '../host-client';
import { useApp } from '../hooks/useApp';
import { ExportDialog } from './ExportDialog';
import { ImportDialog } from './ImportDialog';
import { InputPrompt } from './InputPrompt';
import { readConfig } from './jsonc';
import { ServerForm } from './ServerForm';
import { ShellActions } from './ShellActions';
import './config.css';

// CodeMirror is most of the editor's weight: loaded when the raw view is first opened.
const ConfigEditor = lazy(() => import('./ConfigEditor').then((m) => ({ default: m.ConfigEditor })));

/**
 * Servers as a list to edit: add, edit, rename, enable/disable, remove, import, export — or the whole file in
 * the raw editor. Every change goes through main, which edits the file keeping its comments and formatting.
 */
export function ServersScreen() {
  const mode = useApp((s) => s.serversMode);
  const setMode = useApp((s) => s.setServersMode);
  const [dialog, setDialog] = useState<{ kind: 'import' } | { kind: 'export'; names: string[] | undefined } | undefined>(undefined);

  return (
    <main className="screen servers-screen" aria-label="Servers" data-testid="servers-screen">
      <div className="screen-toolbar">
        <div className="segmented" role="tablist" aria-label="View">
          <button type="button" role="tab" aria-selected={mode === 'list'} className={mode === 'list' ? 'selected' : ''} data-testid="servers-mode-list" onClick={() => setMode('list')}>
            Servers
          </button>
          <button type="button" role="tab" aria-selected={mode === 'raw'} className={mode === 'raw' ? 'selected' : ''} data-testid="servers-mode-raw" onClick={() => setMode('raw')}>
            Raw JSON
          </button>
          <button type="button" role="tab" aria-selected={mode === 'catalogue'} className={mode === 'catalogue' ? 'selected' : ''} data-testid="servers-mode-catalogue" onClick={() => setMode('catalogue')}>
            Catalogue
          </button>
        </div>
        <button type="button" className="btn btn-small" data-testid="open-import" onClick={() => setDialog({ kind: 'import' })}>
          Import…
        </button>
        <button type="button" className="btn btn-small" data-testid="export-all" onClick={() => setDialog({ kind: 'export', names: undefined })}>
          Export all
        </button>
        <span className="spacer" />
        <ShellActions />
      </div>
      {mode === 'raw' ? (
        <Suspense fallback={<p className="muted editor-loading">Loading the editor…</p>}>
          <ConfigEditor />
        </Suspense>
      ) : mode === 'catalogue' ? (
        <RegistryCatalogue />
      ) : (
        <>
          <BundleDropZone />
          <ServersList onExport={(name) => setDialog({ kind: 'export', names: [name] })} />
        </>
      )}
      {dialog?.kind === 'import' && <ImportDialog onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'export' && <ExportDialog names={dialog.names} onClose={() => setDialog(undefined)} />}
    </main>
  );
}

function ServersList({ onExport }: { onExport(name: string): void }) {
  const servers = useApp((s) => s.servers);
  const text = useApp((s) => s.configText);
  const editing = useApp((s) => s.editing);
  const openForm = useApp((s) => s.openForm);
  const openEditorAt = useApp((s) => s.openEditorAt);
  const parsed = useMemo(() => (text === undefined ? undefined : readConfig(text.text)), [text]);
  // The file as written is what the forms edit; while it is broken, main refuses edits, so the forms wait.
  const problem = text?.problem;
  const entries = problem ? undefined : parsed?.servers;
  const names = entries ? Object.keys(entries) : servers.map((s) => s.name);
  const editable = entries !== undefined;
  const formOpen = editing !== undefined && editable && (editing === '' || entries[editing] !== undefined);

  return (
    <div className="servers-layout">
      <section className="servers-pane" aria-label="Configured servers">
        <div className="pane-head">
          <h2>Configured servers</h2>
          <button type="button" className="btn btn-small btn-primary" data-testid="add-server" disabled={!editable} onClick={() => openForm('')}>
            Add server
          </button>
        </div>
        {problem && (
          <div className="notice-inline" role="note" data-testid="servers-paused">
            The config file has a problem at line {problem.line}, column {problem.column}: {problem.message}. Editing servers here is paused until it is fixed.{' '}
            <button type="button" className="link-button" onClick={() => openEditorAt(problem.line, problem.column)}>
              Fix it in the raw editor
            </button>
          </div>
        )}
        {servers.length === 0 && !problem && <p className="muted">No servers yet. Add one, or import from another MCP host.</p>}
        <ul className="config-server-list">
          {servers.map((server) => (
            <ConfigServerRow key={server.name} server={server} editable={editable} selected={editing === server.name} onEdit={() => openForm(server.name)} onExport={() => onExport(server.name)} />
          ))}
        </ul>
      </section>
      <section className="form-pane" aria-label="Server details">
        {formOpen ? (
          <ServerForm
            key={editing || '(new)'}
            name={editing === '' ? undefined : editing}
            original={editing === '' ? undefined : entries?.[editing]}
            names={names}
            onDone={() => openForm(undefined)}
          />
        ) : (
          <div className="form-placeholder muted">
            <p>Pick a server to edit it, or add one.</p>
            <p>
              Everything here edits the servers config file — comments and formatting are kept, and the previous version is saved as <code>.bak</code>. The <strong>Raw JSON</strong> view
              edits the same file directly.
            </p>
          </div>
        )}
      </section>
    </div>
  );
}

function ConfigServerRow({
  server,
  editable,
  selected,
  onEdit,
  onExport,
}: {
  server: ServerView;
  editable: boolean;
  selected: boolean;
  onEdit(): void;
  onExport(): void;
}) {
  const setServerEnabled = useApp((s) => s.setServerEnabled);
  // Removing also deletes an installed bundle's files and the secrets its install stored (install:uninstall).
  const removeServer = useApp((s) => s.installUninstall);
  const openForm = useApp((s) => s.openForm);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };
  const enabled = !server.disabled;

  return (
    <li
      className={`config-server${selected ? ' selected' : ''}`}
      data-testid="config-server-row"
      data-server={server.name}
      data-status={server.status}
      data-disabled={server.disabled ? 'true' : 'false'}
    >
      <div className="config-server-head">
        <StatusDot status={server.status} />
        <strong className="server-name" title={server.name}>
          {server.name}
        </strong>
        <span className={`status-label status-text-${server.status}`} data-testid="config-server-status">
          {server.disabled ? 'Disabled' : statusLabel[server.status]}
        </span>
        <span className="chip">{server.transport}</span>
        <span className="spacer" />
        <label className="switch" title={enabled ? 'Enabled: click to stop and disable' : 'Disabled: click to enable'}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={enabled}
            aria-label={`Enable ${server.name}`}
            data-testid="server-enabled"
            checked={enabled}
            disabled={!editable || busy}
            onChange={(e) => void run(() => setServerEnabled(server.name, e.target.checked))}
          />
          <span className="switch-track" aria-hidden="true" />
        </label>
      </div>
      <code className="server-target" title={server.target}>
        {server.target}
      </code>
      {server.error && (server.status === 'error' || server.status === 'crash-loop') && <ErrorReason text={server.error} />}
      {server.needsInput && <InputPrompt server={server.name} inputId={server.needsInput} />}
      <ConsentCard server={server} />
      <div className="config-server-actions">
        <button type="button" className="btn btn-small" data-testid="server-edit" aria-label={`Edit ${server.name}`} disabled={!editable} onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="btn btn-small" data-testid="server-export" aria-label={`Export ${server.name}`} onClick={onExport}>
          Export
        </button>
        {confirmRemove ? (
          <span className="confirm-inline" role="group" aria-label={`Confirm removing ${server.name}`}>
            Remove {server.name} from the config?
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="server-remove-confirm"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await removeServer(server.name);
                  if (selected) openForm(undefined);
                })
              }
            >
              Remove
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirmRemove(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn-small" data-testid="server-remove" aria-label={`Remove ${server.name}`} disabled={!editable} onClick={() => setConfirmRemove(true)}>
            Remove
          </button>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="config-server-error">
          {error}
        </p>
      )}
    </li>
  );
}
