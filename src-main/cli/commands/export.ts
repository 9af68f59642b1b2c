import { errorLine } from '../i18n';
import { err } from '../output';
import { fileOnly, type CliCommand } from './command';

/** `switchboard export [SERVER…]`: Claude-compatible JSON of every server, or of those named, read from the file alone. */
export const exportCommand: CliCommand = {
  name: 'export',
  // It starts no server, and a broken file does not stop it (it exports what the host could read).
  host: { ...fileOnly, withConfigError: true },
  async run(host, args) {
    try {
      process.stdout.write(await host.api['config:export'](args.positionals.length ? { names: args.positionals } : {}));
      return 0;
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      return 2;
    }
  },
};
