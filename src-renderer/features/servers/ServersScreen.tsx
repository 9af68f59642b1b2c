import { lazy, Suspense, useMemo, useState } from 'react';
import type { ServerView } from '../../../src-shared/host-api';
import { ErrorReason } from './ErrorReason';
import { ConsentCard } from '../consent/ConsentCard';
import { BundleDropZone } from '../install/BundleDropZone';
import { RegistryCatalogue } from '../install/RegistryCatalogue';
import { StatusDot, useStatusLabel } from './StatusDot';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { ExportDialog } from '../config/ExportDialog';
import { ImportDialog } from '../config/ImportDialog';
import { InputPrompt } from '../config/InputPrompt';
import { readConfig } from '../config/jsonc';
import { ServerForm } from '../config/ServerForm';
import { ShellActions } from '../../ui/ShellActions';
import '../../styles/controls.css';
import './servers.css';
import { Trans } from 'react-i18next';
import { configDetailText, useT } from '../../i18n';

// CodeMirror is most of the editor's weight: loaded when the raw view is first opened.
const ConfigEditor = lazy(() => import('../config/ConfigEditor').then((m) => ({ default: m.ConfigEditor })));

/**
 * Servers as a list to edit: add, edit, rename, enable/disable, remove, import, export — or the whole file in
 * the raw editor. Every change goes through main, which edits the file keeping its comments and formatting.
 */
export function ServersScreen() {
  const mode = useApp((s) => s.serversMode);
  const setMode = useApp((s) => s.setServersMode);
  const t = useT();
  const [dialog, setDialog] = useState<{ kind: 'import' } | { kind: 'export'; names: string[] | undefined } | undefined>(undefined);

  return (
    <main className="screen servers-screen" aria-label={t('serversScreen.label')} data-testid="servers-screen">
      <div className="screen-toolbar">
        <div className="segmented" role="tablist" aria-label={t('serversScreen.view')}>
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'list'}
            className={mode === 'list' ? 'selected' : ''}
            data-testid="servers-mode-list"
            onClick={() => setMode('list')}
          >
            {t('serversScreen.modeList')}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'raw'}
            className={mode === 'raw' ? 'selected' : ''}
            data-testid="servers-mode-raw"
            onClick={() => setMode('raw')}
          >
            {t('serversScreen.modeRaw')}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'catalogue'}
            className={mode === 'catalogue' ? 'selected' : ''}
            data-testid="servers-mode-catalogue"
            onClick={() => setMode('catalogue')}
          >
            {t('serversScreen.modeCatalogue')}
          </button>
        </div>
        <button type="button" className="btn btn-small" data-testid="open-import" onClick={() => setDialog({ kind: 'import' })}>
          {t('serversScreen.import')}
        </button>
        <button type="button" className="btn btn-small" data-testid="export-all" onClick={() => setDialog({ kind: 'export', names: undefined })}>
          {t('serversScreen.exportAll')}
        </button>
        <span className="spacer" />
        <ShellActions />
      </div>
      {mode === 'raw' ? (
        <Suspense fallback={<p className="muted editor-loading">{t('serversScreen.loadingEditor')}</p>}>
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
  const t = useT();
  const parsed = useMemo(() => (text === undefined ? undefined : readConfig(text.text)), [text]);
  // The file as written is what the forms edit; while it is broken, main refuses edits, so the forms wait.
  const problem = text?.problem;
  const entries = problem ? undefined : parsed?.servers;
  const names = entries ? Object.keys(entries) : servers.map((s) => s.name);
  const editable = entries !== undefined;
  const formOpen = editing !== undefined && editable && (editing === '' || entries[editing] !== undefined);

  return (
    <div className="servers-layout">
      <section className="servers-pane" aria-label={t('serversScreen.configured')}>
        <div className="pane-head">
          <h2>{t('serversScreen.configured')}</h2>
          <button type="button" className="btn btn-small btn-primary" data-testid="add-server" disabled={!editable} onClick={() => openForm('')}>
            {t('serversScreen.addServer')}
          </button>
        </div>
        {problem && (
          <div className="notice-inline" role="note" data-testid="servers-paused">
            {t('serversScreen.paused', { line: problem.line, column: problem.column, message: configDetailText(problem.message, problem.info) })}{' '}
            <button type="button" className="link-button" onClick={() => openEditorAt(problem.line, problem.column)}>
              {t('serversScreen.fixInRaw')}
            </button>
          </div>
        )}
        {servers.length === 0 && !problem && <p className="muted">{t('serversScreen.empty')}</p>}
        <ul className="config-server-list">
          {servers.map((server) => (
            <ConfigServerRow
              key={server.name}
              server={server}
              editable={editable}
              selected={editing === server.name}
              onEdit={() => openForm(server.name)}
              onExport={() => onExport(server.name)}
            />
          ))}
        </ul>
      </section>
      <section className="form-pane" aria-label={t('serversScreen.details')}>
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
            <p>{t('serversScreen.pick')}</p>
            <p>
              <Trans i18nKey="serversScreen.explain" components={{ code: <code />, strong: <strong /> }} />
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
  const t = useT();
  const statusLabel = useStatusLabel();
  // As in the sidebar: while the host cannot be reached the last status heard is not shown as current.
  const unreachable = useApp((s) => s.connection.status !== 'open');
  const status = unreachable ? 'unknown' : server.status;
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
      data-status={status}
      data-disabled={server.disabled ? 'true' : 'false'}
    >
      <div className="config-server-head">
        <StatusDot status={status} />
        <strong className="server-name" title={server.name}>
          {server.name}
        </strong>
        <span className={`status-label status-text-${status}`} data-testid="config-server-status" title={unreachable ? t('sidebar.unreachable') : undefined}>
          {unreachable ? statusLabel('unknown') : server.disabled ? t('serverRow.disabled') : statusLabel(server.status)}
        </span>
        <span className="chip">{server.transport}</span>
        <span className="spacer" />
        <label className="switch" title={enabled ? t('serversScreen.enabledTitle') : t('serversScreen.disabledTitle')}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={enabled}
            aria-label={t('serversScreen.enableLabel', { server: server.name })}
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
      {server.error && (server.status === 'error' || server.status === 'crash-loop') && <ErrorReason text={server.error} reason={server.errorInfo} />}
      {server.needsInput && <InputPrompt server={server.name} inputId={server.needsInput} />}
      <ConsentCard server={server} />
      <div className="config-server-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="server-edit"
          aria-label={t('serverRow.editLabel', { server: server.name })}
          disabled={!editable}
          onClick={onEdit}
        >
          {t('common.edit')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="server-export"
          aria-label={t('serversScreen.exportLabel', { server: server.name })}
          onClick={onExport}
        >
          {t('serversScreen.export')}
        </button>
        {confirmRemove ? (
          <span className="confirm-inline" role="group" aria-label={t('serversScreen.confirmRemoveLabel', { server: server.name })}>
            {t('serversScreen.confirmRemove', { server: server.name })}
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
              {t('common.remove')}
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirmRemove(false)}>
              {t('common.cancel')}
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            data-testid="server-remove"
            aria-label={t('serversScreen.removeLabel', { server: server.name })}
            disabled={!editable}
            onClick={() => setConfirmRemove(true)}
          >
            {t('common.remove')}
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
