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
// The test servers of `switchboard/testing` (testServer(name) in src-main/kit/testing.ts, which names the same
// sources): the project's own fixtures, each bundled into a script `node out/kit/test-servers/NAME.mjs` runs alone.
const fixtures = join(root, 'src-main', 'core', 'fixtures');
const testServers = {
  crashing: join(root, 'src-main', 'kit', 'test-servers', 'crashing.mjs'),
  slow: join(fixtures, 'slow-server.mjs'),
  asking: join(fixtures, 'asking-server.mjs'),
  'many-tools': join(fixtures, 'many-tools-server.mjs'),
  'list-changed': join(fixtures, 'list-changed-server.mjs'),
  progress: join(fixtures, 'features-server.mjs'),
};

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
await build({
  absWorkingDir: root,
  entryPoints: testServers,
  outdir: join(outDir, 'test-servers'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // The servers built on the MCP SDK share it: one copy in a chunk beside them.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // A CommonJS dependency's require() of a Node built-in, inside an ES module.
  banner: { js: "import { createRequire as __kitCreateRequire } from 'node:module'; const require = __kitCreateRequire(import.meta.url);" },
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
// Only the two .d.ts files ship: one that imports a sibling would leave a consumer's types unresolved, and one that
// names a package other than the peer dependency (`playwright/test`, which tsc writes for an inferred type) resolves
// only where the package manager hoists it (not with pnpm's strict layout).
for (const file of ['playwright.d.ts', 'testing.d.ts']) {
  const text = readFileSync(join(outDir, file), 'utf8');
  if (/from ['"]\.\.?\//.test(text)) throw new Error(`out/kit/${file} imports a file that is not shipped: inline or stop exporting it`);
  const named = [...text.matchAll(/(?:from |import\()['"]([^'"]+)['"]/g)].map((m) => m[1]);
  const foreign = named.filter((name) => name !== '@playwright/test' && !name.startsWith('node:'));
  if (foreign.length > 0)
    throw new Error(
      `out/kit/${file} names ${[...new Set(foreign)].join(', ')}: a consumer has only @playwright/test and Node; give the export an explicit type from @playwright/test`,
    );
}
if (!process.argv.includes('--quiet')) process.stderr.write(`QA kit built into out/kit/\n`);
