// bin/switchboard.mjs as installed: it runs the bundle (scripts/build-cli.mjs), whose parts load per command
// (chat: the AI SDK; serve: the headless server) through a V8 code cache of the user's own, and says what to do when
// the bundle is missing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { calculatorPath, packageRoot } from '../core/support/paths';
import { tempDir } from '../test-support/processes';

const root = packageRoot();

/** bin/switchboard.mjs copied into a folder of its own, with the bundle beside it when `bundled`. */
function stage(bundled: boolean): string {
  const dir = tempDir('switchboard-bin-');
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'switchboard.mjs'), join(dir, 'bin', 'switchboard.mjs'));
  if (bundled) {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--quiet', '--out-dir', join(dir, 'out', 'cli')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(built.status, built.stderr).toBe(0);
  }
  return join(dir, 'bin', 'switchboard.mjs');
}

function run(bin: string, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', HOME: tempDir(), ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bin/switchboard.mjs', () => {
  let bin = '';
  beforeAll(() => {
    bin = stage(true);
  }, 120_000);

  it('runs the bundle: --help, call, usage errors (exit 2)', () => {
    const help = run(bin, ['--help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^Usage: switchboard /);
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
    const call = run(bin, ['--config', config, 'call', 'calculator', 'add', '{"a":2,"b":3}']);
    expect([call.status, call.stdout, call.stderr]).toEqual([0, '5\n', '']);
    const unknown = run(bin, ['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it('loads chat and the AI SDK on demand (a provider that cannot be reached fails the turn, exit 1)', () => {
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const chat = run(bin, ['--config', config, 'chat', '--model', 'openai:test-model', 'hello'], {
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(chat.status).toBe(1);
    expect(chat.stderr).toContain('Could not reach OpenAI at http://127.0.0.1:9/v1');
    expect(chat.stderr).not.toContain('sk-test-key');
  });

  it("keeps V8's compiled code in a 0700 cache folder of the user's, and uses it on the next run", () => {
    const home = tempDir();
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const first = run(bin, ['--config', config, '--json', 'tools'], { HOME: home });
    expect([first.status, first.stdout, first.stderr]).toEqual([0, '[]\n', '']);
    const folder = join(home, '.cache', 'switchboard', 'v8');
    const files = readdirSync(folder);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^cli\\.cjs-[0-9a-f]{8}-[0-9a-f]{16}-\\d+-\\d+-${process.version}-${process.arch}\\.bin$`))]);
    if (process.platform !== 'win32') {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(join(folder, files[0] ?? '')).mode & 0o777).toBe(0o600);
    }
    const written = statSync(join(folder, files[0] ?? ''));
    // V8 accepted the data: it is not written again (it would be, rejected), and the command's output is the same.
    const second = run(bin, ['--config', config, '--json', 'tools'], { HOME: home });
    expect([second.status, second.stdout, second.stderr]).toEqual([0, '[]\n', '']);
    expect(readdirSync(folder)).toEqual(files);
    expect(statSync(join(folder, files[0] ?? '')).mtimeMs).toBe(written.mtimeMs);
    // Another install of the same build keeps data of its own: the two never replace each other's.
    const other = join(tempDir(), 'pkg');
    cpSync(dirname(dirname(bin)), other, { recursive: true });
    expect(run(join(other, 'bin', 'switchboard.mjs'), ['--config', config, '--json', 'tools'], { HOME: home }).status).toBe(0);
    expect(readdirSync(folder).filter((f) => f.startsWith('cli.cjs-'))).toHaveLength(2);
    expect(run(bin, ['--config', config, '--json', 'tools'], { HOME: home }).status).toBe(0);
    expect(statSync(join(folder, files[0] ?? '')).mtimeMs).toBe(written.mtimeMs);
    // --help has a bundle (and a cache) of its own; NODE_DISABLE_COMPILE_CACHE turns the cache off.
    expect(run(bin, ['--help'], { HOME: home }).status).toBe(0);
    expect(readdirSync(folder).filter((f) => f.startsWith('help.cjs-'))).toHaveLength(1);
    const off = tempDir();
    expect(run(bin, ['--help'], { HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' }).status).toBe(0);
    expect(readdirSync(off)).toEqual([]);
  });

  it('without the bundle, and without a checkout to fall back to, says what to do (exit 2)', () => {
    const bare = stage(false);
    const r = run(bare, ['--help']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the built CLI is missing \(.*out\/cli\/main\.mjs\)\. Run "npm run build"/);
  });
});
