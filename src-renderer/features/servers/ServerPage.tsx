import type { ServerView } from '../../../src-shared/host-api';
import { StatusDot, statusLabel } from '../../components/StatusDot';
import { useApp } from '../../hooks/useApp';
import { useServer } from '../../hooks/useServer';
import type { ServerTab } from '../../store/feature-types';
import { ErrorNote } from '../../ui/FeatureParts';
import { formatClock, formatMs } from '../../ui/search';
import { Tabs, tabPanelProps, type TabSpec } from '../../ui/Tabs';
import { LogsTab } from '../logs/LogsTab';
import { PromptsTab } from '../prompts/PromptsTab';
import { ResourcesTab } from '../resources/ResourcesTab';
import { AuthCard } from '../auth/AuthCard';
import { ConsentCard } from '../consent/ConsentCard';
import { ToolCatalogue } from '../tools/ToolCatalogue';
import { TraceTab } from '../trace/TraceTab';
import '../features.css';

const idPrefix = 'server-page';

/** A server's page: its header (status, health, what it offers, debug bundle) and tabs Tools · Resources · Prompts · Logs · Trace. */
export function ServerPage() {
  const page = useApp((s) => s.serverPage);
  const close = useApp((s) => s.closeServerPage);
  const setTab = useApp((s) => s.setServerTab);
  const server = useServer(page?.server ?? '');
  const resourceList = useApp((s) => (page ? s.resourceLists[page.server]?.value : undefined));
  const promptList = useApp((s) => (page ? s.promptLists[page.server]?.value : undefined));
  if (!page) return null;
  if (!server) {
    return (
      <main className="server-page" aria-label={`Server ${page.server}`} data-testid="server-page">
        <div className="server-page-head">
          <BackButton onClick={close} />
          <p className="muted">Server "{page.server}" is no longer configured.</p>
        </div>
      </main>
    );
  }
  const resourceCount = resourceList ? resourceList.resources.length + resourceList.templates.length : server.counts ? server.counts.resources + server.counts.templates : undefined;
  const promptCount = promptList ? promptList.prompts.length : server.counts?.prompts;
  const tabs: Array<TabSpec<ServerTab>> = [
    { id: 'tools', label: 'Tools', badge: server.tools.length },
    { id: 'resources', label: 'Resources', badge: resourceCount },
    { id: 'prompts', label: 'Prompts', badge: promptCount },
    { id: 'logs', label: 'Logs' },
    { id: 'trace', label: 'Trace' },
  ];

  return (
    <main className="server-page" aria-label={`Server ${server.name}`} data-testid="server-page" data-server={server.name}>
      <ServerHeader server={server} onBack={close} />
      <ConsentCard server={server} />
      <AuthCard server={server} />
      <Tabs label={`${server.name}: what it offers`} idPrefix={idPrefix} tabs={tabs} selected={page.tab} onSelect={setTab} className="server-tabs" />
      <div className="server-tab-panel" {...tabPanelProps(idPrefix, page.tab)} data-testid={`panel-${page.tab}`}>
        {page.tab === 'tools' && <ToolsTab server={server} />}
        {page.tab === 'resources' && <ResourcesTab server={server} />}
        {page.tab === 'prompts' && <PromptsTab server={server} />}
        {page.tab === 'logs' && <LogsTab server={server} />}
        {page.tab === 'trace' && <TraceTab server={server} />}
      </div>
    </main>
  );
}

function BackButton({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="btn btn-small btn-ghost" data-testid="server-page-close" aria-label="Back to the chat" onClick={onClick}>
      ← Chat
    </button>
  );
}

function ToolsTab({ server }: { server: ServerView }) {
  const selected = useApp((s) => s.serverPage?.tool);
  const select = useApp((s) => s.selectCatalogueTool);
  const selectTool = useApp((s) => s.selectTool);
  const close = useApp((s) => s.closeServerPage);
  return (
    <ToolCatalogue
      server={server.name}
      tools={server.tools}
      ready={server.status === 'ready'}
      selected={selected}
      onSelect={select}
      onOpenForm={(tool) => {
        selectTool({ server: server.name, tool });
        close();
      }}
    />
  );
}

