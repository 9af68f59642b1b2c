import type { ServerView } from '../../src-shared/host-api';
import { InputPrompt } from '../config/InputPrompt';
import { AuthCard } from '../features/auth/AuthCard';
import { ConsentCard } from '../features/consent/ConsentCard';
import { useApp } from '../hooks/useApp';
import { useNow } from '../hooks/useNow';
import { ErrorReason } from './ErrorReason';
import { LaunchDetails } from './LaunchDetails';
import { StatusDot, statusLabel } from './StatusDot';
import { StderrTail } from './StderrTail';
import { ToolList } from './ToolList';
import { formatMs } from '../ui/search';

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
            title={`${server.name}: ${pageOpen ? 'back to the chat' : 'open its page (tools, resources, prompts, logs, trace)'}`}
            onClick={() => (pageOpen ? closeServerPage() : openServerPage(server.name))}
          >
            {server.name}
          </button>
        </h3>
        <span className={`status-label status-text-${server.status}`} data-testid="server-status">
          {server.disabled ? 'Disabled' : statusLabel[server.status]}
        </span>
        <button
          type="button"
          className="btn btn-small"
          data-testid="server-restart"
          aria-label={`Restart ${server.name}`}
          disabled={restarting || server.disabled}
          onClick={() => void restart(server.name)}
        >
          {restarting ? 'Restarting…' : 'Restart'}
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          data-testid="server-open-edit"
          aria-label={`Edit ${server.name}`}
          onClick={() => openForm(server.name)}
        >
          Edit
        </button>
      </div>

      <div className="server-meta">
        <span className="chip" data-testid="server-transport" title="Transport">
          {server.transport}
        </span>
        {server.protocolVersion && (
          <span className="chip" data-testid="server-protocol" title={`Protocol revision${server.era ? ` (${server.era})` : ''}`}>
            {server.protocolVersion}
          </span>
        )}
        {server.serverInfo && (
          <span className="muted server-info" title="Server implementation">
            {server.serverInfo.name} {server.serverInfo.version}
          </span>
        )}
        {server.counts && server.counts.resources + server.counts.templates > 0 && (
          <button type="button" className="chip chip-link" data-testid="server-resource-count" onClick={() => openServerPage(server.name, 'resources')}>
            {server.counts.resources + server.counts.templates} resources
          </button>
        )}
        {server.counts && server.counts.prompts > 0 && (
          <button type="button" className="chip chip-link" data-testid="server-prompt-count" onClick={() => openServerPage(server.name, 'prompts')}>
            {server.counts.prompts} prompts
          </button>
        )}
        {server.health && !server.health.ok && (
          <span className="chip chip-err" data-testid="server-unhealthy" title={server.health.error}>
            unhealthy
          </span>
        )}
        {server.status === 'ready' && server.readyMs !== undefined && (
          <span className="muted server-info" title="Time from start to ready">
            ready in {formatMs(server.readyMs)}
          </span>
        )}
      </div>
      <code className="server-target" title={server.target}>
        {server.target}
      </code>

      {failed && <ErrorReason text={server.error ?? 'The server failed without giving a reason.'} />}
      {server.needsInput && (
        <p className="server-note" data-testid="server-needs-input">
          Waiting for a value for <code>{`\${input:${server.needsInput}}`}</code> before it can start.
        </p>
      )}
      {server.needsInput && <InputPrompt server={server.name} inputId={server.needsInput} />}
      {/* The server page shows the same card: only one of them at a time. */}
      {!pageOpen && <ConsentCard server={server} />}
      {!pageOpen && <AuthCard server={server} compact />}
      <RestartInfo server={server} />
      {restartError && (
        <div className="server-error" role="alert" data-testid="restart-error">
          Restart failed: {restartError}
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
  if (scheduled === undefined && server.restarts === 0) return null;
  const seconds = scheduled === undefined ? 0 : Math.max(0, Math.ceil((scheduled - now) / 1000));
  return (
    <p className="server-restarts muted" data-testid="server-restarts">
      {scheduled !== undefined && <span>Restarting automatically in {seconds} s. </span>}
      {server.restarts > 0 && (
        <span>
          Restarted {server.restarts} {server.restarts === 1 ? 'time' : 'times'} automatically.
        </span>
      )}
    </p>
  );
}
