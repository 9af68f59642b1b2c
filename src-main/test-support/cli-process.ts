import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './processes';

/**
 * Node scripts (the CLI, CLI fixtures) run as real children under `tsx`, asynchronously — fake providers,
 * registries and servers a test starts live in the test's own process and must keep answering.
 */

export interface Piped {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface OnTerminal {
  status: number | null;
  /** Everything the terminal showed (stdout and stderr together, as a pty merges them). */
  output: string;
}

/** util-linux `script` gives a child a real terminal (a pty); without it terminal tests are skipped. */
export const hasTerminal = existsSync('/usr/bin/script');

/** A word for `sh -c`: single-quoted, with its own single quotes escaped. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The CLI's entry from source, run under tsx. */
export const cliMain = join(import.meta.dirname, '..', 'cli', 'main.ts');

/** The CLI from source (src-main/cli/main.ts) as a person runs it, synchronously: a clean environment (PATH, a fresh HOME unless `env` has one) plus `env`. */
export function runCliSync(args: string[], env: Record<string, string>): Piped {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cliMain, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env, HOME: env.HOME ?? tempDir() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** tsx's loader by URL: `--import tsx` resolves from the working folder, which a test may set elsewhere. */
const tsxLoader = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;

/**
 * `node --import tsx ...argv` on pipes; resolves once it has exited and its output is read (SIGKILL after timeoutMs).
 * `cwd`: the folder it runs in (default this process's).
 */
export function runPiped(
  argv: string[],
  env: Record<string, string>,
  options: { stdin?: 'ignore' | 'pipe'; timeoutMs?: number; cwd?: string } = {},
): Promise<Piped> {
  return new Promise((resolve, reject) => {
    const args = ['--import', options.cwd !== undefined ? tsxLoader : 'tsx', ...argv];
    const where = options.cwd !== undefined ? { cwd: options.cwd } : {};
    const child =
      options.stdin === 'pipe'
        ? spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'], ...where })
        : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...where });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * `node --import tsx ...argv` on a terminal. Each answer is typed once its prompt has appeared after the previous
 * answer's prompt (so a prompt asked again — a field re-asked after a bad value — gets the next answer); rejects when
 * the child exits with a prompt never seen. SIGKILL after timeoutMs.
 */
export function runOnTerminal(
  argv: string[],
  env: Record<string, string>,
  answers: Array<[RegExp, string]>,
  timeoutMs = 60_000,
  cwd?: string,
): Promise<OnTerminal> {
  const command = [process.execPath, '--import', cwd !== undefined ? tsxLoader : 'tsx', ...argv].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qefc', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], ...(cwd !== undefined ? { cwd } : {}) });
    let output = '';
    let cursor = 0;
    const pending = [...answers];
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      for (;;) {
        const next = pending[0];
        const match = next ? next[0].exec(output.slice(cursor)) : null;
        if (!next || !match) break;
        cursor += match.index + match[0].length;
        pending.shift();
        child.stdin.write(next[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (status) => {
      clearTimeout(timer);
      if (pending.length) return reject(new Error(`never asked ${String(pending[0]?.[0])}:\n${output}`));
      resolve({ status, output });
    });
  });
}
