#!/usr/bin/env node
// The CLI, bundled: out/cli/ from src-main/cli/entry.ts (cli.cjs) and src-main/cli/help-entry.ts (help.cjs), with
// out/cli/main.mjs (scripts/cli-loader.mjs) running them, as bin/switchboard.mjs does. `npm run build` runs this after
// electron-vite; `npm run cli` still runs the TypeScript source through tsx.
//
// Everything (the MCP SDK, zod, …) goes into the bundle: one file to read and compile instead of hundreds to
// resolve, which is most of a short command's start-up. CommonJS, not ES modules: the loader gives V8 the code it
// compiled on an earlier run (a code cache), which Node 20 offers for scripts only. What only some commands use (the
// CLI's chat and the AI SDK behind it, serve's HTTP server) is evaluated on demand (esbuild wraps what is imported
// by import() in a function run at that import); --help reads help.cjs alone.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const cliOutDir = join(root, 'out', 'cli');

/** Builds the bundle; returns the entry file's path. */
export async function buildCli({ outDir = cliOutDir, quiet = false, metafile } = {}) {
  // Built beside, then swapped in: a CLI started meanwhile (another build, a test) finds the old bundle or the new.
  const building = `${outDir}.building-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const started = performance.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: { cli: join(root, 'src-main', 'cli', 'entry.ts'), help: join(root, 'src-main', 'cli', 'help-entry.ts') },
    outdir: building,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.cjs' },
    // ESM builds first: some packages' "main" is a UMD build that requires its own files at run time (jsonc-parser).
    mainFields: ['module', 'main'],
    // Whitespace and syntax only: names stay readable in a stack trace.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // core/support/paths.ts finds the package root two folders up from its own file (out/cli/cli.cjs): import.meta.url is
    // that file's URL, as it was in the ES module bundle.
    define: { 'import.meta.url': '__switchboardImportMetaUrl' },
    // Each file is one function expression, which the loader compiles as it is (the CommonJS wrapper, strict as the
    // ES modules it was built from): no copy of the source to wrap it, and the same line numbers.
    banner: {
      js: "(function (exports, require, module, __filename, __dirname) {'use strict';var __switchboardImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    footer: { js: '})' },
    // ASCII only (esbuild's default, checked below): the loader reads the files as latin1, the cheapest decoding.
    charset: 'ascii',
    logLevel: quiet ? 'error' : 'warning',
    // What went into which file (for start-up work: which modules a command loads); analyse at https://esbuild.github.io/analyze/.
    metafile: metafile !== undefined,
  }).catch((error) => {
    rmSync(building, { recursive: true, force: true });
    throw error;
  });
  // The loader, with each bundle's hash: the key of its code cache.
  const builds = Object.fromEntries(
    ['cli.cjs', 'help.cjs'].map((name) => {
      const bytes = readFileSync(join(building, name));
      if (bytes.some((byte) => byte > 0x7f)) throw new Error(`${name} is not ASCII: the loader reads it as latin1`);
      return [name, createHash('sha256').update(bytes).digest('hex').slice(0, 16)];
    }),
  );
  const loader = readFileSync(join(root, 'scripts', 'cli-loader.mjs'), 'utf8');
  if (!loader.includes('/* BUILDS */ {}')) throw new Error('scripts/cli-loader.mjs lost its /* BUILDS */ placeholder');
  writeFileSync(join(building, 'main.mjs'), loader.replace('/* BUILDS */ {}', JSON.stringify(builds)));
  if (metafile !== undefined && result.metafile) writeFileSync(metafile, JSON.stringify(result.metafile));
  try {
    renameSync(outDir, old);
  } catch {
    // no previous bundle
  }
  renameSync(building, outDir);
  rmSync(old, { recursive: true, force: true });
  if (!quiet) process.stderr.write(`CLI bundled into ${relative(root, outDir)}/ in ${Math.round(performance.now() - started)} ms\n`);
  return join(outDir, 'main.mjs');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --out-dir DIR: somewhere else than out/cli (the bench and the pack test stage a package of their own).
  // --metafile FILE: esbuild's metafile too (which inputs are in which chunk, and what imports what).
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : undefined;
  };
  const metafile = option('--metafile');
  buildCli({ outDir: option('--out-dir') ?? cliOutDir, quiet: process.argv.includes('--quiet'), ...(metafile !== undefined ? { metafile } : {}) }).catch(
    (error) => {
      process.stderr.write(`build-cli: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
