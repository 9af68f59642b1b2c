import { isFileLockBusy } from '../../core/support/file-lock';
import { cliT, errorLine, secretsCaveat } from '../i18n';
import { err, out, outJson } from '../output';
import { readStdin } from '../stdin';
import { fileOnly, type CliCommand } from './command';

const actions = ['list', 'set', 'delete'];

/**
 * `switchboard secret list | set NAME [VALUE] | delete NAME`: the values `${secret:NAME}` refers to. A value is read
 * from stdin unless given (one on the command line shows in `ps` and the shell's history: a note says so). Exit 1
 * when there is no such secret, or another process kept the file busy (run it again).
 */
export const secret: CliCommand = {
  name: 'secret',
  check: (args) => (!actions.includes(args.positionals[0] ?? '') ? cliT('cli.secretNeeds') : undefined),
  // Secrets live apart from the config: a broken config does not keep them from being listed or set.
  host: { ...fileOnly, withConfigError: true },
  async run(host, args) {
    const [action, name, value] = args.positionals;
    const warning = secretsCaveat((await host.api['app:info']()).secrets);
    if (action === 'list') {
      const names = await host.api['secrets:list']();
      if (args.json) outJson(names, 0);
      else for (const n of names) out(n);
      return 0;
    }
    if (!name) {
      err(`switchboard: ${cliT('cli.secretNeedsName', { action })}`);
      return 2;
    }
    if (action === 'delete') {
      let removed: boolean;
      try {
        removed = await host.api['secrets:delete'](name);
      } catch (error) {
        err(`switchboard: ${errorLine(error)}`);
        return isFileLockBusy(error) ? 1 : 2;
      }
      if (!removed) err(`switchboard: ${cliT('cli.noSecret', { name })}`);
      return removed ? 0 : 1;
    }
    if (value !== undefined) err(cliT('cliOut.secret.onCommandLine'));
    const secretValue = value ?? (await readStdin(cliT('cliOut.secret.value'))).replace(/\r?\n$/, '');
    try {
      await host.api['secrets:set'](name, secretValue);
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      // Another process kept the file busy: nothing wrong with the command, run it again.
      return isFileLockBusy(error) ? 1 : 2;
    }
    if (warning) err(cliT('cliOut.note', { note: warning }));
    out(cliT('cliOut.secret.stored', { name }));
    return 0;
  },
};
