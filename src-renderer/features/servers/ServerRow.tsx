import type { ReactNode } from 'react';
import type { ServerView } from '../../../src-shared/host-api';
import { subjectLine } from '../consent/consent-text';
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
import { reasonText, useT } from '../../i18n';
import { StderrTail } from './StderrTail';
import { ToolList } from './ToolList';
import { formatMs } from '../../ui/search';

export function ServerRow({ server, unreachable = false }: { server: ServerView; unreachable?: boolean }) {
  const restarting = useApp((s) => s.restarting[server.name] === true);
  const restartError = useApp((s) => s.restartErrors[server.name]);
  const restart = useApp((s) => s.restart);
  const approving = useApp((s) => s.approving[server.name] === true);
  const approveError = useApp((s) => s.approveErrors[server.name]);
  const approve = useApp((s) => s.approveServer);
  const signingIn = useApp((s) => s.authBusy[server.name] !== undefined);
  const signIn = useApp((s) => s.signIn);
  const openForm = useApp((s) => s.openForm);
  const pageOpen = useApp((s) => s.serverPage?.server === server.name && s.screen === 'chat');
  const openServerPage = useApp((s) => s.openServerPage);
  const closeServerPage = useApp((s) => s.closeServerPage);
  const expanded = useApp((s) => s.expandedServers[server.name] === true);
  const toggleExpanded = useApp((s) => s.toggleServerExpanded);
  const setExpanded = useApp((s) => s.setServerExpanded);
  const headingId = `server-${server.name}-name`;
  const detailsId = `server-${server.name}-details`;
  const failed = server.status === 'error' || server.status === 'crash-loop';
  const t = useT();
  const statusLabel = useStatusLabel();
  // While the host cannot be reached the last status heard is not shown as if it were current.
  const status = unreachable ? 'unknown' : server.status;
  const consent = server.consent?.enforced ? server.consent : undefined;
  const toolCount = server.status === 'ready' && server.tools.length > 0 ? server.tools.length : undefined;

  // A server waiting for approval or a sign-in cannot be restarted into working: offer what it waits for.
  let action: ReactNode;
  if (!unreachable && server.status === 'needs-approval' && consent) {
    action = (
      <button
        type="button"
        className="btn btn-small btn-primary"
        data-testid="server-approve"
        title={t('sidebar.approveTitle', { server: server.name, line: subjectLine(consent.subject) })}
        disabled={approving}
        onClick={() => void approve(server.name, consent.hash)}
      >
        {approving ? t('consent.approving') : t('sidebar.approve')}
      </button>
    );
  } else if (!unreachable && server.status === 'needs-login' && !server.disabled) {
    action = (
      <button
        type="button"
        className="btn btn-small btn-primary"
        data-testid="server-sign-in"
        aria-label={t('sidebar.signInLabel', { server: server.name })}
        disabled={signingIn}
        onClick={() => {
          // The card inside says where to finish signing in (the link, in a browser tab).
          setExpanded(server.name, true);
          void signIn(server.name);
        }}
      >
        {t('sidebar.signIn')}
      </button>
    );
  } else {
    action = (
      <button
        type="button"
        className="btn btn-small"
        data-testid="server-restart"
        aria-label={t('serverRow.restartLabel', { server: server.name })}
        disabled={restarting || server.disabled || unreachable}
        onClick={() => void restart(server.name)}
      >
        {restarting ? t('serverRow.restarting') : t('serverRow.restart')}
      </button>
    );
  }

  return (
    <li
      className={`server-row row-${status}${pageOpen ? ' page-open' : ''}${expanded ? ' expanded' : ''}`}
      data-testid="server-row"
      data-server={server.name}
      data-status={status}
      data-expanded={expanded ? 'true' : 'false'}
      data-pid={server.pid}
      aria-labelledby={headingId}
    >
      <div className="server-head">
        <button
          type="button"
          className="btn btn-ghost btn-small server-expand"
          data-testid="server-expand"
          aria-expanded={expanded}
          aria-controls={detailsId}
          aria-label={expanded ? t('sidebar.collapse', { server: server.name }) : t('sidebar.expand', { server: server.name })}
          title={expanded ? t('sidebar.collapse', { server: server.name }) : t('sidebar.expand', { server: server.name })}
          onClick={() => toggleExpanded(server.name)}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
        </button>
        <StatusDot status={status} />
        <h3 id={headingId} className="server-name">
          {/* The name opens the server's page (tools, resources, prompts, logs, trace); again closes it. */}
          <button
            type="button"
            className="server-name-button"
            data-testid="server-open-page"
            aria-expanded={pageOpen}
            aria-current={pageOpen ? 'page' : undefined}
            title={pageOpen ? t('serverRow.backToChat', { server: server.name }) : t('serverRow.openPage', { server: server.name })}
            onClick={() => (pageOpen ? closeServerPage() : openServerPage(server.name))}
          >
            {server.name}
          </button>
        </h3>
        {toolCount !== undefined && (
          <span className="chip server-tool-count" data-testid="server-tool-count">
            {t('tools.count', { count: toolCount })}
          </span>
        )}
        <span
          className={`status-label status-text-${status}`}
          data-testid="server-status"
          title={unreachable ? t('sidebar.unreachable') : failed ? server.error : undefined}
        >
          {unreachable ? statusLabel('unknown') : server.disabled ? t('serverRow.disabled') : statusLabel(server.status)}
        </span>
        {action}
      </div>

      {/* Asked of the person: shown open or closed. */}
      {server.needsInput && (
        <p className="server-note" data-testid="server-needs-input">
          <Trans i18nKey="serverRow.waitingInput" values={{ input: `\${input:${server.needsInput}}` }} components={{ code: <code /> }} />
        </p>
      )}
      {server.needsInput && <InputPrompt server={server.name} inputId={server.needsInput} />}
      {restartError && (
        <div className="server-error" role="alert" data-testid="restart-error">
          {t('serverRow.restartFailed', { error: restartError })}
        </div>
      )}
      {approveError && !expanded && (
        <div className="server-error" role="alert" data-testid="server-approve-error">
          {approveError}
        </div>
      )}

      <div className="server-details" id={detailsId} hidden={!expanded} data-testid="server-details">
        {expanded && (
          <>
            <div className="server-meta">
              <span className="chip" data-testid="server-transport" title={t('serverRow.transport')}>
                {server.transport}
              </span>
              {server.protocolVersion && (
                <span
                  className="chip"
                  data-testid="server-protocol"
                  title={server.era ? t('serverRow.protocolEra', { era: server.era }) : t('serverRow.protocol')}
                >
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
              {/* Editing is rarer than restarting: it lives in the opened row (and on the Servers screen). */}
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
            <code className="server-target" title={server.target}>
              {server.target}
            </code>

            {failed && <ErrorReason text={server.error ?? t('serverRow.noReason')} reason={server.error !== undefined ? server.errorInfo : undefined} />}
            {/* The server page shows the same card: only one of them at a time. */}
            {!pageOpen && <ConsentCard server={server} />}
            {!pageOpen && <AuthCard server={server} compact />}
            <RestartInfo server={server} />

            {server.status === 'ready' && <ToolList server={server} />}
            <StderrTail lines={server.stderrTail} reason={failed && server.error !== undefined ? reasonText(server.error, server.errorInfo) : undefined} />
            <LaunchDetails server={server} />
          </>
        )}
      </div>
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
