import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';

/**
 * Apps started from a desktop miss the login shell's PATH (nvm, Homebrew, ~/.local/bin). Read it once, from the
 * user's login shell, with a timeout; never any other variable. Returns undefined when it cannot be had.
 */
export function readLoginShellPath(shell = process.env.SHELL, timeoutMs = 3000): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  const marker = '__SWITCHBOARD_PATH__';
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${marker}' "$PATH" '${marker}'`],
      { timeout: timeoutMs, encoding: 'utf8', env: { HOME: process.env.HOME ?? '', USER: process.env.USER ?? '', SHELL: shell, TERM: 'dumb' } },
      (error, stdout) => {
        if (error) return resolve(undefined);
        const match = new RegExp(`${marker}(.*)${marker}`, 's').exec(stdout);
        resolve(match?.[1] || undefined);
      },
    );
  });
}

/** The host's PATH first, then folders only the login shell knows; no duplicates. */
export function mergePaths(...paths: Array<string | undefined>): string {
  const seen = new Set<string>();
  for (const path of paths) for (const dir of (path ?? '').split(delimiter)) if (dir) seen.add(dir);
  return [...seen].join(delimiter);
}
