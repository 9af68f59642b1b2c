import { apps } from './apps';
import { authCommands } from './auth';
import { call } from './call';
import { chat } from './chat';
import type { CliCommand } from './command';
import { doctor } from './doctor';
import { exportCommand } from './export';
import { featureCommands } from './features';
import { importCommand } from './import';
import { installCommands } from './install';
import { list } from './list';
import { secret } from './secret';
import { serve } from './serve';
import { skillCommands } from './skills';
import { tools } from './tools';
import { trust } from './trust';

/** Every command of the CLI, in --help's order (commands.test.ts checks the two against each other). */
export const commands: readonly CliCommand[] = [
  list,
  tools,
  trust,
  call,
  apps,
  ...featureCommands,
  ...skillCommands,
  ...authCommands,
  doctor,
  importCommand,
  exportCommand,
  secret,
  chat,
  ...Object.values(installCommands),
  serve,
];

/** The command of that name, if there is one. */
export function commandNamed(name: string): CliCommand | undefined {
  return commands.find((command) => command.name === name);
}
