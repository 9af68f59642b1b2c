import { join } from 'node:path';
import { ProtocolError, specTypeSchemas } from '@modelcontextprotocol/client';
import type { AppFrame, AppPermissionName, AppSampleResult, HostMethods, ToolInfo, ToolResult, UiAppInfo, UiAppResource } from '../../../src-shared/host-api';
import type { Disposable } from '../../../src-shared/lifecycle';
import { AuditLog } from '../chat/audit-log';
import { CoreError, toHostError } from '../errors';
import type { ServerFleet } from '../servers/fleet';
import type { HostEventBus } from '../services/events';
import type { ToolCallRequest } from '../services/tools';
import { isTrusted } from '../trust/pins';
import { toolResourceUri, toolVisibility } from '../../../src-shared/tool-ui';
import { buildAppCsp } from './csp';
import { FrameRegistry, type FrameClosedReason, type FrameEntry } from './frames';
import { defaultAppLimits, jsonBytes, type AppLimits } from './limits';
import { AppPermissionStore, appPermissionsFileName, askedPermissions } from './permissions';
import { proxyPage, type ProxyResponse } from './proxy-page';

export type AppsChannel =
  'apps:list' | 'apps:read' | 'apps:open' | 'apps:call-tool' | 'apps:read-resource' | 'apps:log' | 'apps:grant' | 'apps:close' | 'apps:sample';

/**
 * The origin app frames are loaded from, never the renderer's: headless, a second loopback HTTP server; Electron,
 * the `switchboard-app:` scheme. It serves {@link AppsService.proxyResponse} for the frame named in its URL.
 */
export interface SandboxOrigin {
  /** The proxy page's URL for a frame, and the origin it is on. */
  frameUrl(frameId: string): { url: string; origin: string };
  /** The origins allowed to embed the proxy page and talk to it (the renderer's); empty when not known in advance. */
  readonly parentOrigins: readonly string[];
}

export interface AppsServiceOptions {
  fleet: ServerFleet;
  /** Tool calls go through the host's tools service: progress, `tools:cancel` and the call registry. */
  tools: { call(request: ToolCallRequest, signal?: AbortSignal): Promise<ToolResult> };
  audit?: Pick<AuditLog, 'append'>;
  /** Frames of a server that stops are closed; a frame the host closes itself is told as `apps:closed`. */
  events?: Pick<HostEventBus, 'on' | 'emit'>;
  /** Where `app-permissions.json` is kept; undefined: grants are held in memory (tests). */
  dataDir?: string;
  sandbox?: SandboxOrigin;
  limits?: Partial<AppLimits>;
  log?: (line: string) => void;
}

/** One tool's app as `apps:list` shows it. */
export function appInfoOf(server: string, tool: ToolInfo): UiAppInfo | undefined {
  const resourceUri = toolResourceUri(tool);
  const app = tool.app;
  if (resourceUri === undefined || app === undefined) return undefined;
  return {
    server,
    tool: tool.name,
    title: tool.title ?? tool.name,
    resourceUri,
    visibility: [...toolVisibility(tool)],
    status: app.status,
    ...(app.problem !== undefined ? { problem: app.problem } : {}),
    ...(app.digest !== undefined ? { digest: app.digest } : {}),
    ...(app.csp !== undefined ? { csp: app.csp } : {}),
    ...(app.permissions !== undefined ? { permissions: app.permissions } : {}),
    ...(app.prefersBorder !== undefined ? { prefersBorder: app.prefersBorder } : {}),
    ...(app.domain !== undefined ? { domain: app.domain } : {}),
    review: tool.review?.state ?? 'trusted',
  };
}

/**
 * MCP Apps over the contract: the tools of ready servers that name a UI resource (read, checked and pinned when the
 * tools were listed: servers/features/tools.ts), the HTML of one, and the frames the renderer shows them in. A frame
 * is registered by `apps:open` under a random id; every request an app makes names its frame, and the host — never
 * the app — says which server it is. What an app may ask: its own server's tools whose visibility includes `app`
 * (trusted, as every call), its own server's resources, and lines in its server's Logs; at a bounded rate and size.
 */
