import { useApp } from '../hooks/useApp';
import { ServerRow } from './ServerRow';

export function ServerList() {
  const servers = useApp((s) => s.servers);
  const loaded = useApp((s) => s.serversLoaded);
  const readyCount = servers.filter((s) => s.status === 'ready').length;
  return (
    <aside className="sidebar" aria-label="Servers">
      <div className="sidebar-head">
        <h2>Servers</h2>
        {loaded && (
          <span className="muted" data-testid="server-count">
            {readyCount}/{servers.length} ready
          </span>
        )}
      </div>
      {!loaded && <p className="muted sidebar-empty">Connecting to the host…</p>}
      {loaded && servers.length === 0 && (
        <p className="muted sidebar-empty">No servers configured. Add one under "mcpServers" in the config file.</p>
      )}
      <ul className="server-list">
        {servers.map((server) => (
          <ServerRow key={server.name} server={server} />
        ))}
      </ul>
    </aside>
  );
}
