#!/usr/bin/env node
// `switchboard`: the CLI bundled at build time (scripts/build-cli.mjs → out/cli/), plain JavaScript: out/cli/main.mjs
// runs the bundle through a V8 code cache of the user's own (scripts/cli-loader.mjs).
// In a development checkout without a build it falls back to the TypeScript source through tsx (slow, and says
// so); `npm run cli` is the development entry. An installed package always carries the bundle.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../out/cli/main.mjs', import.meta.url);
const source = new URL('../src-main/cli/main.ts', import.meta.url);

// Node 22.1+: this file's and the loader's compiled code cached on disk too (the bundle has its own cache, above).
module.enableCompileCache?.();

if (existsSync(fileURLToPath(bundle))) {
  await import(bundle.href);
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  let tsx;
  if (existsSync(fileURLToPath(source))) {
    try {
      tsx = await import('tsx/esm/api');
    } catch {
      tsx = undefined;
    }
  }
  if (tsx === undefined) {
    process.stderr.write(`switchboard: the built CLI is missing (${fileURLToPath(bundle)}). Run "npm run build" in ${root}, or reinstall the package.\n`);
    process.exit(2);
  }
  process.stderr.write('switchboard: out/cli/main.mjs is not built; running the TypeScript source through tsx (slow). Run "npm run build" for the fast CLI.\n');
  tsx.register();
  await import(source.href);
}
