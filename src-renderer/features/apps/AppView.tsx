import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { AppBridge, buildAllowAttribute, type McpUiDisplayMode, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CreateMessageResult, Tool } from '@modelcontextprotocol/client';
import type { AppFrame, AppPermissionName } from '../../../src-shared/contract/apps';
import type { ToolInfo, ToolResult } from '../../../src-shared/contract/tools';
import { toolResourceUri } from '../../../src-shared/tool-ui';
import { describeError } from '../../host/bridge-client';
import { currentLanguage, useT } from '../../i18n';
import { appLogLevel } from '../../store/apps-slice';
import { useApp } from '../../store/useApp';
import { downloadContents } from '../resources/download';
import {
  availableDisplayModes,
  boundedHeight,
  buildHostContext,
  checkAppLink,
  contentText,
  frameGone,
  hostStyleVariables,
  inlineHeight,
  innerSandbox,
  maxAppText,
  outerSandbox,
  permissionsMissing,
  permissionsObject,
  pipSize,
  toCallToolResult,
  toReadResourceResult,
} from './app-host';
import { SandboxTransport } from './sandbox-transport';
import './apps.css';

export interface AppCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Undefined while the call runs. */
  result: ToolResult | undefined;
  /** The call ended without a result (cancelled, failed): why. */
  cancelled?: string;
  /** The card's call id: names this app instance (its model context). */
  callId: string;
  /**
   * The model is still writing the arguments: `args` is what it wrote so far, sent as `tool-input-partial` (each
   * time it grows) instead of `tool-input`.
   */
  partial?: boolean;
}

/** The tool's definition, when it has an app the host read and found valid. */
function useAppTool(server: string, tool: string): ToolInfo | undefined {
  return useApp((s) => {
    const found = s.servers.find((v) => v.name === server)?.tools.find((t) => t.name === tool);
    return found !== undefined && toolResourceUri(found) !== undefined && found.app?.status !== 'invalid' ? found : undefined;
  });
}

/** A call card's app, when its tool has one (`_meta.ui.resourceUri`); nothing otherwise. */
export function AppSlot(props: AppCall) {
  const tool = useAppTool(props.server, props.tool);
  if (!tool) return null;
  return <AppView {...props} toolInfo={tool} />;
}

function useDarkScheme(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia('(prefers-color-scheme: dark)');
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => window.matchMedia('(prefers-color-scheme: dark)').matches,
  );
}

function readVariable(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name);
}

type Ask =
  | { kind: 'link'; url: string; host: string; https: boolean; answer: (open: boolean) => void }
  | { kind: 'download'; names: string[]; answer: (ok: boolean) => void };

type Phase = { kind: 'opening' } | { kind: 'open'; frame: AppFrame } | { kind: 'failed'; message: string } | { kind: 'closed'; note: string };

/**
 * One MCP App: `apps:open` registers its frame with the host; the outer iframe loads the sandbox proxy on its own
 * origin, which builds the inner frame from the HTML we hand it (`sandbox-resource-ready`). Everything the app asks
 * goes through the AppBridge below, to the host by frame id, or to the person first (links, downloads, permissions).
 */
