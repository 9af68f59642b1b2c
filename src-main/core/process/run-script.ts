import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `<app> --switchboard-run-script -- <script> [args…]`: how the desktop app starts one of its own bundled scripts
 * (the calculator) as a Node ES module inside a process of its own binary. The packaged app has Electron's
 * RunAsNode fuse off, so `ELECTRON_RUN_AS_NODE=1` does not turn the binary into Node; this flag, handled by the
 * app's entry (src-main/electron/entry.ts) before anything else runs, replaces it. The `--` keeps the script's own
 * arguments (`--debug`) away from Chromium's and Node's option parsers.
 *
 * Only scripts inside the app's own resources folder are run, so the flag is not a general "run any JavaScript"
 * switch. (Someone who can start the binary with arguments of their choosing can do harm with it anyway; this
 * keeps the flag from adding to that.) Electron-free, so it is tested under plain Node.
 */
export const runScriptFlag = '--switchboard-run-script';

export interface RunScriptRequest {
  script: string;
  args: string[];
}

export class RunScriptError extends Error {
  override readonly name = 'RunScriptError';
}

/** The request in `argv`, or undefined when the flag is absent (a normal app start). */
export function parseRunScriptArgv(argv: readonly string[]): RunScriptRequest | undefined {
  const at = argv.indexOf(runScriptFlag);
  if (at === -1) return undefined;
  const first = argv[at + 1] === '--' ? at + 2 : at + 1;
  const script = argv[first];
  if (script === undefined || script === '') throw new RunScriptError(`${runScriptFlag} needs the path of a script to run.`);
  return { script, args: argv.slice(first + 1) };
}

/** What goes before the script's path to ask the app to run it (after any dev-mode entry file). */
export const runScriptPrefix: readonly string[] = [runScriptFlag, '--'];

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * `script` as a real path, if it lies inside `resourcesDir` (symlinks resolved, so a link inside the folder that
 * points elsewhere is refused); otherwise a RunScriptError a person can act on.
 */
export function checkedScriptPath(script: string, resourcesDir: string): string {
  if (!isAbsolute(script)) throw new RunScriptError(`${runScriptFlag} needs an absolute path, got ${JSON.stringify(script)}.`);
  const target = realOrResolved(script);
  const rel = relative(realOrResolved(resourcesDir), target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new RunScriptError(
      `Switchboard runs only the scripts bundled in its resources folder (${resourcesDir}), and ${script} is not one. ` +
        'To run a script of your own as a server, start it with Node ("command": "node").',
    );
  }
  return target;
}

export interface RunScriptOptions {
  /** The only folder scripts may come from: the app's own resources. */
  resourcesDir: string;
  /**
   * For a host whose event loop never empties by itself (Electron's main process): called with the exit code once
   * the script's stdin has ended — the MCP client closing the pipe — and what it wrote to stdout is flushed.
   * Plain Node needs none: it exits when the script has nothing left to do.
   */
  exitWhenStdinEnds?: (code: number) => void;
}

/** Runs the requested script in this process, as `node <script> [args…]` would: the script sees that argv. */
export async function runScript(request: RunScriptRequest, options: RunScriptOptions): Promise<void> {
  const script = checkedScriptPath(request.script, options.resourcesDir);
  process.argv = [process.execPath, script, ...request.args];
  const exit = options.exitWhenStdinEnds;
  if (exit) {
    let ended = false;
    const onEnd = (): void => {
      if (ended) return;
      ended = true;
      const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
      process.stdout.write('', () => exit(code));
    };
    process.stdin.once('end', onEnd);
    process.stdin.once('close', onEnd);
  }
  await import(/* @vite-ignore */ pathToFileURL(script).href);
}

export interface DispatchOptions extends RunScriptOptions {
  /** Ends the process: after the script's stdin ends, or at once with a non-zero code when it cannot run. */
  exit: (code: number) => void;
  /** Runs before a requested script is loaded (the Electron entry: no dock icon, a scratch userData folder). */
  prepare?: () => void;
}

/**
 * The app entry's first decision. Returns false for a normal app start (no flag in `argv`). Otherwise runs the
 * requested script in this process — or says on stderr why it cannot, and exits (1; 2 for a malformed flag) —
 * and returns true: the caller must then not start the app.
 */
export async function dispatchRunScript(argv: readonly string[], options: DispatchOptions): Promise<boolean> {
  const fail = (code: number, error: unknown): true => {
    process.stderr.write(`[switchboard] ${error instanceof Error ? error.message : String(error)}\n`);
    options.exit(code);
    return true;
  };
  let request: RunScriptRequest | undefined;
  try {
    request = parseRunScriptArgv(argv);
  } catch (error) {
    return fail(2, error);
  }
  if (request === undefined) return false;
  try {
    options.prepare?.();
    await runScript(request, { resourcesDir: options.resourcesDir, exitWhenStdinEnds: options.exitWhenStdinEnds ?? options.exit });
  } catch (error) {
    return fail(1, error);
  }
  return true;
}
