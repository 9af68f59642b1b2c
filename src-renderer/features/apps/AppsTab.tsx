import { useEffect, useRef, useState } from 'react';
import type { AppCsp, AppPermissions, UiAppInfo } from '../../../src-shared/contract/apps';
import type { ToolResult } from '../../../src-shared/contract/tools';
import type { ServerView } from '../../../src-shared/host-api';
import { describeError } from '../../host/bridge-client';
import { useT } from '../../i18n';
import { useApp } from '../../store/useApp';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { formatClock } from '../../ui/search';
import { AppSlot } from './AppView';
import { hasRequiredArguments, lastToolResult } from './apps-tab';
import './apps-tab.css';

/** The app the tab shows: opened with a call's result (or none yet), or with a call it started. */
interface Opened {
  tool: string;
  title: string;
  /** Names this app instance (its model context) and, for a run, the host's call. */
  callId: string;
  args: Record<string, unknown>;
  result?: ToolResult;
  cancelled?: string;
  /** Epoch ms of the call whose result it shows. */
  at?: number;
  running?: boolean;
}

const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const satisfies ReadonlyArray<keyof AppCsp>;
const permissionKeys: Array<keyof AppPermissions> = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** A server page's Apps tab: its tools with a UI (`apps:list`), each openable with its tool's last result. */
export function AppsTab({ server }: { server: ServerView }) {
  const name = server.name;
  const list = useApp((s) => s.appLists[name]);
  const load = useApp((s) => s.loadAppList);
  const hostCalls = useApp((s) => s.hostCalls);
  const run = useApp((s) => s.runAppTool);
  const t = useT();
  const [opened, setOpened] = useState<Opened | undefined>(undefined);
  const [runError, setRunError] = useState<string | undefined>(undefined);
  const panel = useRef<HTMLElement>(null);
  const openCount = useRef(0);

  useEffect(() => {
    if (opened) panel.current?.scrollIntoView({ block: 'nearest' });
  }, [opened?.callId]);

  const open = (app: UiAppInfo): void => {
    setRunError(undefined);
    const last = lastToolResult(hostCalls, name, app.tool);
    openCount.current += 1;
    const callId = `apps-tab-${name}-${app.tool}-${openCount.current}`;
    setOpened(
      last?.result
        ? { tool: app.tool, title: app.title, callId, args: last.args, result: last.result, at: last.finishedAt ?? last.startedAt }
        : { tool: app.tool, title: app.title, callId, args: {} },
    );
  };

  const runTool = (app: UiAppInfo): void => {
    setRunError(undefined);
    const { callId, done } = run(name, app.tool);
    setOpened({ tool: app.tool, title: app.title, callId, args: {}, running: true });
    done.then(
      (result) => setOpened((o) => (o?.callId === callId ? { ...o, result, running: false, at: Date.now() } : o)),
      (error: unknown) => {
        const message = describeError(error).message;
        setRunError(t('appsTab.runFailed', { error: message }));
        setOpened((o) => (o?.callId === callId ? { ...o, cancelled: message, running: false } : o));
      },
    );
  };

  const apps = list?.value ?? [];
  const tool = (toolName: string) => server.tools.find((x) => x.name === toolName);
  return (
    <div className="apps-tab" data-testid="apps-tab">
      <div className="apps-tab-toolbar">
        <p className="muted">{t('appsTab.intro', { server: name })}</p>
        <ReloadButton label={t('appsTab.refresh')} title={t('appsTab.refresh')} onClick={() => void load(name)} />
      </div>
      {list?.state === 'error' && <ErrorNote testId="apps-list-error">{t('appsTab.listFailed', { error: list.message })}</ErrorNote>}
      {list?.state === 'loading' && list.value === undefined && <p className="muted tab-note">{t('appsTab.loading')}</p>}
      {list?.state === 'ok' && apps.length === 0 && (
        <p className="muted tab-note" data-testid="apps-empty">
          {server.status === 'ready' ? t('appsTab.empty', { server: name }) : t('appsTab.notReady', { server: name })}
        </p>
      )}
      {apps.length > 0 && (
        <ul className="apps-tab-list" aria-label={t('appsTab.listLabel', { server: name })}>
          {apps.map((app) => {
            const info = tool(app.tool);
            const needsReview = app.review !== 'trusted';
            const blocked = app.status === 'invalid' ? (app.problem ?? t('appsTab.status.invalid')) : needsReview ? t('appsTab.needsReview') : undefined;
            const appOnly = !app.visibility.includes('model');
            const canRun = blocked === undefined && !appOnly && server.status === 'ready' && !hasRequiredArguments(info?.inputSchema);
            const isOpen = opened?.tool === app.tool;
            return (
              <li key={app.tool} className="apps-tab-row" data-testid="apps-row" data-tool={app.tool}>
                <div className="apps-tab-head">
                  <h3>{app.title}</h3>
                  <code>{app.tool}</code>
                  <span className={`chip ${app.status === 'ok' ? 'chip-ok' : 'chip-err'}`} data-testid="apps-status">
                    {t(`appsTab.status.${app.status}`)}
                  </span>
                  <span className={`chip${needsReview ? ' chip-err' : ''}`} data-testid="apps-review">
                    {t(`appsTab.review.${app.review}`)}
                  </span>
                  <span className="spacer" />
                  <button
                    type="button"
                    className="btn btn-small btn-primary"
                    data-testid="apps-open"
                    aria-label={t('appsTab.openLabel', { title: app.title })}
                    disabled={blocked !== undefined}
                    onClick={() => open(app)}
                  >
                    {t('appsTab.open')}
                  </button>
                  {canRun && (
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="apps-run"
                      aria-label={t('appsTab.runLabel', { tool: app.tool })}
                      disabled={isOpen && opened?.running === true}
                      onClick={() => runTool(app)}
                    >
                      {t('appsTab.run')}
                    </button>
                  )}
                </div>
                <dl className="apps-tab-facts">
                  <dt>{t('appsTab.resource')}</dt>
                  <dd>
                    <code data-testid="apps-resource">{app.resourceUri}</code>
                  </dd>
                  <dt>{t('appsTab.visibility')}</dt>
                  <dd data-testid="apps-visibility">{app.visibility.map((v) => t(`appsTab.visible.${v}`)).join(', ')}</dd>
                  <dt>{t('appsTab.csp')}</dt>
                  <dd data-testid="apps-csp">
                    {cspKeys.some((k) => (app.csp?.[k]?.length ?? 0) > 0) || app.csp?.wasmUnsafeEval === true
                      ? cspKeys
                          .filter((k) => (app.csp?.[k]?.length ?? 0) > 0)
                          .map((k) => (
                            <span key={k} className="apps-tab-csp">
                              {k}: <code>{app.csp?.[k]?.join(' ')}</code>
                            </span>
                          ))
                          .concat(
                            app.csp?.wasmUnsafeEval === true ? (
                              <span key="wasm" className="apps-tab-csp">
                                {t('appsTab.wasm')}
                              </span>
                            ) : (
                              []
                            ),
                          )
                      : t('appsTab.cspNone')}
                  </dd>
                  <dt>{t('appsTab.permissions')}</dt>
                  <dd data-testid="apps-permissions">
                    {permissionKeys.some((k) => app.permissions?.[k] !== undefined)
                      ? permissionKeys
                          .filter((k) => app.permissions?.[k] !== undefined)
                          .map((k) => t(`apps.permission.${k}`))
                          .join(', ')
                      : t('appsTab.permissionsNone')}
                  </dd>
                </dl>
                {blocked !== undefined && (
                  <p className="muted apps-tab-blocked" data-testid="apps-blocked">
                    {t('appsTab.cannotOpen', { reason: blocked })}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {runError && <ErrorNote testId="apps-run-error">{runError}</ErrorNote>}
      {opened && (
        <section ref={panel} className="apps-tab-open" aria-label={t('apps.label', { title: opened.title })} data-testid="apps-open-panel">
          <div className="apps-tab-open-head">
            <span className="muted" data-testid="apps-open-note">
              {opened.running === true
                ? t('appsTab.running')
                : opened.result
                  ? t('appsTab.withResult', { time: formatClock(opened.at ?? Date.now()) })
                  : opened.cancelled === undefined
                    ? t('appsTab.noResult')
                    : ''}
            </span>
            <span className="spacer" />
            <button type="button" className="btn btn-small" data-testid="apps-close" onClick={() => setOpened(undefined)}>
              {t('appsTab.close')}
            </button>
          </div>
          <AppSlot
            key={opened.callId}
            server={name}
            tool={opened.tool}
            args={opened.args}
            result={opened.result}
            callId={opened.callId}
            {...(opened.cancelled !== undefined ? { cancelled: opened.cancelled } : {})}
          />
        </section>
      )}
    </div>
  );
}
