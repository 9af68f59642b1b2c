// SLOW (packs and installs a real package; tens of seconds): `npm pack` makes a package whose `switchboard` works
// when installed globally on a machine that has nothing else — no checkout, no tsx, no build tools.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

const root = packageRoot();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', timeout: options.timeout ?? 60_000 });
  if (r.error) throw r.error;
  return r;
}

/**
 * The package as `npm pack` in the checkout makes it, staged in a temp folder so that the shared out/ is left
 * alone: the same package.json (its `files`, `bin`, dependencies), bin/, resources/, README, and the CLI bundled
 * by scripts/build-cli.mjs. (prepack, `npm run build`, would also build the app's UI into out/renderer/: `serve`
 * needs it, --help and list do not.)
 */
function stagePackage(): string {
  const stage = tempDir('switchboard-pack-');
  for (const entry of ['package.json', 'bin', 'resources', 'README.md']) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  const built = run(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--quiet', '--out-dir', join(stage, 'out', 'cli')], { cwd: root });
  expect(built.status, built.stderr).toBe(0);
  return stage;
}

describe('npm pack → npm install -g (slow)', () => {
  it('installs a switchboard whose --help and list work from the package alone', { timeout: 300_000 }, () => {
    const stage = stagePackage();
    const packed = run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', stage], { cwd: stage });
    expect(packed.status, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = (info?.files ?? []).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/switchboard.mjs', 'out/cli/main.mjs', 'resources/calculator.mjs', 'package.json']));
    // Only what runs: no sources, tests or build tooling.
    expect(files.filter((f) => /^(src-|scripts\/|bench\/|e2e\/)|\.test\.ts$/.test(f))).toEqual([]);

    const prefix = tempDir('switchboard-prefix-');
    const home = tempDir('switchboard-home-');
    const installed = run(
      npm,
      ['install', '-g', '--prefix', prefix, join(stage, info?.filename ?? ''), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: home,
        env: { ...process.env, npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home, '.npm') },
        timeout: 240_000,
      },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const pkg = join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', 'switchboard');
    expect(existsSync(join(pkg, 'out', 'cli', 'main.mjs'))).toBe(true);
    expect(existsSync(join(pkg, 'src-main'))).toBe(false);
    // A runtime dependency of the calculator, installed with the package; tsx is not (a devDependency).
    expect(
      existsSync(join(pkg, 'node_modules', '@modelcontextprotocol', 'server')) ||
        existsSync(join(prefix, 'lib', 'node_modules', '@modelcontextprotocol', 'server')),
    ).toBe(true);
    expect(readdirSync(join(pkg, 'node_modules'))).not.toContain('tsx');

    // The installed command, on a PATH with only Node: a fresh HOME, so nothing of this machine's user is read.
    const bin = join(prefix, 'bin', process.platform === 'win32' ? 'switchboard.cmd' : 'switchboard');
    const env = { PATH: `${join(prefix, 'bin')}:${join(process.execPath, '..')}:/usr/bin:/bin`, HOME: home };
    const help = run(bin, ['--help'], { cwd: home, env });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: switchboard /);
    expect(help.stderr).toBe('');

    // list on a fresh HOME: the default config (the bundled calculator, from the package's resources/).
    const list = run(bin, ['--json', 'list'], { cwd: home, env });
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([{ name: 'calculator', transport: 'stdio', status: 'ready', protocolVersion: '2026-07-28', tools: 4 }]);

    // list on a config of its own.
    const config = join(home, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [join(pkg, 'resources', 'calculator.mjs')] } } }));
    const own = run(bin, ['--config', config, 'list'], { cwd: home, env });
    expect(own.status, own.stderr).toBe(0);
    expect(own.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATUS/);
    expect(own.stdout).toMatch(/\ncalc\s+stdio\s+ready\s+2026-07-28\s+4\n/);
    expect(readFileSync(join(pkg, 'package.json'), 'utf8')).toContain('"switchboard"');
  });
});
