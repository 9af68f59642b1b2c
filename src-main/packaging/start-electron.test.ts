// `npm start` (scripts/start.mjs) on a machine where Electron cannot be downloaded: the real script, copied into a
// temp package root whose node_modules/electron is a fake whose installer fails (and counts its attempts), and whose
// out/ holds a fake CLI bundle that prints what it was asked to run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

const marker = (root: string): string => join(root, 'node_modules', '.cache', 'switchboard', 'electron-unavailable.json');

function fakeRoot(): string {
  const root = tempDir('switchboard-start-');
  mkdirSync(join(root, 'scripts'));
  for (const file of ['start.mjs', 'electron-availability.mjs']) cpSync(join(packageRoot(), 'scripts', file), join(root, 'scripts', file));
  // Built outputs newer than (absent) sources: no build runs.
  for (const file of ['out/renderer/index.html', 'out/main/index.js', 'out/preload/index.cjs']) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  mkdirSync(join(root, 'out', 'cli'), { recursive: true });
  writeFileSync(join(root, 'out', 'cli', 'main.mjs'), 'console.log(`headless ${process.argv.slice(2).join(" ")}`);\n');
  electronPackage(root, '45.5.0', 'fail');
  return root;
}

/** A fake electron package whose install.js counts its runs and fails offline-style, or installs a fake binary. */
function electronPackage(root: string, version: string, install: 'fail' | 'succeed'): void {
  const dir = join(root, 'node_modules', 'electron');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'electron', version }));
  const count = `require('fs').appendFileSync(require('path').join(__dirname, 'attempts'), 'x');`;
  const succeed = [
    `require('fs').mkdirSync(require('path').join(__dirname, 'dist'), { recursive: true });`,
    `require('fs').writeFileSync(require('path').join(__dirname, 'dist', 'electron'), '#!/bin/sh\\necho electron "$@"\\n', { mode: 0o755 });`,
    `require('fs').writeFileSync(require('path').join(__dirname, 'path.txt'), 'electron');`,
  ].join('\n');
  const fail = `console.error('RequestError: getaddrinfo ENOTFOUND github.com'); process.exit(1);`;
  writeFileSync(join(dir, 'install.js'), `${count}\n${install === 'fail' ? fail : succeed}\n`);
}

const attempts = (root: string): number => {
  const file = join(root, 'node_modules', 'electron', 'attempts');
  return existsSync(file) ? readFileSync(file, 'utf8').length : 0;
};

function start(root: string, args: string[] = [], env: Record<string, string> = {}): { stdout: string; stderr: string; status: number | null } {
  const clean = { ...process.env };
  for (const name of ['SWITCHBOARD_HEADLESS', 'SWITCHBOARD_RETRY_ELECTRON', 'ELECTRON_OVERRIDE_DIST_PATH', 'INIT_CWD']) delete clean[name];
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), ...args], {
    cwd: root,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.skipIf(process.platform === 'win32')(
  `npm start remembers that Electron cannot be downloaded${process.platform === 'win32' ? ' (skipped: its fake electron binary is a POSIX shell script)' : ''}`,
  () => {
    it('tries once, then starts headless without trying while the electron version is the same, saying why in one line', () => {
      const root = fakeRoot();
      const first = start(root);
      expect(first.status).toBe(0);
      expect(first.stdout).toBe('headless serve --keep-token\n');
      expect(attempts(root)).toBe(1);
      expect(first.stderr).toBe(
        'Electron binary not available (could not download it: getaddrinfo ENOTFOUND github.com); starting headless mode — open the URL below in a browser. ' +
          'Not tried again for electron 45.5.0. To try again: npm start -- --retry-electron (or delete node_modules/.cache/switchboard/electron-unavailable.json).\n',
      );
      expect(JSON.parse(readFileSync(marker(root), 'utf8'))).toMatchObject({
        version: '45.5.0',
        reason: 'could not download it: getaddrinfo ENOTFOUND github.com',
      });

      const second = start(root, ['--port', '7']);
      expect(attempts(root)).toBe(1);
      expect(second.stdout).toBe('headless serve --port 7 --keep-token\n');
      expect(second.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(second.stderr).toMatch(
        /^Electron binary not available \(could not download it: getaddrinfo ENOTFOUND github\.com — on \d{4}-\d\d-\d\d, not tried again for electron 45\.5\.0\); starting headless mode — open the URL below in a browser\. To try again: npm start -- --retry-electron \(or delete node_modules\/\.cache\/switchboard\/electron-unavailable\.json\)\.\n$/,
      );
    });

    it('tries again when the electron version changes, or when asked to', () => {
      const root = fakeRoot();
      start(root);
      start(root);
      expect(attempts(root)).toBe(1);
      electronPackage(root, '45.5.1', 'fail');
      start(root);
      expect(attempts(root)).toBe(2);
      start(root);
      expect(attempts(root)).toBe(2);
      expect(start(root, ['--retry-electron']).stdout).toBe('headless serve --keep-token\n');
      expect(attempts(root)).toBe(3);
      start(root, [], { SWITCHBOARD_RETRY_ELECTRON: '1' });
      expect(attempts(root)).toBe(4);
    });

    it('headless mode keeps its token between runs (a tab left open reconnects), unless --new-token', () => {
      const root = fakeRoot();
      expect(start(root, ['--headless']).stdout).toBe('headless serve --keep-token\n');
      expect(start(root, ['--headless', '--port', '7', '--new-token']).stdout).toBe('headless serve --port 7\n');
      expect(start(root, ['--headless', '--keep-token']).stdout).toBe('headless serve --keep-token\n');
    });

    it('a retry that succeeds starts Electron and forgets the failure', () => {
      const root = fakeRoot();
      start(root);
      expect(existsSync(marker(root))).toBe(true);
      electronPackage(root, '45.5.0', 'succeed');
      const started = start(root, ['--retry-electron']);
      expect(started.stdout).toBe(`electron ${root}\n`);
      expect(existsSync(marker(root))).toBe(false);
    });
  },
);
