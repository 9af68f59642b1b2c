import { useApp } from '../hooks/useApp';
import { ServerRow } from './ServerRow';

export function ServerList() {
  const servers = useApp((s) => s.servers);
  const loaded = useApp((s) => s.serversLoaded);
  const readyCount = servers.filter((s) => s.status === 'ready').length;
  const collapsed = useApp((s) => s.sidebarCollapsed);
  const toggle = useApp((s) => s.toggleSidebar);
  const toggleButton = (
    <button
      type="button"
      className="btn btn-ghost btn-small sidebar-toggle"
      data-testid="sidebar-toggle"
      aria-expanded={!collapsed}
      aria-controls="server-sidebar"
      aria-label={collapsed ? 'Show the servers list' : 'Hide the servers list'}
      title={collapsed ? 'Show the servers list' : 'Hide the servers list'}
      onClick={toggle}
    >
      {collapsed ? '»' : '«'}
    </button>
  );
  if (collapsed) {
    return (
      <aside className="sidebar collapsed" aria-label="Servers" id="server-sidebar" data-testid="server-sidebar" data-collapsed="true">
        <div className="sidebar-head">
          {toggleButton}
          {loaded && (
            <span className="muted" data-testid="server-count" title={`${readyCount} of ${servers.length} servers ready`}>
              {readyCount}/{servers.length}
            </span>
          )}
        </div>
      </aside>
    );
  }
  return (
    <aside className="sidebar" aria-label="Servers" id="server-sidebar" data-testid="server-sidebar">
      <div className="sidebar-head">
        <h2>Servers</h2>
        {loaded && (
          <span className="muted" data-testid="server-count">
            {readyCount}/{servers.length} ready
          </span>
        )}
        {toggleButton}
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
