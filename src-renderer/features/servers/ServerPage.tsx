import type { ServerView } from '../../../src-shared/host-api';
import { diagnosticReason } from './diagnostics';
import { StatusDot, useStatusLabel } from './StatusDot';
import { useApp } from '../../store/useApp';
import { useServer } from '../../store/useServer';
import type { ServerTab } from '../../store/feature-types';
import { ErrorNote } from '../../ui/FeatureParts';
import { formatClock, formatMs } from '../../ui/search';
import { Tabs, tabPanelProps, type TabSpec } from '../../ui/Tabs';
import { LogsTab } from '../logs/LogsTab';
import { PromptsTab } from '../prompts/PromptsTab';
import { ResourcesTab } from '../resources/ResourcesTab';
import { AppsTab } from '../apps/AppsTab';
import { SkillsTab } from '../skills/SkillsTab';
import { AuthCard } from '../auth/AuthCard';
import { ConsentCard } from '../consent/ConsentCard';
import { ToolCatalogue } from '../tools/ToolCatalogue';
import { TraceTab } from '../trace/TraceTab';
import './server-page.css';
import { Trans } from 'react-i18next';
import { formatCount, reasonText, useT } from '../../i18n';

const idPrefix = 'server-page';

/** A server's page: its header (status, health, what it offers, debug bundle) and tabs Tools · Resources · Prompts · Apps · (Skills) · Logs · Trace. */
export function ServerPage() {
  const page = useApp((s) => s.serverPage);
  const close = useApp((s) => s.closeServerPage);
  const setTab = useApp((s) => s.setServerTab);
  const t = useT();
  const server = useServer(page?.server ?? '');
  const resourceList = useApp((s) => (page ? s.resourceLists[page.server]?.value : undefined));
  const promptList = useApp((s) => (page ? s.promptLists[page.server]?.value : undefined));
  const appList = useApp((s) => (page ? s.appLists[page.server] : undefined));
  const skillList = useApp((s) => (page ? s.skillLists[page.server]?.value : undefined));
  if (!page) return null;
  if (!server) {
    return (
      <main className="server-page" aria-label={t('serverPage.label', { server: page.server })} data-testid="server-page">
        <div className="server-page-head">
          <BackButton onClick={close} />
          <p className="muted">{t('serverPage.gone', { server: page.server })}</p>
        </div>
      </main>
    );
  }
  const resourceCount = resourceList
    ? resourceList.resources.length + resourceList.templates.length
    : server.counts
      ? server.counts.resources + server.counts.templates
      : undefined;
  const appCount = appList?.value ? appList.value.length : undefined;
  const promptCount = promptList ? promptList.prompts.length : server.counts?.prompts;
  const tabs: Array<TabSpec<ServerTab>> = [
    { id: 'tools', label: t('serverPage.tabs.tools'), badge: server.tools.length },
    { id: 'resources', label: t('serverPage.tabs.resources'), badge: resourceCount },
    { id: 'prompts', label: t('serverPage.tabs.prompts'), badge: promptCount },
    { id: 'apps', label: t('serverPage.tabs.apps'), badge: appCount },
    // Only for servers that declare the Skills extension.
    ...(server.capabilities?.skills === true || page.tab === 'skills'
      ? [{ id: 'skills' as const, label: t('serverPage.tabs.skills'), badge: skillList ? skillList.skills.length : server.counts?.skills }]
      : []),
    { id: 'logs', label: t('serverPage.tabs.logs') },
    { id: 'trace', label: t('serverPage.tabs.trace') },
  ];

  return (
    <main className="server-page" aria-label={t('serverPage.label', { server: server.name })} data-testid="server-page" data-server={server.name}>
      <ServerHeader server={server} onBack={close} />
      <ConsentCard server={server} />
      <AuthCard server={server} />
      <Tabs
        label={t('serverPage.offers', { server: server.name })}
        idPrefix={idPrefix}
        tabs={tabs}
        selected={page.tab}
        onSelect={setTab}
        className="server-tabs"
      />
      <div className="server-tab-panel" {...tabPanelProps(idPrefix, page.tab)} data-testid={`panel-${page.tab}`}>
        {page.tab === 'tools' && <ToolsTab server={server} />}
        {page.tab === 'resources' && <ResourcesTab server={server} />}
        {page.tab === 'prompts' && <PromptsTab server={server} />}
        {page.tab === 'apps' && <AppsTab server={server} />}
        {page.tab === 'skills' && <SkillsTab server={server} />}
        {page.tab === 'logs' && <LogsTab server={server} />}
        {page.tab === 'trace' && <TraceTab server={server} />}
      </div>
    </main>
  );
}