/** Another server's page, same tab (shown when the sidebar is hidden, on narrow windows). */
function ServerSwitcher({ current }: { current: string }) {
  const names = useApp((s) => s.servers.map((v) => v.name).join('\u0000'));
  const tab = useApp((s) => s.serverPage?.tab);
  const open = useApp((s) => s.openServerPage);
  const list = names === '' ? [] : names.split('\u0000');
  if (list.length < 2) return null;
  return (
    <select className="server-switcher narrow-only" aria-label="Show another server" value={current} onChange={(e) => open(e.target.value, tab)}>
      {list.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}

const capabilityNames: Array<[keyof NonNullable<ServerView['capabilities']>, string]> = [
  ['tools', 'tools'],
  ['resources', 'resources'],
  ['subscribe', 'subscribe'],
  ['prompts', 'prompts'],
  ['completions', 'completions'],
  ['logging', 'logging'],
  ['tasks', 'tasks'],
];

function ServerHeader({ server, onBack }: { server: ServerView; onBack(): void }) {
  const ping = useApp((s) => s.pings[server.name]);
  const pingServer = useApp((s) => s.pingServer);
  const bundle = useApp((s) => s.bundle);
  const exportBundle = useApp((s) => s.exportDebugBundle);
  const health = server.health;
  const offered = server.capabilities ? capabilityNames.filter(([k]) => server.capabilities?.[k] === true) : [];
  return (
    <div className="server-page-head">
      <div className="server-page-title">
        <BackButton onClick={onBack} />
        <ServerSwitcher current={server.name} />
        <StatusDot status={server.status} />
        <h2 title={server.name}>{server.name}</h2>
        <span className={`status-label status-text-${server.status}`} data-testid="server-page-status">
          {server.disabled ? 'Disabled' : statusLabel[server.status]}
        </span>
        {health && (
          <span className={`chip ${health.ok ? 'chip-ok' : 'chip-err'}`} data-testid="server-health" title={health.error ?? (health.lastPingAt ? `Last ping at ${formatClock(health.lastPingAt)}` : undefined)}>
            {health.ok ? 'healthy' : 'unhealthy'}
            {health.lastPingMs !== undefined && ` · ${formatMs(health.lastPingMs)}`}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-small" data-testid="server-ping" disabled={server.status !== 'ready' || ping?.state === 'loading'} onClick={() => void pingServer(server.name)}>
          {ping?.state === 'loading' ? 'Pinging…' : 'Ping'}
        </button>
        {ping?.state === 'ok' && (
          <span className="muted" data-testid="server-ping-result" title={`${ping.value.method} at ${formatClock(ping.at)}`}>
            {ping.value.method === 'ping' ? 'ping' : 'discover'} {formatMs(ping.value.ms)}
          </span>
        )}
        {ping?.state === 'error' && (
          <span className="call-error" role="alert" data-testid="server-ping-error">
            {ping.message}
          </span>
        )}
        <button
          type="button"
          className="btn btn-small"
          data-testid="debug-bundle"
          disabled={bundle?.state === 'loading'}
          title="Writes a JSON file with the config (values redacted), versions, launch info, stderr tail and protocol trace, for a bug report"
          onClick={() => void exportBundle([server.name])}
        >
          {bundle?.state === 'loading' ? 'Exporting…' : 'Export debug bundle'}
        </button>
      </div>
      <div className="server-meta server-page-meta">
        <span className="chip" title="Transport">
          {server.transport}
        </span>
        {server.protocolVersion && (
          <span className="chip" title={`Protocol revision${server.era ? ` (${server.era} era)` : ''}`}>
            {server.protocolVersion}
          </span>
        )}
        {server.serverInfo && (
          <span className="muted server-info">
            {server.serverInfo.name} {server.serverInfo.version}
          </span>
        )}
        {offered.length > 0 && (
          <span className="capabilities" aria-label="Capabilities" data-testid="server-capabilities">
            {offered.map(([k, label]) => (
              <span key={k} className="tag">
                {label}
              </span>
            ))}
          </span>
        )}
        <code className="server-target" title={server.target}>
          {server.target}
        </code>
      </div>
      {bundle?.state === 'ok' && (
        <p className="bundle-note" role="status" data-testid="debug-bundle-path">
          Debug bundle written ({Math.round(bundle.value.bytes / 1024)} KB): <code>{bundle.value.path}</code>
        </p>
      )}
      {bundle?.state === 'error' && (
        <ErrorNote testId="debug-bundle-error">Could not export the debug bundle: {bundle.message}</ErrorNote>
      )}
      {server.status !== 'ready' && server.error && <p className="server-error">{server.error}</p>}
      {server.instructions && (
        <details className="server-instructions" data-testid="server-instructions">
          <summary>Instructions from the server</summary>
          <pre className="block-text">{server.instructions}</pre>
        </details>
      )}
    </div>
  );
}
