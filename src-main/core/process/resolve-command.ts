import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
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
 * Resolves a config `command` to an absolute path the way a shell would, in the PATH the child gets, so that a
 * missing program fails before spawning with where we looked and how to fix it. On Windows it tries PATHEXT
 * (`npx` → `npx.cmd`).
 */
export function resolveCommand(command: string, pathVar: string | undefined, cwd: string | undefined, where = 'command'): string {
  const base = cwd ?? process.cwd();
  if (command.includes('/') || command.includes('\\')) {
    const file = isAbsolute(command) ? command : resolve(base, command);
    if (isExecutableFile(file)) return file;
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
  const looked = dirs.length ? dirs.join(delimiter) : 'an empty PATH';
  throw new CoreError(
    'config-invalid',
    `Cannot start "${command}": command not found. Looked in ${looked}. ` +
      `Install it, put its absolute path in "command", or add its folder to your login shell's PATH.`,
    { data: { reason: 'command-not-found', command, path: looked } },
  );
}
