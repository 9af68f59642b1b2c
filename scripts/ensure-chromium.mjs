#!/usr/bin/env node
// Before the Playwright run: make sure a Chromium is there. Debian's package is used (no browser download);
// on a fresh Debian machine run as root it is installed here, so `npm ci && npm test` works as the README says.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const have = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
if (have) process.exit(0);

const canApt = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
if (!canApt) {
  process.stderr.write(
    "The end-to-end tests need Chromium: install Debian/Ubuntu's `chromium` package, or set CHROMIUM_PATH to a Chromium or Chrome binary.\n",
  );
  process.exit(1);
}
process.stderr.write("Chromium is missing: installing Debian's chromium package (apt-get)…\n");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    process.stderr.write(`apt-get ${args.join(' ')} failed; install chromium by hand or set CHROMIUM_PATH.\n`);
    process.exit(1);
  }
}
