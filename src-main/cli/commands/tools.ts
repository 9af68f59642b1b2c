import { cliReason, errorLine, statusWord } from '../i18n';
import { err, outJson } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';
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
    const only = args.positionals[0];
    if (only !== undefined) {
      try {
        await host.settled(only);
      } catch (error) {
        err(errorLine(error));
        return 2;
      }
    } else await host.settled();
    const views = (await host.api['servers:list']()).filter((v) => only === undefined || v.name === only);
    // The one named when it is not ready (disabled too: its tools cannot be listed); with none named, every enabled
    // server that is not, said on stderr (an empty table alone would not say why), and a failure only when no server
    // is ready.
    const failed = views.filter((v) => v.status !== 'ready' && (only !== undefined || !v.disabled));
    for (const v of failed) err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
    const noneReady = only === undefined && failed.length > 0 && !views.some((v) => v.status === 'ready');
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
    return (only !== undefined && failed.length > 0) || noneReady ? 1 : 0;
  },
};
