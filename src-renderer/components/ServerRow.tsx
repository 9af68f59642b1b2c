import type { ServerView } from '../../src-shared/host-api';
import { useApp } from '../hooks/useApp';
import { StatusDot, statusLabel } from './StatusDot';
import { StderrTail } from './StderrTail';
import { ToolList } from './ToolList';

export function ServerRow({ server }: { server: ServerView }) {
  const restarting = useApp((s) => s.restarting[server.name] === true);
  const restartError = useApp((s) => s.restartErrors[server.name]);
  const restart = useApp((s) => s.restart);
  const headingId = `server-${server.name}-name`;

  return (
    <li
      className={`server-row server-${server.status}`}
      data-testid="server-row"
      data-server={server.name}
      data-status={server.status}
      aria-labelledby={headingId}
    >
      <div className="server-head">
        <StatusDot status={server.status} />
        <h3 id={headingId} className="server-name" title={server.name}>
          {server.name}
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
      </div>
      <code className="server-target" title={server.target}>
        {server.target}
      </code>

      {server.status === 'error' && (
        <div className="server-error" role="status" data-testid="server-error">
          {server.error ?? 'The server failed without giving a reason.'}
        </div>
      )}
      {restartError && (
        <div className="server-error" role="alert" data-testid="restart-error">
          Restart failed: {restartError}
        </div>
      )}

      {server.status === 'ready' && <ToolList server={server} />}
      <StderrTail lines={server.stderrTail} />
    </li>
  );
}
