// out/cli/main.mjs, written by scripts/build-cli.mjs from this file: runs the bundled CLI (cli.cjs; help.cjs for
// --help) through a V8 code cache, so that later runs skip compiling the bundle (about 2 MB of JavaScript, most of
// a short command's start-up).
//
// Node's own compile cache (module.enableCompileCache) exists only from Node 22.1 and an ES module cannot be given
// cached data without a flag; a script can, on every Node we support: the bundles are CommonJS (each file one
// wrapper function, strict mode as the ES modules they were built from), run here as vm.Script with the data V8
// produced on an earlier run.
// The cache is the user's own (XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%; a 0700 folder), one
// file per bundle, install folder, build and Node version; NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** Each bundle's content hash, filled in at build time: a rebuilt bundle never meets the cache of another. */
const builds = /* BUILDS */ {};

const here = dirname(fileURLToPath(import.meta.url));

function cacheDir() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    if (process.platform === 'win32') return process.env.LOCALAPPDATA ? join(process.env.LOCALAPPDATA, 'switchboard', 'Cache', 'v8') : undefined;
    if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'switchboard', 'v8');
    return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'switchboard', 'v8');
  } catch {
    return undefined;
  }
}

// A cache file's name: the bundle, where it is installed (two installs do not replace each other's data), its build,
// and the Node that compiled it.
const place = createHash('sha256').update(here).digest('hex').slice(0, 8);
const prefix = (name) => `${name}-${place}-`;
const suffix = `-${process.version}-${process.arch}.bin`;

/** Runs out/cli/<name> as CommonJS; returns its exports. */
function run(name) {
  const file = join(here, name);
  // ASCII (scripts/build-cli.mjs checks): latin1 is the same text, decoded for less.
  const source = readFileSync(file, 'latin1');
  const dir = cacheDir();
  let cacheFile;
  let cachedData;
  if (dir !== undefined) {
    // The size and mtime too: a bundle edited in place (same length, other code) must not run stale compiled code.
    const { size, mtimeMs } = statSync(file);
    cacheFile = join(dir, `${prefix(name)}${builds[name] ?? 'unknown'}-${size}-${Math.trunc(mtimeMs)}${suffix}`);
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // The file is the CommonJS wrapper function itself (strict mode), as built: compiled as it is.
  const script = new vm.Script(source, {
    filename: file,
    ...(cachedData !== undefined ? { cachedData } : {}),
    // import() of a Node built-in (a dependency's fallback) goes to the ordinary loader.
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ?? ((specifier) => import(specifier)),
  });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // At exit: the data then holds the functions this run compiled, not only the top level.
    process.once('exit', () => save(dir, cacheFile, script, name));
  }
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, here);
  return module.exports;
}

function save(dir, cacheFile, script, name) {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile);
    // The data of earlier builds of this bundle, here, for this Node is dead weight (other installs and Nodes keep theirs).
    for (const other of readdirSync(dir)) {
      if (other.startsWith(prefix(name)) && other.endsWith(suffix) && join(dir, other) !== cacheFile) rmSync(join(dir, other), { force: true });
    }
  } catch {
    // No cache this time (a read-only home, a full disk): the next run compiles again.
    rmSync(partial, { force: true });
  }
}

const argv = process.argv.slice(2);
// parseArgs asks for help only on -h / --help: without either, the help bundle is not even read.
const asksHelp = argv.includes('-h') || argv.includes('--help');
if (!(asksHelp && run('help.cjs').helpOnly(argv))) run('cli.cjs');
