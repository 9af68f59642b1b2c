#!/usr/bin/env node
// `npm start`: build if needed, then run the Electron app — or, when Electron's binary cannot be had (it is
// downloaded on first use, and some machines have no internet), headless mode (`switchboard serve`) instead.
//
//   npm start [-- --config FILE] [--port N] [--host H] [--headless] [--retry-electron] [--new-token]
//
// Headless mode keeps its token between runs (`serve --keep-token`), so a tab left open from the last `npm start`
// reconnects after a restart instead of failing with 401; `--new-token` makes a fresh one (and forgets the kept one).
//
// Never calls require('electron'): that would try to download the binary with nobody watching. A failed download is
// remembered (scripts/electron-availability.mjs) and not tried again until the electron version changes or
// --retry-electron / SWITCHBOARD_RETRY_ELECTRON=1 asks for it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as osConstants } from 'node:os';
import {
  downloadDecision,
  electronVersion,
  forgetFailure,
  markerFile,
  readMarker,
  rememberFailure,
  retryAdvice,
  retryEnv,
  retryFlag,
} from './electron-availability.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');
const installTimeoutMs = 60_000;

const rendererOutput = join(root, 'out/renderer/index.html');
const cliOutput = join(root, 'out/cli/main.mjs'); // scripts/build-cli.mjs: the bundled CLI headless mode runs
const packageMain = join(root, 'out/main/index.js'); // package.json "main"
// electron-vite names the main bundle after its entry (main.js) unless the config says index.js.
const mainOutput = () => [packageMain, join(root, 'out/main/main.js')].find((file) => existsSync(file)) ?? packageMain;
const electronOutputs = () => [mainOutput(), join(root, 'out/preload/index.cjs'), rendererOutput];
const sources = ['src-main', 'src-preload', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function say(line) {
  process.stderr.write(`${line}\n`);
}

/** Newest modification time under `path` (a file or folder), skipping tests and fixtures the build never reads. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'fixtures' || /\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

function buildIsStale(outputs) {
  if (!outputs.every((file) => existsSync(file))) return true;
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return sources.some((source) => newestMtime(join(root, source)) > oldestOutput);
}

/** Build unless every file `outputs()` lists is newer than every source. */
function buildIfNeeded(outputs) {
  if (!buildIsStale(outputs())) return;
  say('Building Switchboard (out/ is missing or older than the sources)…');
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  let result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
  // `npm run build`'s second step: the CLI bundle.
  if (result.status === 0) result = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`The build failed (${result.error ? result.error.message : `exit code ${result.status ?? result.signal}`}).`);
    process.exit(result.status || 1);
  }
  const missing = outputs().filter((file) => !existsSync(file));
  if (missing.length > 0) {
    say(`The build did not produce ${missing.map((f) => f.slice(root.length + 1)).join(', ')}.`);
    process.exit(1);
  }
}

/** The Electron executable named by node_modules/electron/path.txt, if it is on disk. */
function findElectron() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const relative = readFileSync(pathFile, 'utf8').trim();
  if (!relative) return undefined;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist');
  const binary = join(distDir, relative);
  return existsSync(binary) ? binary : undefined;
}

/** One attempt at Electron's own download (install.js), quietly; returns the binary or a short reason. */
function obtainElectron() {
  const installer = join(electronDir, 'install.js');
  if (!existsSync(installer)) return { reason: 'the electron package is not installed' };
  const result = spawnSync(process.execPath, [installer], {
    cwd: electronDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: installTimeoutMs,
    killSignal: 'SIGKILL',
  });
  const binary = findElectron();
  if (binary) return { binary };
  if (result.error && /ETIMEDOUT/.test(String(result.error.code ?? result.error.message))) {
    return { reason: `could not download it: no answer within ${installTimeoutMs / 1000} s` };
  }
  if (result.error) return { reason: `could not download it: ${result.error.message}` };
  return { reason: `could not download it: ${shortReason(`${result.stderr ?? ''}\n${result.stdout ?? ''}`)}` };
}

