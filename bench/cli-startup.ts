/**
 * The CLI's start-up, as a person pays it: whole processes, wall time from spawn to exit, measured side by side
 * in one run (rounds interleaved, order rotated, medians) against the same echo server on the same Node:
 *
 * - `cli`: `switchboard --config FILE tools` — bin/switchboard.mjs running the bundle (out/cli/main.mjs, built
 *   first from the current sources into a staged copy), on a fresh HOME warmed by one run (as a user's would be).
 * - `inspector`: the MCP Inspector CLI (@modelcontextprotocol/inspector-cli) doing `--method tools/list`: its own
 *   process (build/index.js), the one that connects. Its launcher (`mcp-inspector-cli --cli …`, which starts that
 *   process as a child) is measured too, as context: it is what `npx @modelcontextprotocol/inspector --cli` runs.
 * - `bareSdk`: bench/bare-tools.mjs, the bare SDK connecting, listing and closing.
 * - `help`: `switchboard --help`; and `node -e 0`, the floor every process pays on this machine.
 *
 * The Inspector CLI reads its own package.json by a path relative to the working directory (`../package.json`),
 * so it runs from its build folder, as it does when installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tempDir } from '../src-main/test-support/processes';
import { echo, round } from './common';

const root = join(import.meta.dirname, '..');
const bareTools = join(import.meta.dirname, 'bare-tools.mjs');

export interface CliStartupResult {
  cliToolsVsInspectorRatio: number;
  cliToolsVsBareSdkRatio: number;
  cliHelpMs: number;
  figures: {
    rounds: number;
    medianMs: { cliTools: number; inspectorTools: number; inspectorLauncherTools: number; bareSdkTools: number; cliHelp: number; nodeEmpty: number };
    minMs: { cliTools: number; inspectorTools: number; bareSdkTools: number; cliHelp: number };
    inspectorVersion: string;
    loadAverage: number[];
  };
}

interface Side {
  command: string;
  args: string[];
  cwd?: string;
  /** What stdout must contain for the run to count (it did the work). */
  expect?: string;
}

function runOnce(side: Side, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(side.command, side.args, { cwd: side.cwd ?? root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const elapsed = performance.now() - started;
      if (code !== 0 || (side.expect !== undefined && !stdout.includes(side.expect))) {
        reject(new Error(`${[side.command, ...side.args].join(' ')} exited ${code}: ${stderr.slice(-500) || stdout.slice(-500)}`));
      } else resolve(elapsed);
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function measureCliStartup({ quick = false }: { quick?: boolean } = {}): Promise<CliStartupResult> {
  // bin/switchboard.mjs and a bundle of the current sources, staged apart so that another build of out/ meanwhile
  // (the machine is shared) cannot change what is measured. The bundle needs nothing else (resources/ only for
  // the default config, which --config skips).
  const stage = tempDir('switchboard-bench-cli-bin-');
  mkdirSync(join(stage, 'bin'));
  copyFileSync(join(root, 'bin', 'switchboard.mjs'), join(stage, 'bin', 'switchboard.mjs'));
  const bin = join(stage, 'bin', 'switchboard.mjs');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--quiet', '--out-dir', join(stage, 'out', 'cli')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`scripts/build-cli.mjs failed: ${built.stderr}`);

  const require = createRequire(import.meta.url);
  const inspectorPackage = require.resolve('@modelcontextprotocol/inspector-cli/package.json');
  const inspectorBuild = join(dirname(inspectorPackage), 'build');
  const inspectorVersion = (require(inspectorPackage) as { version: string }).version;

  const home = tempDir('switchboard-bench-cli-');
  const config = join(home, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [echo] } } }));
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const node = process.execPath;
  const sides: Record<keyof CliStartupResult['figures']['medianMs'], Side> = {
    cliTools: { command: node, args: [bin, '--config', config, 'tools'], expect: 'echo' },
    inspectorTools: { command: node, args: [join(inspectorBuild, 'index.js'), node, echo, '--method', 'tools/list'], cwd: inspectorBuild, expect: '"echo"' },
    inspectorLauncherTools: {
      command: node,
      args: [join(inspectorBuild, 'cli.js'), '--cli', node, echo, '--method', 'tools/list'],
      cwd: inspectorBuild,
      expect: '"echo"',
    },
    bareSdkTools: { command: node, args: [bareTools, node, echo], expect: '"echo"' },
    cliHelp: { command: node, args: [bin, '--help'], expect: 'Usage: switchboard' },
    nodeEmpty: { command: node, args: ['-e', '0'] },
  };
  const entries = Object.entries(sides) as Array<[keyof typeof sides, Side]>;
  // Warm-up: the OS file cache, and the CLI's first run on a fresh HOME (it writes the data folder, and V8's code
  // cache of the bundle in HOME/.cache/switchboard, once: as a user's later runs find them).
  for (const [, side] of entries) await runOnce(side, env);
  const rounds = quick ? 5 : 15;
  const samples = Object.fromEntries(entries.map(([k]) => [k, [] as number[]])) as Record<keyof typeof sides, number[]>;
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < entries.length; k++) {
      const [name, side] = entries[(i + k) % entries.length] as [keyof typeof sides, Side];
      samples[name].push(await runOnce(side, env));
    }
  }
  const med = Object.fromEntries(entries.map(([k]) => [k, round(median(samples[k]), 1)])) as CliStartupResult['figures']['medianMs'];
  const min = (k: keyof typeof sides): number => round(Math.min(...samples[k]), 1);
  return {
    cliToolsVsInspectorRatio: round(med.cliTools / med.inspectorTools),
    cliToolsVsBareSdkRatio: round(med.cliTools / med.bareSdkTools),
    cliHelpMs: med.cliHelp,
    figures: {
      rounds,
      medianMs: med,
      minMs: { cliTools: min('cliTools'), inspectorTools: min('inspectorTools'), bareSdkTools: min('bareSdkTools'), cliHelp: min('cliHelp') },
      inspectorVersion,
      loadAverage: (await import('node:os')).loadavg().map((n) => round(n, 2)),
    },
  };
}

// `node --import tsx bench/cli-startup.ts [--quick] [--json]`: this measurement alone.
if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes('--quick');
  const result = await measureCliStartup({ quick });
  process.stdout.write(`${process.argv.includes('--json') ? JSON.stringify(result) : JSON.stringify(result, null, 2)}\n`);
}
