// install, uninstall and registry without loading their code until one of them runs: install-run.ts brings the installer,
// the registry client, semver and node:tls (bundle signatures), none of which a server's start needs (issue 13: every
// other command's servers spawn sooner). main.ts uses these as it would install-run.ts's own exports.
import type { Host } from '../../core/host';
import type { CliArgs } from '../args';

type InstallModule = typeof import('./install-run');
const load = (): Promise<InstallModule> => import('./install-run');

/** The commands install.ts defines (install-lazy.test.ts checks the list against its `installCommands`). */
export const installCommandNames = ['registry', 'install', 'uninstall'] as const;

const isInstallCommand = (command: string | undefined): boolean => installCommandNames.some((name) => name === command);

export const installCommands: Record<string, (host: Host, args: CliArgs) => Promise<number>> = Object.fromEntries(
  installCommandNames.map((name) => [
    name,
    async (host: Host, args: CliArgs): Promise<number> => {
      const run = (await load()).installCommands[name];
      if (run === undefined) throw new Error(`install-run.ts has no "${name}" command`);
      return run(host, args);
    },
  ]),
);

/** install-run.ts's usage check, for its commands only (undefined for every other command, as install-run.ts says too). */
export async function installUsageProblem(args: CliArgs): Promise<string | undefined> {
  return isInstallCommand(args.command) ? (await load()).installUsageProblem(args) : undefined;
}
