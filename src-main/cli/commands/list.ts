import { cliNumber, cliReason, cliT, statusWord } from '../i18n';
import { firstLine, outJson, printTable } from '../output';
import { oneShot, type CliCommand } from './command';

/** `switchboard list`: every server connected, one row each. Exits 0 even when a server fails (the row says why). */
export const list: CliCommand = {
  name: 'list',
  host: oneShot,
  async run(host, args) {
    await host.settled();
    const views = await host.api['servers:list']();
    const rows = views.map((v) => ({
      name: v.name,
      transport: v.transport,
      status: v.disabled ? 'disabled' : v.status,
      protocolVersion: v.protocolVersion ?? null,
      tools: v.tools.length,
      ...(v.error !== undefined ? { error: v.error } : {}),
    }));
    if (args.json) outJson(rows);
    else {
      printTable(
        views.map((v) => [
          v.name,
          v.transport,
          statusWord(v.disabled ? 'disabled' : v.status),
          v.protocolVersion ?? '-',
          cliNumber(v.tools.length),
          firstLine(v.error !== undefined ? cliReason(v.error, v.errorInfo) : undefined),
        ]),
        [
          cliT('cliOut.table.name'),
          cliT('cliOut.table.transport'),
          cliT('cliOut.table.status'),
          cliT('cliOut.table.protocol'),
          cliT('cliOut.table.tools'),
          cliT('cliOut.table.error'),
        ],
      );
    }
    return 0;
  },
};
