import type { UiAppInfo } from '../../../src-shared/host-api';
import { cliT } from '../i18n';
import { err, out, outJson, printTable } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';
import { settledViews } from './settled-views';

/**
 * `switchboard apps [SERVER]`: the MCP Apps of every ready server, or of one — each tool whose `_meta.ui.resourceUri`
 * names a UI resource, read and checked as the host does when it lists the tools. Exit 1 when the server named is not
 * ready (with none named: when none is) or a UI resource is invalid; 2 for usage.
 */
export const apps: CliCommand = {
  name: 'apps',
  check: (args) => (args.positionals.length > 1 ? cliT('cli.atMostOneServer', { command: 'apps' }) : undefined),
  host: oneShot,
  servers: firstServer,
  async run(host, args) {
    const only = args.positionals[0];
    const settled = await settledViews(host, only);
    if (settled === undefined) return 2;
    const list = await host.api['apps:list'](only !== undefined ? { server: only } : {});
    const invalid = list.filter((a) => a.status === 'invalid');
    if (args.json)
      outJson(
        list.map((a) => ({
          server: a.server,
          tool: a.tool,
          resourceUri: a.resourceUri,
          visibility: a.visibility,
          csp: a.csp ?? null,
          permissions: a.permissions ?? null,
          status: a.status,
          ...(a.problem !== undefined ? { problem: a.problem } : {}),
          ...(a.digest !== undefined ? { digest: a.digest } : {}),
          review: a.review,
        })),
      );
    else printApps(list);
    for (const a of invalid) err(`switchboard: ${a.problem ?? `${a.server}/${a.tool}: ${cliT('cliOut.apps.invalid')}`}`);
    return settled.failed || invalid.length > 0 ? 1 : 0;
  },
};

function printApps(list: readonly UiAppInfo[]): void {
  if (list.length === 0) {
    out(cliT('cliOut.apps.none'));
    return;
  }
  const state = (a: UiAppInfo): string =>
    a.status === 'invalid'
      ? cliT('cliOut.apps.invalid')
      : a.review !== 'trusted'
        ? cliT('cliOut.apps.needsReview', { state: a.review })
        : cliT('cliOut.apps.ok');
  printTable(
    list.map((a) => [a.server, a.tool, a.resourceUri, a.visibility.join(','), state(a)]),
    [cliT('cliOut.table.server'), cliT('cliOut.table.tool'), cliT('cliOut.table.resourceUri'), cliT('cliOut.table.visibility'), cliT('cliOut.table.app')],
  );
  const notes: string[] = [];
  for (const a of list) {
    if (a.csp && Object.keys(a.csp).length > 0) notes.push(cliT('cliOut.apps.csp', { server: a.server, tool: a.tool, csp: JSON.stringify(a.csp) }));
    if (a.permissions && Object.keys(a.permissions).length > 0)
      notes.push(cliT('cliOut.apps.permissions', { server: a.server, tool: a.tool, permissions: Object.keys(a.permissions).join(', ') }));
  }
  if (notes.length > 0) {
    out('');
    for (const line of notes) out(line);
  }
}
