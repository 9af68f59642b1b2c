import { useApp } from '../../store/useApp';
import { ServerRow } from './ServerRow';
import { useT } from '../../i18n';

export function ServerList() {
  const servers = useApp((s) => s.servers);
  const loaded = useApp((s) => s.serversLoaded);
  const readyCount = servers.filter((s) => s.status === 'ready').length;
  const collapsed = useApp((s) => s.sidebarCollapsed);
  const toggle = useApp((s) => s.toggleSidebar);
  const t = useT();
  const toggleButton = (
    <button
      type="button"
      className="btn btn-ghost btn-small sidebar-toggle"
      data-testid="sidebar-toggle"
      aria-expanded={!collapsed}
      aria-controls="server-sidebar"
      aria-label={collapsed ? t('sidebar.show') : t('sidebar.hide')}
      title={collapsed ? t('sidebar.show') : t('sidebar.hide')}
      onClick={toggle}
    >
      {collapsed ? '»' : '«'}
    </button>
  );
  if (collapsed) {
    return (
      <aside className="sidebar collapsed" aria-label={t('sidebar.label')} id="server-sidebar" data-testid="server-sidebar" data-collapsed="true">
        <div className="sidebar-head">
          {toggleButton}
          {loaded && (
            <span className="muted" data-testid="server-count" title={t('sidebar.readyTitle', { ready: readyCount, total: servers.length })}>
              {readyCount}/{servers.length}
            </span>
          )}
        </div>
      </aside>
    );
  }
  return (
    <aside className="sidebar" aria-label={t('sidebar.label')} id="server-sidebar" data-testid="server-sidebar">
      <div className="sidebar-head">
        <h2>{t('sidebar.heading')}</h2>
        {loaded && (
          <span className="muted" data-testid="server-count">
            {t('sidebar.ready', { ready: readyCount, total: servers.length })}
          </span>
        )}
        {toggleButton}
      </div>
      {!loaded && <p className="muted sidebar-empty">{t('sidebar.connecting')}</p>}
      {loaded && servers.length === 0 && <p className="muted sidebar-empty">{t('sidebar.empty')}</p>}
      <ul className="server-list">
        {servers.map((server) => (
          <ServerRow key={server.name} server={server} />
        ))}
      </ul>
    </aside>
  );
}
