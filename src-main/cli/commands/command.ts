import type { Host } from '../../core/host';
import type { CliArgs } from '../args';
import { cliT, errorLine } from '../i18n';
import { err } from '../output';

/*
 * What main.ts needs to know of a command, in one place: its name, what makes its arguments wrong (found before any
 * host or server starts, so a typo costs no server start), what the host it runs on must do, and its run.
 * Exit codes, for every run: 0 ok; 1 a request, tool or server failed; 2 usage or config.
 */

/** The host a command runs on: what createHost is asked to do, and how main.ts treats the run. */
export interface HostNeeds {
  /** Start the config's servers. Commands that only read or edit the file do not. */
  readonly startServers: boolean;
  /** Keep each server's 2026-07-28 listen stream (a round trip a one-shot command, ended before a list can change, saves). */
  readonly listen: boolean;
  /** Follow edits of the config file (one-shot commands read it once). */
  readonly watchConfig: boolean;
  /** Read the login shell's PATH, as the desktop app does, so the servers start as the app starts them. */
  readonly loginShellPath: boolean;
  /** An unapproved server waits for a person; otherwise the command runs what its config says, as a script does. */
  readonly requireConsent: boolean;
  /** The host's own log lines on stderr. */
  readonly logToStderr: boolean;
  /** Who answers what servers ask (sampling, forms, links): this terminal, per --approve, or the app's UI. */
  readonly answers: 'terminal' | 'app';
  /** SIGINT and SIGTERM interrupt it (the host is disposed, exit 130 or 143); false: a signal is its way to stop. */
  readonly stopOnSignal: boolean;
  /** It runs while the config file has an error (it says so itself, or does not need the servers); else exit 2 first. */
  readonly withConfigError: boolean;
}

/** Options refused on commands that do not take them, rather than ignored (see strayOption). */
export type OwnOption = 'noBrowser' | 'inlineSecrets' | 'waitReady';

export interface CliCommand {
  /** The word after the global options: `switchboard NAME …`. */
  readonly name: string;
  /** A usage problem of the arguments (exit 2, with the help), or undefined. Runs before the host is made. */
  readonly check?: (args: CliArgs) => string | undefined | Promise<string | undefined>;
  readonly host: HostNeeds;
  /**
   * The servers the arguments name, the only ones started (a call of one server costs no other server's start);
   * absent, or undefined for these arguments: every enabled server.
   */
  readonly servers?: (args: CliArgs) => readonly string[] | undefined;
  /** Options only some commands take that this one does. */
  readonly options?: readonly OwnOption[];
  /** Runs on the host made for it; resolves to the exit code. */
  readonly run: (host: Host, args: CliArgs) => Promise<number>;
}

/** A command that connects, does its work and ends: servers started, nothing followed, the terminal answers. */
export const oneShot: HostNeeds = {
  startServers: true,
  listen: false,
  watchConfig: false,
  loginShellPath: false,
  requireConsent: false,
  logToStderr: false,
  answers: 'terminal',
  stopOnSignal: true,
  withConfigError: false,
};

/** A command that only reads or edits the config file (or the secrets): no server starts. */
export const fileOnly: HostNeeds = { ...oneShot, startServers: false };

/** The server named by the first argument, when there is one (`tools [SERVER]`, `call SERVER TOOL`…). */
export function firstServer(args: CliArgs): readonly string[] | undefined {
  const name = args.positionals[0];
  return name !== undefined ? [name] : undefined;
}

/** A usage problem when the arguments hold an option the command does not take. */
export function strayOption(command: CliCommand, args: CliArgs): string | undefined {
  if (args.noBrowser && !command.options?.includes('noBrowser')) return cliT('cli.noBrowserLogin');
  if (args.inlineSecrets && !command.options?.includes('inlineSecrets')) return cliT('cli.inlineSecretsExport');
  if (args.waitReady && !command.options?.includes('waitReady')) return cliT('cli.waitReadyServe');
  return undefined;
}

/** Waits for the server(s) to be ready or failed; an unknown server is a usage error (2). */
export async function settle(host: Host, only: string | undefined): Promise<number | undefined> {
  try {
    await host.settled(only);
    return undefined;
  } catch (error) {
    err(errorLine(error));
    return 2;
  }
}