export function AppView({ server, tool, args, result, cancelled, callId, partial, toolInfo }: AppCall & { toolInfo: ToolInfo }) {
  const t = useT();
  const title = toolInfo.title ?? toolInfo.name;
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });
  const [generation, setGeneration] = useState(0);
  const [height, setHeight] = useState<number>(inlineHeight.initial);
  const [mode, setMode] = useState<McpUiDisplayMode>('inline');
  const [ask, setAsk] = useState<Ask | undefined>(undefined);
  const [notes, setNotes] = useState<string[]>([]);
  const [width, setWidth] = useState(0);
  const iframe = useRef<HTMLIFrameElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<AppBridge | undefined>(undefined);
  const initialized = useRef(false);
  const sent = useRef<{ result: boolean; cancelled: boolean }>({ result: false, cancelled: false });
  const back = useRef<HTMLButtonElement>(null);

  const openFrame = useApp((s) => s.openAppFrame);
  const closeFrame = useApp((s) => s.closeAppFrame);
  const watchFrame = useApp((s) => s.watchAppFrame);
  const callTool = useApp((s) => s.appCallTool);
  const readResource = useApp((s) => s.appReadResource);
  const sample = useApp((s) => s.appSample);
  const log = useApp((s) => s.appLog);
  const appMessage = useApp((s) => s.appMessage);
  const setAppContext = useApp((s) => s.setAppContext);
  const grant = useApp((s) => s.grantAppPermissions);
  const shellOpen = useApp((s) => s.openUrlInShell);
  const themeSetting = useApp((s) => s.appSettings?.theme ?? 'system');
  const platform = useApp((s) => (s.appInfo?.mode === 'electron' ? 'desktop' : 'web'));
  const dark = useDarkScheme();
  const theme: 'light' | 'dark' = themeSetting === 'system' ? (dark ? 'dark' : 'light') : themeSetting;
  const locale = currentLanguage();

  // One question at a time: a newer one from the app answers the older with no.
  const replaceAsk = useCallback((next: Ask) => {
    setAsk((previous) => {
      previous?.answer(false);
      return next;
    });
  }, []);
  const note = useCallback((text: string) => setNotes((n) => [...n.slice(-4), text]), []);

  // The latest call facts and context, for the bridge's handlers (set up once per frame).
  const latest = useRef({ args, result, cancelled, title, mode, partial });
  latest.current = { args, result, cancelled, title, mode, partial };

  const hostContext = useCallback((): McpUiHostContext => {
    const { mode: m } = latest.current;
    const maxHeight = m === 'fullscreen' ? window.innerHeight : m === 'pip' ? pipSize.height : inlineHeight.max;
    const measured = wrap.current?.clientWidth ?? 0;
    return {
      ...buildHostContext({
        theme,
        locale,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        platform,
        displayMode: m,
        container: { width: measured > 0 ? measured : 600, maxHeight },
        variables: hostStyleVariables(readVariable),
      }),
      toolInfo: { tool: sdkTool(toolInfo) },
    };
  }, [theme, locale, platform, toolInfo]);

  // Register the frame with the host (again after a permission is granted: the frame's `allow` changes).
  useEffect(() => {
    let frameId: string | undefined;
    let gone = false;
    setPhase({ kind: 'opening' });
    openFrame(server, tool).then(
      (frame) => {
        if (gone) {
          closeFrame(frame.frameId);
          return;
        }
        frameId = frame.frameId;
        setPhase({ kind: 'open', frame });
      },
      (error: unknown) => {
        if (!gone) setPhase({ kind: 'failed', message: describeError(error).message });
      },
    );
    return () => {
      gone = true;
      if (frameId !== undefined) closeFrame(frameId);
    };
  }, [server, tool, generation, openFrame, closeFrame]);

  const frame = phase.kind === 'open' ? phase.frame : undefined;

  // The host closed the frame itself (its server stopped, it flooded, too many were open): say why, drop the frame.
  useEffect(() => {
    if (!frame) return;
    return watchFrame(frame.frameId, ({ reason }) => setPhase({ kind: 'closed', note: t(`apps.closedBy.${reason}`, { title }) }));
  }, [frame, watchFrame, t, title]);

  // The bridge to the frame: connected before the proxy page loads, so its first message is heard.
  useEffect(() => {
    const element = iframe.current;
    const target = element?.contentWindow;
    if (!frame || !element || !target) return;
    initialized.current = false;
    sent.current = { result: false, cancelled: false };
    const bridge = new AppBridge(
      null,
      { name: 'Switchboard', version: '1' },
      {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
        sampling: {},
        sandbox: { permissions: permissionsObject(frame.permissionsGranted), csp: frame.csp },
      },
      { hostContext: hostContext() },
    );
    bridgeRef.current = bridge;
    const { frameId } = frame;

    bridge.onsandboxready = () => {
      void bridge.sendSandboxResourceReady({
        html: frame.html,
        sandbox: innerSandbox,
        csp: frame.csp,
        permissions: permissionsObject(frame.permissionsGranted),
      });
    };
    bridge.oninitialized = () => {
      initialized.current = true;
      const now = latest.current;
      if (now.partial === true) {
        void bridge.sendToolInputPartial({ arguments: now.args });
        return;
      }
      void bridge.sendToolInput({ arguments: now.args });
      if (now.result) {
        sent.current.result = true;
        void bridge.sendToolResult(toCallToolResult(now.result));
      } else if (now.cancelled !== undefined) {
        sent.current.cancelled = true;
        void bridge.sendToolCancelled({ reason: now.cancelled });
      }
    };
    bridge.onsizechange = ({ height: asked }) => setHeight((h) => boundedHeight(asked, h));
    // A refusal saying the frame is gone on the host (e.g. stopped for flooding) closes the view, with the why.
    const refused = (error: unknown): Error => {
      const described = describeError(error);
      if (frameGone(described.data)) setPhase({ kind: 'closed', note: t('apps.closedByHost', { error: described.message }) });
      return new Error(described.message);
    };
    bridge.oncalltool = async (params) => {
      try {
        return toCallToolResult(await callTool(frameId, params.name, params.arguments ?? {}));
      } catch (error) {
        throw refused(error);
      }
    };
    bridge.onreadresource = async (params) => {
      try {
        return toReadResourceResult(await readResource(frameId, params.uri));
      } catch (error) {
        throw refused(error);
      }
    };
    bridge.oncreatesamplingmessage = async (params) => {
      try {
        // The host answers in the spec's CreateMessageResult shape (the sampling feature builds it).
        return (await sample(frameId, { ...params })) as CreateMessageResult;
      } catch (error) {
        throw new Error(describeError(error).message);
      }
    };
    bridge.onloggingmessage = (params) => log(frameId, appLogLevel(params.level), params.data, params.logger);
    bridge.onmessage = async (params) => {
      const text = contentText(params.content).slice(0, maxAppText);
      if (text === '') return { isError: true };
      // Answered at once: the app waits on this, the model's reply may take long.
      void appMessage(latest.current.title, text, { server, tool });
      return {};
    };
    bridge.onupdatemodelcontext = async (params) => {
      const text = contentText(params.content, params.structuredContent).slice(0, maxAppText);
      setAppContext({ key: callId, server, tool, title: latest.current.title, text });
      return {};
    };
    bridge.onopenlink = async ({ url }) => {
      const checked = checkAppLink(url);
      if (!checked.ok) {
        note(t('apps.linkRefused', { url: String(url).slice(0, 200) }));
        return { isError: true };
      }
      const open = await new Promise<boolean>((answer) => replaceAsk({ kind: 'link', url: checked.url, host: checked.host, https: checked.https, answer }));
      return open ? {} : { isError: true };
    };
    bridge.ondownloadfile = async ({ contents }) => {
      const files = contents.flatMap((c) => (c.type === 'resource' ? [c.resource] : []));
      if (files.length === 0) return { isError: true };
      const ok = await new Promise<boolean>((answer) => replaceAsk({ kind: 'download', names: files.map((f) => f.uri), answer }));
      if (!ok) return { isError: true };
      for (const file of files) downloadContents(file);
      return {};
    };
    bridge.onrequestdisplaymode = async ({ mode: asked }) => {
      const next = availableDisplayModes.includes(asked) ? asked : latest.current.mode;
      setMode(next);
      return { mode: next };
    };
    bridge.onrequestteardown = () => {
      void bridge
        .teardownResource({}, { timeout: 1000 })
        .catch(() => undefined)
        .finally(() => setPhase({ kind: 'closed', note: t('apps.closedByApp') }));
    };

    const transport = new SandboxTransport(target, frame.sandboxOrigin);
    let live = true;
    void bridge.connect(transport).then(() => {
      if (live) element.src = frame.sandboxUrl;
    });
    return () => {
      live = false;
      bridgeRef.current = undefined;
      // Best effort: the frame goes with the card, the app may not get to answer.
      if (initialized.current) void bridge.teardownResource({}, { timeout: 500 }).catch(() => undefined);
      void bridge.close().catch(() => undefined);
      element.removeAttribute('src');
    };
    // The bridge lives as long as the frame; the rest is read through `latest` and the context effect below.
  }, [frame]);

  // The model writes more of the arguments after the app is up.
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (!bridge || !initialized.current || partial !== true) return;
    void bridge.sendToolInputPartial({ arguments: args });
  }, [args, partial]);

  // The result arrives after the app is up (a direct call's frame shows while it runs).
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (!bridge || !initialized.current) return;
    if (result && !sent.current.result) {
      sent.current.result = true;
      void bridge.sendToolResult(toCallToolResult(result));
    } else if (!result && cancelled !== undefined && !sent.current.cancelled) {
      sent.current.cancelled = true;
      void bridge.sendToolCancelled({ reason: cancelled });
    }
  }, [result, cancelled]);

  // Theme, language, mode or size changed: the app hears only what changed.
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (bridge && initialized.current) bridge.setHostContext(hostContext());
  }, [hostContext, mode, width]);

  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.clientWidth / 20) * 20));
    observer.observe(el);
    return () => observer.disconnect();
  }, [frame]);

  // Esc leaves fullscreen (while the focus is on the page; inside the frame, the Back button is one Tab away).
  useEffect(() => {
    if (mode !== 'fullscreen') return;
    back.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') setMode('inline');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mode]);

  const answer = (value: boolean): void => {
    if (!ask) return;
    ask.answer(value);
    if (ask.kind === 'link' && value && ask.https) {
      void shellOpen(ask.url).then((opened) => {
        if (opened) setAsk(undefined);
      });
      return;
    }
    if (!(ask.kind === 'link' && value)) setAsk(undefined);
  };

  if (phase.kind === 'closed' || phase.kind === 'failed') {
    return (
      <p
        className={`app-note${phase.kind === 'failed' ? ' call-error' : ' muted'}`}
        data-testid={phase.kind === 'failed' ? 'app-failed' : 'app-closed'}
        role="status"
      >
        {phase.kind === 'failed' ? t('apps.couldNotOpen', { title, error: phase.message }) : phase.note}
      </p>
    );
  }

  const missing = frame ? permissionsMissing(frame.permissionsAsked, frame.permissionsGranted) : [];
  const allow = frame ? buildAllowAttribute(permissionsObject(frame.permissionsGranted)) : '';
  const frameHeight = mode === 'inline' ? height : undefined;
  return (
    <section className="app-view" data-mode={mode} data-testid="app-view" data-tool={tool} aria-label={t('apps.label', { title })}>
      <div className="app-view-bar">
        <span className="app-view-title">{title}</span>
        {mode === 'inline' ? (
          <>
            <button type="button" className="btn btn-small" data-testid="app-fullscreen" onClick={() => setMode('fullscreen')}>
              {t('apps.fullscreen')}
            </button>
            <button type="button" className="btn btn-small" data-testid="app-pip" onClick={() => setMode('pip')}>
              {t('apps.pip')}
            </button>
          </>
        ) : (
          <button type="button" ref={back} className="btn btn-small" data-testid="app-back" onClick={() => setMode('inline')}>
            {mode === 'fullscreen' ? t('apps.exitFullscreen') : t('apps.backInline')}
          </button>
        )}
      </div>
      {missing.length > 0 && frame && (
        <PermissionLine
          server={server}
          missing={missing}
          onAllow={async () => {
            try {
              await grant(server, [...frame.permissionsGranted, ...missing]);
              setGeneration((g) => g + 1);
            } catch (error) {
              note(describeError(error).message);
            }
          }}
        />
      )}
      <div
        className={`app-view-frame${frame?.prefersBorder === false ? ' borderless' : ''}`}
        ref={wrap}
        style={frameHeight !== undefined ? { height: frameHeight } : undefined}
      >
        {phase.kind === 'opening' && <p className="muted app-opening">{t('apps.opening', { title })}</p>}
        {frame && (
          <iframe
            ref={iframe}
            key={frame.frameId}
            title={title}
            sandbox={outerSandbox}
            allow={allow}
            referrerPolicy="no-referrer"
            data-testid="app-frame"
            data-origin={frame.sandboxOrigin}
          />
        )}
      </div>
      {ask?.kind === 'link' && <LinkConsent ask={ask} title={title} onAnswer={answer} onDismiss={() => setAsk(undefined)} />}
      {ask?.kind === 'download' && <DownloadConsent names={ask.names} title={title} onAnswer={answer} />}
      {notes.map((n, i) => (
        <p key={i} className="muted app-note" role="status" data-testid="app-note">
          {n}
        </p>
      ))}
    </section>
  );
}

function sdkTool(tool: ToolInfo): Tool {
  return {
    name: tool.name,
    inputSchema: { type: 'object', ...tool.inputSchema },
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    ...(tool._meta !== undefined ? { _meta: tool._meta } : {}),
  };
}

function PermissionLine({ server, missing, onAllow }: { server: string; missing: AppPermissionName[]; onAllow: () => Promise<void> }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const names = missing.map((p) => t(`apps.permission.${p}`)).join(', ');
  return (
    <p className="app-permissions" data-testid="app-permissions">
      <span>{t('apps.permissionsAsked', { server, names })}</span>{' '}
      <button
        type="button"
        className="btn btn-small"
        data-testid="app-permissions-allow"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void onAllow().finally(() => setBusy(false));
        }}
      >
        {t('apps.allow')}
      </button>
    </p>
  );
}