function BackButton({ onClick }: { onClick(): void }) {
  const t = useT();
  return (
    <button type="button" className="btn btn-small btn-ghost" data-testid="server-page-close" aria-label={t('serverPage.back')} onClick={onClick}>
      {t('serverPage.backButton')}
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
  const t = useT();
  const list = names === '' ? [] : names.split('\u0000');
  if (list.length < 2) return null;
  return (
    <select className="server-switcher narrow-only" aria-label={t('serverPage.switcher')} value={current} onChange={(e) => open(e.target.value, tab)}>
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
  ['skills', 'skills'],
];

function ServerHeader({ server, onBack }: { server: ServerView; onBack(): void }) {
  const ping = useApp((s) => s.pings[server.name]);
  const pingServer = useApp((s) => s.pingServer);
  const bundle = useApp((s) => s.bundle);
  const exportBundle = useApp((s) => s.exportDebugBundle);
  const t = useT();
  const statusLabel = useStatusLabel();
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
          {server.disabled ? t('serverRow.disabled') : statusLabel(server.status)}
        </span>
        {health && (
          <span
            className={`chip ${health.ok ? 'chip-ok' : 'chip-err'}`}
            data-testid="server-health"
            title={
              health.error !== undefined
                ? diagnosticReason('ping', health.error, health.errorInfo)
                : health.lastPingAt
                  ? t('serverPage.lastPing', { time: formatClock(health.lastPingAt) })
                  : undefined
            }
          >
            {health.ok ? t('serverPage.healthy') : t('serverPage.unhealthy')}
            {health.lastPingMs !== undefined && ` · ${formatMs(health.lastPingMs)}`}
          </span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="btn btn-small"
          data-testid="server-ping"
          disabled={server.status !== 'ready' || ping?.state === 'loading'}
          onClick={() => void pingServer(server.name)}
        >
          {ping?.state === 'loading' ? t('serverPage.pinging') : t('serverPage.ping')}
        </button>
        {ping?.state === 'ok' && (
          <span className="muted" data-testid="server-ping-result" title={t('serverPage.pingAt', { method: ping.value.method, time: formatClock(ping.at) })}>
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
          title={t('serverPage.bundleTitle')}
          onClick={() => void exportBundle([server.name])}
        >
          {bundle?.state === 'loading' ? t('debugBundle.exporting') : t('debugBundle.export')}
        </button>
      </div>
      <div className="server-meta server-page-meta">
        <span className="chip" title={t('serverRow.transport')}>
          {server.transport}
        </span>
        {server.protocolVersion && (
          <span className="chip" title={server.era ? t('serverPage.protocolEra', { era: server.era }) : t('serverRow.protocol')}>
            {server.protocolVersion}
          </span>
        )}
        {server.serverInfo && (
          <span className="muted server-info">
            {server.serverInfo.name} {server.serverInfo.version}
          </span>
        )}
        {offered.length > 0 && (
          <span className="capabilities" aria-label={t('serverPage.capabilities')} data-testid="server-capabilities">
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
          <Trans
            i18nKey="serverPage.bundleWritten"
            values={{ size: formatCount(Math.round(bundle.value.bytes / 1024)), path: bundle.value.path }}
            components={{ code: <code /> }}
          />
        </p>
      )}
      {bundle?.state === 'error' && <ErrorNote testId="debug-bundle-error">{t('serverPage.bundleFailed', { error: bundle.message })}</ErrorNote>}
      {server.status !== 'ready' && server.error && <p className="server-error">{reasonText(server.error, server.errorInfo)}</p>}
      {server.instructions && (
        <details className="server-instructions" data-testid="server-instructions">
          <summary>{t('serverPage.instructions')}</summary>
          <pre className="block-text">{server.instructions}</pre>
        </details>
      )}
    </div>
  );
}
