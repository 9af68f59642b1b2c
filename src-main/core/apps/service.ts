import type { HostMethods, ToolInfo, UiAppInfo, UiAppResource } from '../../../src-shared/host-api';
import { CoreError } from '../errors';
import type { ServerFleet } from '../servers/fleet';
import { isTrusted } from '../trust/pins';
import { toolResourceUri, toolVisibility } from '../../../src-shared/tool-ui';

export type AppsChannel = 'apps:list' | 'apps:read';

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
 * tools were listed: servers/features/tools.ts), and the HTML of one, for the renderer to show in a sandboxed frame.
 */
export class AppsService {
  readonly api: Pick<HostMethods, AppsChannel>;

  constructor(fleet: ServerFleet) {
    this.api = {
      'apps:list': async (request) => {
        const server = request?.server;
        if (server !== undefined) fleet.get(server);
        return fleet
          .views()
          .filter((v) => v.status === 'ready' && (server === undefined || v.name === server))
          .flatMap((v) => v.tools.flatMap((t) => appInfoOf(v.name, t) ?? []));
      },
      'apps:read': async ({ server, tool }) => {
        const supervisor = fleet.get(server);
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
        return {
          server,
          tool,
          resourceUri,
          html,
          digest: app.digest,
          ...(app.csp !== undefined ? { csp: app.csp } : {}),
          ...(app.permissions !== undefined ? { permissions: app.permissions } : {}),
          ...(app.prefersBorder !== undefined ? { prefersBorder: app.prefersBorder } : {}),
          ...(app.domain !== undefined ? { domain: app.domain } : {}),
        } satisfies UiAppResource;
      },
    };
  }
}
