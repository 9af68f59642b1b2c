import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePaths, readLoginShellPath } from './login-path';
import { tempDir } from '../../test-support/processes';

describe("the login shell's PATH", () => {
  it('is read from a login shell (its profile runs), and nothing else is taken from it', async () => {
    const home = tempDir();
    const bin = join(home, '.nvm', 'bin');
    mkdirSync(bin, { recursive: true });
    // What nvm/Homebrew installers add to a profile; the banner line is the kind of noise profiles print.
    writeFileSync(join(home, '.profile'), `echo "Welcome back"\nexport PATH="${bin}:$PATH"\nexport SECRET_FROM_PROFILE=hunter2\n`);
    const previousHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const path = await readLoginShellPath('/bin/sh', 5000);
      expect(path?.split(delimiter)[0]).toBe(bin);
      expect(path).not.toContain('hunter2');
      expect(path).not.toContain('Welcome');
    } finally {
      process.env.HOME = previousHome;
    }
  });

  it('gives up quietly when the shell does not answer in time or does not exist', async () => {
    expect(await readLoginShellPath('/definitely/not/a/shell', 1000)).toBeUndefined();
    const home = tempDir();
    writeFileSync(join(home, '.profile'), 'sleep 3\n');
    const previousHome = process.env.HOME;
    process.env.HOME = home;
    try {
      expect(await readLoginShellPath('/bin/sh', 500)).toBeUndefined();
    } finally {
      process.env.HOME = previousHome;
    }
  });

  it('is merged after the host PATH, without duplicates', () => {
    expect(mergePaths(['/usr/bin', '/bin'].join(delimiter), ['/home/u/.nvm/bin', '/usr/bin'].join(delimiter))).toBe(
      ['/usr/bin', '/bin', '/home/u/.nvm/bin'].join(delimiter),
    );
  });
});
