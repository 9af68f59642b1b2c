import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { splitCommandLine } from '../../../src-shared/command-line';
import { CoreError } from '../errors';

/** A file this process may run: executable on POSIX; on Windows, where PATHEXT decides, one that exists. */
function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `command` holding a whole command line (`npx -y pkg`), as pasted from a README: the program and the rest, so the
 * error can say where each part goes. Only when the first word is a bare name or a program that exists: a missing
 * path with spaces in it (`/opt/My App/server`) is a wrong path, not a command line.
 */
function commandLineParts(command: string, base: string): { program: string; args: string[] } | undefined {
  const [program, ...args] = splitCommandLine(command) ?? [];
  if (program === undefined || args.length === 0) return undefined;
  const bare = !program.includes('/') && !program.includes('\\');
  return bare || isExecutableFile(resolve(base, program)) ? { program, args } : undefined;
}

function commandLineError(command: string, parts: { program: string; args: string[] }): CoreError {
  const args = JSON.stringify(parts.args);
  return new CoreError(
    'config-invalid',
    `Cannot start "${command}": "command" holds a whole command line. Put the program in "command" ("${parts.program}") and the rest in "args" (${args}); the server form splits a pasted line for you.`,
    { data: { reason: 'command-line', command, program: parts.program, args } },
  );
}

/**
 * Resolves a config `command` to an absolute path the way a shell would, in the PATH the child gets, so that a
 * missing program fails before spawning with where we looked and how to fix it. A bare name is looked up on PATH; a
 * relative path (`./bin/server`, `bin/server`) starts at `base` — the server's cwd, else the config file's folder,
 * never the host's own working folder, which depends on how Switchboard was started. On Windows it tries PATHEXT
 * (`npx` → `npx.cmd`).
 */
export function resolveCommand(command: string, pathVar: string | undefined, base: string, where = 'command'): string {
  if (command.includes('/') || command.includes('\\')) {
    const relative = !isAbsolute(command);
    const file = relative ? resolve(base, command) : command;
    if (isExecutableFile(file)) return file;
    const parts = commandLineParts(command, base);
    if (parts) throw commandLineError(command, parts);
    if (relative) {
      throw new CoreError(
        'config-invalid',
        `Cannot start "${command}": no executable file at ${file}. A relative ${where} starts in ${base} (the server's "cwd", else the config file's folder): correct the path, or give an absolute one.`,
        { data: { reason: 'no-executable-relative', command, file, base, where } },
      );
    }
    throw new CoreError('config-invalid', `Cannot start "${command}": no executable file at ${file}. Check the ${where} path in the config.`, {
      data: { reason: 'no-executable', command, file, where },
    });
  }
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').map((e) => e.toLowerCase())] : [''];
  const dirs = (pathVar ?? '').split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const ext of exts) {
      const file = join(dir, command + ext);
      if (isExecutableFile(file)) return file;
    }
  }
  const parts = commandLineParts(command, base);
  if (parts) throw commandLineError(command, parts);
  const looked = dirs.length ? dirs.join(delimiter) : 'an empty PATH';
  throw new CoreError(
    'config-invalid',
    `Cannot start "${command}": command not found. Looked in ${looked}. ` +
      `Install it, put its absolute path in "command", or add its folder to your login shell's PATH.`,
    { data: { reason: 'command-not-found', command, path: looked } },
  );
}