/** The first error-looking line of the installer's output, without its stack or error class. */
function shortReason(output) {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const line = lines.find((l) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|status/i.test(l)) ?? lines[0] ?? 'unknown error';
  const text = line.replace(/^(?:\w*Error|Error)(?: \[\w+\])?:\s*/, '');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * `--flag VALUE` / `--flag=VALUE` pairs for the CLI's `serve`, which rejects options it does not know; and
 * `--keep-token` unless `--new-token` was given.
 */
function headlessArgs(args) {
  const keep = ['--config', '--port', '--host'];
  const newToken = args.includes('--new-token');
  const out = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--new-token' || arg === '--keep-token') continue;
    const flag = keep.find((k) => arg === k || arg.startsWith(`${k}=`));
    if (!flag) {
      say(`(headless mode ignores ${arg})`);
      continue;
    }
    out.push(arg);
    if (arg === flag && i + 1 < args.length) out.push(args[(i += 1)]);
  }
  if (!newToken) out.push('--keep-token');
  return out;
}

/**
 * `npm start` runs in the package root; a relative --config means the folder npm was started from (INIT_CWD).
 */
function absolutizeConfig(args) {
  const base = process.env.INIT_CWD || process.cwd();
  const abs = (p) => (isAbsolute(p) ? p : resolve(base, p));
  return args.map((arg, i) => {
    if (arg.startsWith('--config=')) return `--config=${abs(arg.slice('--config='.length))}`;
    if (args[i - 1] === '--config' && !arg.startsWith('--')) return abs(arg);
    return arg;
  });
}

/**
 * Run `command`, mirror its exit (code or signal), and pass our first SIGINT/SIGTERM/SIGHUP on to it as SIGTERM.
 * Only once: a terminal's Ctrl+C already reaches the child (same process group) and npm forwards signals to us
 * as well, so repeats would make the child see several; both Switchboard modes treat SIGTERM as "shut down
 * cleanly" (dispose servers, then exit).
 */
function run(command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env });
  let forwarded = false;
  const onSignal = () => {
    if (forwarded) return;
    forwarded = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  child.on('error', (error) => {
    say(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, onSignal);
    if (signal) {
      // Die the same way, so npm and shells see what happened; fall back to the conventional code.
      process.kill(process.pid, signal);
      process.exit(128 + (osConstants.signals[signal] ?? 1));
    }
    process.exit(code ?? 1);
  });
}

function startElectron(binary, args) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make the binary a plain Node
  // The package folder (so Electron reads package.json: name, version) when "main" exists; else the built file.
  const main = mainOutput();
  run(binary, [main === packageMain ? root : main, ...args], env);
}

function startHeadless(args) {
  run(process.execPath, [cliOutput, 'serve', ...headlessArgs(args)], process.env);
}

function main() {
  const given = absolutizeConfig(process.argv.slice(2));
  const forceHeadless = given.includes('--headless') || process.env.SWITCHBOARD_HEADLESS === '1';
  const retry = given.includes(retryFlag) || process.env[retryEnv] === '1';
  const args = given.filter((a) => a !== '--headless' && a !== retryFlag);

  if (forceHeadless) {
    buildIfNeeded(() => [rendererOutput, cliOutput]);
    say('Starting headless mode (as asked) — open the URL below in a browser.');
    startHeadless(args);
    return;
  }
  const marker = markerFile(root);
  let binary = findElectron();
  let why;
  let after = '';
  if (!binary) {
    const version = electronVersion(electronDir);
    const decision = downloadDecision({ marker: readMarker(marker), version, retry });
    if (decision.attempt) {
      ({ binary, reason: why } = obtainElectron());
      if (!binary && version !== undefined) {
        rememberFailure(marker, version, why);
        after = ` Not tried again for electron ${version}. ${retryAdvice(root, marker)}.`;
      }
    } else {
      const { reason, at, version: failed } = decision.marker;
      why = `${reason} — on ${at.slice(0, 10)}, not tried again for electron ${failed}`;
      after = ` ${retryAdvice(root, marker)}.`;
    }
  }
  if (binary) {
    forgetFailure(marker);
    buildIfNeeded(electronOutputs);
    // The desktop app has no token.
    startElectron(
      binary,
      args.filter((a) => a !== '--new-token' && a !== '--keep-token'),
    );
    return;
  }
  // Headless needs only the renderer bundle and the CLI bundle.
  buildIfNeeded(() => [rendererOutput, cliOutput]);
  say(`Electron binary not available (${why}); starting headless mode — open the URL below in a browser.${after}`);
  startHeadless(args);
}

main();