function LinkConsent({
  ask,
  title,
  onAnswer,
  onDismiss,
}: {
  ask: Extract<Ask, { kind: 'link' }>;
  title: string;
  onAnswer: (open: boolean) => void;
  onDismiss: () => void;
}) {
  const t = useT();
  const [agreed, setAgreed] = useState(false);
  return (
    <div className="app-consent" role="group" aria-label={t('apps.linkQ', { title })} data-testid="app-link-consent">
      <p>{t('apps.linkQ', { title })}</p>
      <p>
        <span className="muted">{t('requestCards.pageOn')}</span> <strong data-testid="app-link-host">{ask.host}</strong>
      </p>
      <p>
        <span className="muted">{t('requestCards.fullAddress')}</span>{' '}
        <code className="request-url" data-testid="app-link-url">
          {ask.url}
        </code>
      </p>
      {agreed ? (
        <p className="request-link">
          {t('requestCards.openYourself')}{' '}
          <a href={ask.url} target="_blank" rel="noopener noreferrer" data-testid="app-link">
            {ask.url}
          </a>{' '}
          <button type="button" className="btn btn-small" data-testid="app-link-dismiss" onClick={onDismiss}>
            {t('requestCards.dismiss')}
          </button>
        </p>
      ) : (
        <div className="approval-buttons">
          <button
            type="button"
            className="btn btn-primary btn-small"
            data-testid="app-link-open"
            onClick={() => {
              setAgreed(true);
              onAnswer(true);
            }}
          >
            {t('requestCards.open', { host: ask.host })}
          </button>
          <button type="button" className="btn btn-small" data-testid="app-link-decline" onClick={() => onAnswer(false)}>
            {t('requestCards.decline')}
          </button>
        </div>
      )}
    </div>
  );
}

function DownloadConsent({ names, title, onAnswer }: { names: string[]; title: string; onAnswer: (ok: boolean) => void }) {
  const t = useT();
  return (
    <div className="app-consent" role="group" aria-label={t('apps.downloadQ', { title })} data-testid="app-download-consent">
      <p>{t('apps.downloadQ', { title })}</p>
      <ul>
        {names.map((n) => (
          <li key={n}>
            <code>{n}</code>
          </li>
        ))}
      </ul>
      <div className="approval-buttons">
        <button type="button" className="btn btn-primary btn-small" data-testid="app-download-save" onClick={() => onAnswer(true)}>
          {t('apps.save')}
        </button>
        <button type="button" className="btn btn-small" data-testid="app-download-decline" onClick={() => onAnswer(false)}>
          {t('requestCards.decline')}
        </button>
      </div>
    </div>
  );
}