export class AppsService implements Disposable {
  readonly api: Pick<HostMethods, AppsChannel>;
  private readonly frames: FrameRegistry;
  private readonly limits: AppLimits;
  private readonly permissions: AppPermissionStore;
  private sandbox: SandboxOrigin | undefined;
  private readonly subscription: Disposable;

  constructor(private readonly options: AppsServiceOptions) {
    const { fleet } = options;
    this.limits = { ...defaultAppLimits, ...options.limits };
    this.frames = new FrameRegistry(this.limits, (entry, reason) => this.closed(entry, reason));
    this.permissions = new AppPermissionStore(options.dataDir !== undefined ? join(options.dataDir, appPermissionsFileName) : undefined);
    if (this.permissions.problem) options.log?.(this.permissions.problem);
    this.sandbox = options.sandbox;
    // The fleet's own change, not the UI's coalesced `servers:changed`: a restart that is over within the 50 ms window
    // would otherwise look like no change at all, and the frame would outlive the session it was opened on.
    this.subscription = fleet.onChanged(() => this.closeStopped());
    this.api = {
      'apps:list': async (request) => {
        const server = request?.server;
        if (server !== undefined) fleet.get(server);
        return fleet
          .views()
          .filter((v) => v.status === 'ready' && (server === undefined || v.name === server))
          .flatMap((v) => v.tools.flatMap((t) => appInfoOf(v.name, t) ?? []));
      },
      'apps:read': async ({ server, tool }) => (await this.readApp(server, tool)).resource,
      'apps:open': async ({ server, tool }) => this.open(server, tool),
      'apps:call-tool': async ({ frameId, tool, args, callId }) => this.callTool(frameId, tool, args ?? {}, callId),
      'apps:read-resource': async ({ frameId, uri }) => {
        const entry = this.admit(frameId);
        return fleet.get(entry.frame.server).features.resources.read(uri);
      },
      'apps:log': async ({ frameId, level, logger, data }) => {
        const entry = this.admit(frameId);
        this.checkSize(entry, data, 'log message');
        fleet.get(entry.frame.server).features.logging.appendFromApp(level, logger, data, entry.frame.tool);
      },
      'apps:grant': async ({ server, permissions }) => {
        fleet.get(server);
        return this.permissions.grant(server, permissions);
      },
      'apps:close': async ({ frameId }) => this.frames.close(frameId, 'closed'),
      'apps:sample': async ({ frameId, params }) => this.sample(frameId, params),
    };
  }

  /** The origin frames are served from (headless: once `serve` started it); undefined stops new frames opening. */
  useSandbox(sandbox: SandboxOrigin | undefined): void {
    this.sandbox = sandbox;
  }

  /** The proxy page of an open frame and its headers, for the sandbox origin to serve; undefined for no such frame. */
  proxyResponse(frameId: string): ProxyResponse | undefined {
    const entry = this.frames.get(frameId);
    if (!entry) return undefined;
    return proxyPage(entry.proxy, this.sandbox?.parentOrigins ?? []);
  }

  /** The permissions granted to an open frame (the desktop session's permission handler asks); undefined when none is open. */
  frameGrants(frameId: string): readonly AppPermissionName[] | undefined {
    return this.frames.get(frameId)?.frame.permissionsGranted;
  }

  /** The validated, trusted UI of a tool (refused as `apps:read` refuses) and the tool's listing. */
  private async readApp(server: string, tool: string): Promise<{ resource: UiAppResource; info: ToolInfo }> {
    const supervisor = this.options.fleet.get(server);
    const tools = supervisor.features.tools;
    const info = await tools.resolveListed(tool);
    const resourceUri = toolResourceUri(info);
    const app = info.app;
    if (resourceUri === undefined || app === undefined)
      throw new CoreError('not-supported', `${server}/${tool} has no app: its _meta.ui.resourceUri names no UI resource.`, {
        data: { server, tool, reason: 'no-app' },
      });
    if (app.status !== 'ok' || app.digest === undefined)
      throw new CoreError('request-failed', app.problem ?? `${server}/${tool}: its UI resource ${resourceUri} is not valid.`, { data: { server, tool } });
    if (!isTrusted(info))
      throw new CoreError(
        'needs-review',
        `${server}/${tool} changed since it was trusted (its definition or its app's HTML): review it first, or run: switchboard trust ${server} ${tool}`,
        {
          data: { server, tool, reason: info.review?.state ?? 'new' },
        },
      );
    const html = await tools.appHtml(resourceUri);
    if (html === undefined)
      throw new CoreError('request-failed', `${server}/${tool}: its UI resource ${resourceUri} is being read again; try again in a moment.`, {
        data: { server, tool },
      });
    const resource: UiAppResource = {
      server,
      tool,
      resourceUri,
      html,
      digest: app.digest,
      ...(app.csp !== undefined ? { csp: app.csp } : {}),
      ...(app.permissions !== undefined ? { permissions: app.permissions } : {}),
      ...(app.prefersBorder !== undefined ? { prefersBorder: app.prefersBorder } : {}),
      ...(app.domain !== undefined ? { domain: app.domain } : {}),
    };
    return { resource, info };
  }

