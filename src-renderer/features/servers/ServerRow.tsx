import type { ServerView } from '../../../src-shared/host-api';
import { InputPrompt } from '../config/InputPrompt';
import { AuthCard } from '../auth/AuthCard';
import { ConsentCard } from '../consent/ConsentCard';
import { useApp } from '../../store/useApp';
import { useNow } from '../../ui/useNow';
import { diagnosticReason } from './diagnostics';
import { ErrorReason } from './ErrorReason';
import { LaunchDetails } from './LaunchDetails';
import { StatusDot, useStatusLabel } from './StatusDot';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';
import { StderrTail } from './StderrTail';
import { ToolList } from './ToolList';
import { formatMs } from '../../ui/search';

export function ServerRow({ server }: { server: ServerView }) {
  const restarting = useApp((s) => s.restarting[server.name] === true);
  const restartError = useApp((s) => s.restartErrors[server.name]);
  const restart = useApp((s) => s.restart);
  const openForm = useApp((s) => s.openForm);
  const pageOpen = useApp((s) => s.serverPage?.server === server.name);
  const openServerPage = useApp((s) => s.openServerPage);
  const closeServerPage = useApp((s) => s.closeServerPage);
  const headingId = `server-${server.name}-name`;
  const failed = server.status === 'error' || server.status === 'crash-loop';
  const t = useT();
  const statusLabel = useStatusLabel();

  return (
    <li
      className={`server-row row-${server.status}${pageOpen ? ' page-open' : ''}`}
      data-testid="server-row"
      data-server={server.name}
      data-status={server.status}
      data-pid={server.pid}
      aria-labelledby={headingId}
    >
      <div className="server-head">
        <StatusDot status={server.status} />
        <h3 id={headingId} className="server-name">
          {/* The name opens the server's page (tools, resources, prompts, logs, trace); again closes it. */}
          <button
            type="button"
            className="server-name-button"
            data-testid="server-open-page"
            aria-expanded={pageOpen}
            title={pageOpen ? t('serverRow.backToChat', { server: server.name }) : t('serverRow.openPage', { server: server.name })}
            onClick={() => (pageOpen ? closeServerPage() : openServerPage(server.name))}
          >
            {server.name}
          </button>
        </h3>
        <span className={`status-label status-text-${server.status}`} data-testid="server-status">
          {server.disabled ? t('serverRow.disabled') : statusLabel(server.status)}
        </span>
        <button
          type="button"
          className="btn btn-small"
          data-testid="server-restart"
          aria-label={t('serverRow.restartLabel', { server: server.name })}
          disabled={restarting || server.disabled}
          onClick={() => void restart(server.name)}
        >
          {restarting ? t('serverRow.restarting') : t('serverRow.restart')}
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          data-testid="server-open-edit"
          aria-label={t('serverRow.editLabel', { server: server.name })}
          onClick={() => openForm(server.name)}
        >
          {t('common.edit')}
        </button>
      </div>

      <div className="server-meta">
        <span className="chip" data-testid="server-transport" title={t('serverRow.transport')}>
          {server.transport}
        </span>
        {server.protocolVersion && (
          <span className="chip" data-testid="server-protocol" title={server.era ? t('serverRow.protocolEra', { era: server.era }) : t('serverRow.protocol')}>
            {server.protocolVersion}
          </span>
        )}
        {server.serverInfo && (
          <span className="muted server-info" title={t('serverRow.implementation')}>
            {server.serverInfo.name} {server.serverInfo.version}
          </span>
        )}
        {server.counts && server.counts.resources + server.counts.templates > 0 && (
          <button type="button" className="chip chip-link" data-testid="server-resource-count" onClick={() => openServerPage(server.name, 'resources')}>
            {t('serverRow.resources', { count: server.counts.resources + server.counts.templates })}
          </button>
        )}
        {server.counts && server.counts.prompts > 0 && (
          <button type="button" className="chip chip-link" data-testid="server-prompt-count" onClick={() => openServerPage(server.name, 'prompts')}>
            {t('serverRow.prompts', { count: server.counts.prompts })}
          </button>
        )}
        {server.health && !server.health.ok && (
          <span
            className="chip chip-err"
            data-testid="server-unhealthy"
            title={server.health.error !== undefined ? diagnosticReason('ping', server.health.error, server.health.errorInfo) : undefined}
          >
            {t('serverRow.unhealthy')}
          </span>
        )}
        {server.status === 'ready' && server.readyMs !== undefined && (
          <span className="muted server-info" title={t('serverRow.readyTitle')}>
            {t('serverRow.readyIn', { time: formatMs(server.readyMs) })}
          </span>
        )}
      </div>
      <code className="server-target" title={server.target}>
        {server.target}
      </code>

      {failed && <ErrorReason text={server.error ?? t('serverRow.noReason')} reason={server.error !== undefined ? server.errorInfo : undefined} />}
      {server.needsInput && (
        <p className="server-note" data-testid="server-needs-input">
          <Trans i18nKey="serverRow.waitingInput" values={{ input: `\${input:${server.needsInput}}` }} components={{ code: <code /> }} />
        </p>
      )}
      {server.needsInput && <InputPrompt server={server.name} inputId={server.needsInput} />}
      {/* The server page shows the same card: only one of them at a time. */}
      {!pageOpen && <ConsentCard server={server} />}
      {!pageOpen && <AuthCard server={server} compact />}
      <RestartInfo server={server} />
      {restartError && (
        <div className="server-error" role="alert" data-testid="restart-error">
          {t('serverRow.restartFailed', { error: restartError })}
        </div>
      )}

      {server.status === 'ready' && <ToolList server={server} />}
      <StderrTail lines={server.stderrTail} />
      <LaunchDetails server={server} />
    </li>
  );
}

/** Automatic restarts main has done or scheduled (main decides; this only shows it). */
function RestartInfo({ server }: { server: ServerView }) {
  const scheduled = server.nextRestartAt;
  const now = useNow(scheduled !== undefined);
  const t = useT();
  if (scheduled === undefined && server.restarts === 0) return null;
  const seconds = scheduled === undefined ? 0 : Math.max(0, Math.ceil((scheduled - now) / 1000));
  return (
    <p className="server-restarts muted" data-testid="server-restarts">
      {scheduled !== undefined && <span>{t('serverRow.autoRestartIn', { seconds })}</span>}
      {server.restarts > 0 && <span>{t('serverRow.restarted', { count: server.restarts })}</span>}
    </p>
  );
}
