#!/usr/bin/env node
// The QA kit (docs/testing.md), bundled: out/kit/playwright.mjs and out/kit/testing.mjs from src-main/kit/, ES
// modules, with @playwright/test left to the project that installs the kit (a peer dependency: one copy of
// Playwright, or its test runner refuses to load), and their types emitted by tsc, one self-contained .d.ts per entry
// (a consumer's moduleResolution may not follow extensionless imports between .d.ts files). `npm run build` runs this.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'out', 'kit');
const entries = { playwright: join(root, 'src-main', 'kit', 'playwright.ts'), testing: join(root, 'src-main', 'kit', 'testing.ts') };
const typesDir = join(outDir, '.types');

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
    'esnext',
    '--moduleResolution',
    'bundler',
    '--types',
    'node',
    '--rootDir',
    join(root, 'src-main'),
    '--outDir',
    typesDir,
    ...Object.values(entries),
  ],
  { cwd: root, stdio: 'inherit' },
);
const types = (path) => readFileSync(join(typesDir, path), 'utf8');
writeFileSync(join(outDir, 'playwright.d.ts'), types('kit/playwright.d.ts'));
// testing.ts re-exports the fake providers: their declarations inlined in place of the imports of them.
const ownLines = types('kit/testing.d.ts')
  .split('\n')
  .filter((line) => !line.includes("from '../test-support/fake-providers'"));
writeFileSync(join(outDir, 'testing.d.ts'), [types('test-support/fake-providers.d.ts'), ...ownLines].join('\n'));
rmSync(typesDir, { recursive: true, force: true });
if (!process.argv.includes('--quiet')) process.stderr.write(`QA kit built into out/kit/\n`);
