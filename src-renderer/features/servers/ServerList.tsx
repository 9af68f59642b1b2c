import { useMemo } from 'react';
import { useApp } from '../../store/useApp';
import { matchesServerFilter } from '../../store/sidebar-slice';
import { ServerRow } from './ServerRow';
import { useT } from '../../i18n';
import { filterShortcutLabel } from '../../app/shortcut-keys';

export const serverFilterId = 'server-filter';

export function ServerList() {
  const servers = useApp((s) => s.servers);
  const loaded = useApp((s) => s.serversLoaded);
  // Status is main's: while main cannot be reached, what the list last heard may no longer be true.
  const unreachable = useApp((s) => s.connection.status !== 'open');
  const readyCount = servers.filter((s) => s.status === 'ready').length;
  const collapsed = useApp((s) => s.sidebarCollapsed);
  const toggle = useApp((s) => s.toggleSidebar);
  const filter = useApp((s) => s.serverFilter);
  const setFilter = useApp((s) => s.setServerFilter);
  const shown = useMemo(() => servers.filter((server) => matchesServerFilter(server, filter)), [servers, filter]);
  const t = useT();
  const count = unreachable ? t('sidebar.unknownCount', { total: servers.length }) : t('sidebar.ready', { ready: readyCount, total: servers.length });
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
            <span
              className="muted"
              data-testid="server-count"
              title={unreachable ? t('sidebar.unreachable') : t('sidebar.readyTitle', { ready: readyCount, total: servers.length })}
            >
              {unreachable ? t('sidebar.unknownCount', { total: servers.length }) : `${readyCount}/${servers.length}`}
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
          <span className="muted" data-testid="server-count" title={unreachable ? t('sidebar.unreachable') : undefined}>
            {count}
          </span>
        )}
        {toggleButton}
      </div>
      {loaded && servers.length > 0 && (
        <div className="sidebar-filter">
          <input
            id={serverFilterId}
            type="search"
            data-testid="server-filter"
            aria-label={t('sidebar.filter')}
            aria-keyshortcuts="Control+K Meta+K"
            placeholder={t('sidebar.filterPlaceholder', { key: filterShortcutLabel(t) })}
            value={filter}
            spellCheck={false}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              // Esc empties the filter first (the browser does too), and only then leaves the field alone.
              if (e.key === 'Escape' && filter !== '') {
                e.preventDefault();
                setFilter('');
              }
            }}
          />
        </div>
      )}
      {loaded && unreachable && (
        <p className="sidebar-note" role="status" data-testid="sidebar-unreachable">
          {t('sidebar.unreachable')}
        </p>
      )}
      {!loaded && <p className="muted sidebar-empty">{t('sidebar.connecting')}</p>}
      {loaded && servers.length === 0 && <p className="muted sidebar-empty">{t('sidebar.empty')}</p>}
      {loaded && servers.length > 0 && shown.length === 0 && (
        <p className="muted sidebar-empty" data-testid="server-filter-empty">
          {t('sidebar.noMatch', { filter: filter.trim() })}
        </p>
      )}
      <ul className="server-list">
        {shown.map((server) => (
          <ServerRow key={server.name} server={server} unreachable={unreachable} />
        ))}
      </ul>
    </aside>
  );
}