  private async open(server: string, tool: string): Promise<AppFrame> {
    const sandbox = this.sandbox;
    if (!sandbox)
      throw new CoreError(
        'not-supported',
        'Apps cannot be shown here: this Switchboard has no sandbox origin to load them from. Use the desktop app, or `switchboard serve` (it serves apps on a port of their own).',
        { data: { server, tool, reason: 'no-sandbox' } },
      );
    const { resource, info } = await this.readApp(server, tool);
    const policy = buildAppCsp(resource.csp);
    for (const d of policy.dropped) this.options.log?.(`app ${server}/${tool}: left "${d.value}" out of its ${d.key} (${d.reason})`);
    const asked = askedPermissions(resource.permissions);
    const granted = this.permissions.granted(server).filter((p) => asked.includes(p));
    const frameId = FrameRegistry.newId();
    const { url, origin } = sandbox.frameUrl(frameId);
    const title = info.title ?? info.name;
    const frame: AppFrame = {
      frameId,
      server,
      tool,
      title,
      resourceUri: resource.resourceUri,
      html: resource.html,
      digest: resource.digest,
      sandboxUrl: url,
      sandboxOrigin: origin,
      csp: policy.csp,
      permissionsAsked: asked,
      permissionsGranted: granted,
      ...(resource.prefersBorder !== undefined ? { prefersBorder: resource.prefersBorder } : {}),
    };
    this.frames.add(frame, { csp: policy.header, granted, title });
    return frame;
  }

  /**
   * The app's `tools/call`. Only a tool of the frame's own server whose visibility includes `app`; the trust checks
   * of every call still apply (a changed or flagged tool is refused until reviewed). No approval card: the app is the
   * person's own view of that server, shown because they opened it (see docs/apps.md). Audited as `mcp-app`.
   */
  private async callTool(frameId: string, tool: string, args: Record<string, unknown>, callId: string): Promise<ToolResult> {
    const entry = this.admit(frameId);
    this.checkSize(entry, args, 'tool arguments');
    const { server } = entry.frame;
    if (entry.calls >= this.limits.maxConcurrentCalls) {
      this.strike(entry);
      throw new CoreError('request-failed', `This app already has ${this.limits.maxConcurrentCalls} tool calls running; wait for one to finish.`, {
        data: { frameId, server, tool, reason: 'app-busy' },
      });
    }
    const base = { kind: 'call' as const, source: 'mcp-app' as const, callId, server, tool, args: AuditLog.shorten(args) };
    const started = performance.now();
    entry.calls += 1;
    try {
      // A refusal (no such tool, not for apps) is audited too: it is what a misbehaving app would try.
      const info = await this.options.fleet.get(server).features.tools.resolveListed(tool);
      if (!toolVisibility(info).includes('app'))
        throw new CoreError(
          'not-supported',
          `${server}/${tool} is not for apps: its _meta.ui.visibility leaves out "app", so only the model or a person may call it.`,
          { data: { frameId, server, tool, reason: 'not-for-app' } },
        );
      const result = await this.options.tools.call({ server, tool, args, callId, fromApp: true }, entry.controller.signal);
      this.options.audit?.append({ ...base, outcome: result.isError === true ? 'tool-error' : 'ok', durationMs: Math.round(performance.now() - started) });
      return result;
    } catch (error) {
      const failure = toHostError(error);
      const cancelled = entry.controller.signal.aborted || failure.code === 'cancelled';
      this.options.audit?.append({
        ...base,
        outcome: cancelled ? 'cancelled' : 'failed',
        durationMs: Math.round(performance.now() - started),
        ...(cancelled ? {} : { detail: failure.message }),
      });
      throw error;
    } finally {
      entry.calls -= 1;
    }
  }

