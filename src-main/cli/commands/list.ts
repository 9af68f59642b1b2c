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
          v.error !== undefined ? errorCell(cliReason(v.error, v.errorInfo)) : '',
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

/**
 * The ERROR cell, one line: the error's first line, and when it quotes the server's stderr, the last line it quotes
 * (what usually says why: the exception, the missing module) in place of the "Last stderr lines:" heading.
 */
export function errorCell(text: string): string {
  const label = cliT('reasons.lastStderr');
  const at = text.indexOf(label);
  if (at === -1) return firstLine(text);
  const head = firstLine(text.slice(0, at)).trim();
  const quoted = text
    .slice(at + label.length)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const last = quoted[quoted.length - 1];
  return last === undefined ? head : `${head} — ${last}`;
}
