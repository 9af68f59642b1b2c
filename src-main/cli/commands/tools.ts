import { outJson } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';
import { settledViews } from './settled-views';
import { printToolsTable } from './trust';

/**
 * `switchboard tools [SERVER]`: the tools of every ready server, or of one. Exit 1 when that one is not ready, or, with
 * none named, when no server is ready (each one's reason on stderr).
 */
export const tools: CliCommand = {
  name: 'tools',
  host: oneShot,
  servers: firstServer,
  async run(host, args) {
    const settled = await settledViews(host, args.positionals[0]);
    if (settled === undefined) return 2;
    const { views, failed } = settled;
    const rows = views.flatMap((v) =>
      v.tools.map((t) => ({
        server: v.name,
        name: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema,
        ...(t.review ? { review: t.review } : {}),
        ...(t._meta ? { _meta: t._meta } : {}),
        ...(t.app ? { app: t.app } : {}),
      })),
    );
    if (args.json) outJson(rows);
    else printToolsTable(views);
    return failed ? 1 : 0;
  },
};