  /**
   * The app's `sampling/createMessage`: checked against the spec's schema, then the path a server's own request takes
   * (its entry's `sampling` policy, the person's approval, the chat's providers), told it is the app asking. Closing
   * the frame withdraws it.
   */
  private async sample(frameId: string, raw: Record<string, unknown>): Promise<AppSampleResult> {
    const entry = this.admit(frameId);
    this.checkSize(entry, raw, 'sampling request');
    const { server, tool } = entry.frame;
    const checked = specTypeSchemas.CreateMessageRequestParams['~standard'].validate(raw);
    if (checked.issues !== undefined) {
      const first = checked.issues[0];
      const where = first?.path?.map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.') ?? '';
      throw new CoreError(
        'invalid-argument',
        `This app's sampling request is not a valid sampling/createMessage${where !== '' ? ` (at ${where})` : ''}: ${first?.message ?? 'malformed'}.`,
        { data: { frameId, server, tool, reason: 'app-bad-request' } },
      );
    }
    try {
      const result = await this.options.fleet.get(server).features.sampling.handle(checked.value, entry.controller.signal, undefined, { tool });
      return result as AppSampleResult;
    } catch (error) {
      // The feature answers a server in protocol errors; the app gets the same words as a host error.
      if (error instanceof ProtocolError)
        throw new CoreError('request-failed', error.message, { data: { frameId, server, tool, reason: 'sampling-refused', protocolCode: error.code } });
      throw error;
    }
  }

  /** The frame, if it may make one more request now (its rate); else a refusal, and a strike. */
  private admit(frameId: string): FrameEntry {
    const entry = this.frames.require(frameId);
    if (!entry.bucket.take()) {
      this.strike(entry);
      throw new CoreError(
        'request-failed',
        `This app sent more than ${this.limits.burst} requests at once (${this.limits.ratePerSecond} a second on average): the request was refused. Slow down.`,
        { data: { frameId, server: entry.frame.server, reason: 'app-rate-limit' } },
      );
    }
    return entry;
  }

  private checkSize(entry: FrameEntry, value: unknown, what: string): void {
    const bytes = jsonBytes(value);
    if (bytes !== undefined && bytes <= this.limits.maxRequestBytes) return;
    this.strike(entry);
    throw new CoreError(
      'invalid-argument',
      `This app's ${what} are ${bytes === undefined ? 'not JSON' : `${bytes} bytes`}, more than the ${this.limits.maxRequestBytes} Switchboard accepts from an app.`,
      { data: { frameId: entry.frame.frameId, server: entry.frame.server, reason: 'app-too-large' } },
    );
  }

  /** One more refusal; past the limit, the frame is closed and the app is told why (the renderer shows it). */
  private strike(entry: FrameEntry): void {
    if (!entry.strikes.add()) return;
    const { frameId, server, tool } = entry.frame;
    this.frames.close(frameId, 'app-flood');
    throw new CoreError('request-failed', `The app of ${server}/${tool} was stopped: ${FrameRegistry.reasonText('app-flood')}.`, {
      data: { frameId, server, tool, reason: 'app-flood' },
    });
  }

  private closed(entry: FrameEntry, reason: FrameClosedReason): void {
    // The renderer's own `apps:close` needs no answer: it already removed the frame.
    if (reason === 'closed') return;
    const { frameId, server, tool } = entry.frame;
    const message = FrameRegistry.reasonText(reason);
    this.options.events?.emit('apps:closed', { frameId, server, tool, reason, message });
    if (reason !== 'host-stopped') this.options.log?.(`closed the app frame of ${server}/${tool}: ${message}`);
  }

  /** Frames of servers that are no longer ready (stopped, restarting, removed) are closed. */
  private closeStopped(): void {
    for (const server of this.frames.servers()) if (!this.options.fleet.isReady(server)) this.frames.closeServer(server, 'server-stopped');
  }

  dispose(): void {
    this.subscription.dispose();
    this.frames.closeAll('host-stopped');
  }
}
