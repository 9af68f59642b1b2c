import { cliReason, errorLine, statusWord } from '../i18n';
import { err, outJson } from '../output';
import { oneShot, type CliCommand } from './command';
import { printToolsTable } from './trust';

/** `switchboard tools [SERVER]`: the tools of every ready server, or of one (exit 1 when that one is not ready). */
export const tools: CliCommand = {
  name: 'tools',
  host: oneShot,
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
    const failed = views.filter((v) => only !== undefined && v.status !== 'ready');
    for (const v of failed) err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
    const rows = views.flatMap((v) =>
      v.tools.map((t) => ({
        server: v.name,
        name: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema,
        ...(t.review ? { review: t.review } : {}),
      })),
    );
    if (args.json) outJson(rows);
    else printToolsTable(views);
    return failed.length > 0 ? 1 : 0;
  },
};
