#!/usr/bin/env node
// The CLI, bundled: out/cli/main.mjs (+ chunks) from src-main/cli/entry.ts, run by bin/switchboard.mjs.
// `npm run build` runs this after electron-vite; `npm run cli` still runs the TypeScript source through tsx.
//
// Everything (the MCP SDK, zod, …) goes into the bundle: one file to read and compile instead of hundreds to
// resolve, which is most of a short command's start-up. What only some commands use (the CLI's chat and the AI
// SDK behind it, the whole host for `--help`) sits in chunks loaded by dynamic import.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
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
    entryPoints: { main: join(root, 'src-main', 'cli', 'entry.ts') },
    outdir: building,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    // Chunks beside the entry: core/paths.ts (in a chunk) finds the package root two folders up from its own file.
    chunkNames: '[name]-[hash]',
    // ESM builds first: some packages' "main" is a UMD build that requires its own files at run time (jsonc-parser).
    mainFields: ['module', 'main'],
    // Whitespace and syntax only: names stay readable in a stack trace.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // The CommonJS packages inside an ESM bundle call require() for Node's built-ins.
    banner: { js: "import { createRequire as __switchboardRequire } from 'node:module'; const require = __switchboardRequire(import.meta.url);" },
    logLevel: quiet ? 'error' : 'warning',
    // What went into which file (for start-up work: which modules a command loads); analyse at https://esbuild.github.io/analyze/.
    metafile: metafile !== undefined,
  }).catch((error) => {
    rmSync(building, { recursive: true, force: true });
    throw error;
  });
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
  buildCli({ outDir: option('--out-dir') ?? cliOutDir, quiet: process.argv.includes('--quiet'), ...(metafile !== undefined ? { metafile } : {}) }).catch((error) => {
    process.stderr.write(`build-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
