#!/usr/bin/env node
// The QA kit (docs/testing.md), bundled: out/kit/playwright.mjs from src-main/kit/playwright.ts, ES modules, with
// @playwright/test left to the project that installs the kit (a peer dependency: one copy of Playwright, or its test
// runner refuses to load), and its types (out/kit/playwright.d.ts) emitted by tsc. `npm run build` runs this.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'out', 'kit');
const entries = { playwright: join(root, 'src-main', 'kit', 'playwright.ts') };

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: outDir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@playwright/test'],
  legalComments: 'none',
  logLevel: 'warning',
});
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(
  process.execPath,
  [
    tsc,
    '--declaration',
    '--emitDeclarationOnly',
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--types',
    'node',
    '--outDir',
    outDir,
    ...Object.values(entries),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (!process.argv.includes('--quiet')) process.stderr.write(`QA kit built into out/kit/\n`);
