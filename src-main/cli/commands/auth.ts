import { execFile } from 'node:child_process';
import type { LoginResult } from '../../../src-shared/contract/auth';
import { checkAuthorizationUrl } from '../../core/auth/browser';
import { CoreError } from '../../core/errors';
import type { CliArgs } from '../args';
import { err, out, outJson } from '../output';
import { cliNumber, cliT, errorLine, statusWord } from '../i18n';
import { firstServer, oneShot, type CliCommand } from './command';

/*
 * `switchboard login SERVER [--no-browser]` and `switchboard logout SERVER`. Login prints the authorization URL
 * (stderr), opens it in the browser unless --no-browser (through the OS opener with the URL as one argument, never a
 * shell), and waits for the loopback redirect. Exit codes: 0 signed in / out; 1 the sign-in failed (refused, timed
 * out, hostile metadata); 2 usage, an unknown server, or one that does not use OAuth.
 */

type Run = CliCommand['run'];

/**
 * The OS opener, without a shell: xdg-open / open / rundll32 get the checked URL as one argument. Only where a
 * desktop session is likely (a display on Linux); otherwise false, and the printed URL is what the person uses.
 */
export function systemOpener(env: NodeJS.ProcessEnv = process.env): ((url: string) => Promise<boolean>) | undefined {
  const platform = process.platform;
  let command: [string, string[]] | undefined;
  if (platform === 'darwin') command = ['open', []];
  else if (platform === 'win32') command = ['rundll32', ['url.dll,FileProtocolHandler']];
  else if (env.DISPLAY || env.WAYLAND_DISPLAY) command = ['xdg-open', []];
  if (!command) return undefined;
  const [program, prefix] = command;
  return (url) =>
    new Promise((resolve) => {
      let checked: string;
      try {
        checked = checkAuthorizationUrl(url).href;
      } catch {
        resolve(false);
        return;
      }
      const child = execFile(program, [...prefix, checked], { shell: false, timeout: 10_000, windowsHide: true }, (error) => resolve(error === null));
      child.unref();
    });
}

function exitOf(error: unknown): number {
  if (error instanceof CoreError && (error.code === 'unknown-server' || error.code === 'invalid-argument' || error.code === 'config-invalid')) return 2;
  return 1;
}

const login: Run = async (host, args) => {
  const name = args.positionals[0] ?? '';
  try {
    await host.settled(name);
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return 2;
  }
  const opener = args.noBrowser ? undefined : systemOpener();
  let result: LoginResult;
  try {
    result = await host.auth.login(name, {
      noBrowser: true,
      onAuthorizationUrl: async (url) => {
        err(cliT('cliOut.auth.openThis', { server: name, host: url.host, url: url.href }));
        const opened = opener ? await opener(url.href) : false;
        err(opened ? cliT('cliOut.auth.opened') : cliT('cliOut.auth.waiting'));
      },
    });
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return exitOf(error);
  }
  await host.settled(name);
  const view = (await host.api['servers:list']()).find((v) => v.name === name);
  const status = view?.status ?? 'unknown';
  const statusText = view ? statusWord(view.status) : cliT('cliOut.status.unknown');
  if (args.json) outJson({ server: name, outcome: result.outcome, status, ...(view?.auth ? { auth: view.auth } : {}) });
  else {
    const scopes = view?.auth?.grantedScopes?.join(' ');
    out(
      cliT('cliOut.auth.signedIn', {
        server: name,
        at: view?.auth?.issuerHost !== undefined ? cliT('cliOut.auth.at', { host: view.auth.issuerHost }) : '',
        scopes: scopes ? cliT('cliOut.auth.scopes', { scopes }) : '',
        status: statusText,
        tools: view?.status === 'ready' ? cliT('cliOut.auth.withTools', { n: cliNumber(view.tools.length) }) : '',
      }),
    );
  }
  return status === 'ready' ? 0 : 1;
};

const logout: Run = async (host, args) => {
  const name = args.positionals[0] ?? '';
  try {
    await host.settled(name);
    const result = await host.auth.logout(name);
    if (args.json) outJson({ server: name, ...result });
    else if (!result.removed) out(cliT('cliOut.auth.notSignedIn', { server: name }));
    else out(cliT('cliOut.auth.signedOut', { server: name, how: result.revoked ? cliT('cliOut.auth.revoked') : cliT('cliOut.auth.noRevocation') }));
    return 0;
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return exitOf(error);
  }
};

const oneServer = (args: CliArgs): string | undefined =>
  args.positionals.length !== 1 ? cliT('cli.needsOneServer', { command: args.command ?? '' }) : undefined;

/** login and logout; --no-browser is theirs (logout has no browser to open, and takes it without complaint). */
export const authCommands: readonly CliCommand[] = [
  { name: 'login', check: oneServer, host: oneShot, servers: firstServer, options: ['noBrowser'], run: login },
  { name: 'logout', check: oneServer, host: oneShot, servers: firstServer, options: ['noBrowser'], run: logout },
];
