import { spawn } from 'node:child_process';
import { cliMain } from './cli-process';
import { waitFor } from './processes';

/** An authorization URL as `switchboard login --no-browser` prints it on stderr. */
const authorizationUrl = /https?:\/\/\S+\/auth\?\S+/;

export interface RunningLogin {
  /** The authorization URL the CLI printed (for followInBrowser). */
  url: string;
  /** What the CLI has written so far. */
  stdout(): string;
  stderr(): string;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
}

/**
 * `switchboard ...args` from source (src-main/cli/main.ts under tsx) with `env` as its whole environment — a
 * `login SERVER --no-browser` — resolved once the authorization URL is on its stderr; the process keeps running,
 * waiting for the browser's redirect.
 */
export async function startLogin(args: string[], env: Record<string, string>): Promise<RunningLogin> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliMain, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(() => authorizationUrl.test(stderr), 30_000, 'the authorization URL on stderr');
  return { url: stderr.match(authorizationUrl)?.[0] ?? '', stdout: () => stdout, stderr: () => stderr, exited };
}
