// registry, install and uninstall, described without loading their code: install-run.ts brings the installer, the
// registry client, semver and node:tls (bundle signatures), none of which a server's start needs, so every other
// command's servers spawn sooner. It is loaded when one of these commands is checked or run.
import type { CliArgs } from '../args';
import { fileOnly, type CliCommand } from './command';

type InstallModule = typeof import('./install-run');
const load = (): Promise<InstallModule> => import('./install-run');

/** The commands install-run.ts defines (install-lazy.test.ts checks the list against its `installCommands`). */
export const installCommandNames = ['registry', 'install', 'uninstall'] as const;
type InstallCommandName = (typeof installCommandNames)[number];

const isInstallCommand = (command: string | undefined): boolean => installCommandNames.some((name) => name === command);

/** install-run.ts's usage check, for its commands only (undefined for every other command, as install-run.ts says too). */
export async function installUsageProblem(args: CliArgs): Promise<string | undefined> {
  return isInstallCommand(args.command) ? (await load()).installUsageProblem(args) : undefined;
}

function describe(name: InstallCommandName): CliCommand {
  return {
    name,
    check: installUsageProblem,
    // They edit the config file (and the data folder's bundles), and start no server.
    host: fileOnly,
    async run(host, args) {
      const run = (await load()).installCommands[name];
      if (run === undefined) throw new Error(`install-run.ts has no "${name}" command`);
      return run(host, args);
    },
  };
}

export const installCommands: Record<InstallCommandName, CliCommand> = {
  registry: describe('registry'),
  install: describe('install'),
  uninstall: describe('uninstall'),
};
