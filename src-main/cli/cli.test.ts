import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { alive, pidsWith, tempDir, waitFor } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];

/** Runs the CLI as QA scripts do, with a fresh HOME so nothing touches the real user config. */
function cli(args: string[], home = tempDir()): { status: number | null; stdout: string; stderr: string; home: string } {
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, home };
}

/** `serve` on a config with one tagged calculator and a UI folder of the test's own (the real build may not exist yet). */
async function startServe(): Promise<{ child: ReturnType<typeof spawn>; url: URL; tag: string; calculatorPid: number }> {
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test UI</title>');
  const tag = `--tag=${tempDir()}`;
  const config = configFile({ calculator: { command: process.execPath, args: [calculatorPath(), tag] } });
  const child = spawn(process.execPath, [...cliArgs, '--config', config, 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), SWITCHBOARD_UI_DIR: rendererDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  await waitFor(() => stdout.includes('\n'), 20_000, 'the URL line');
  // The session child (the calculator answers the era probe in place, so there is one process).
  await waitFor(() => pidsWith(tag).length === 1, 15_000, 'the calculator child');
  return { child, url: new URL(stdout.split('\n')[0] ?? ''), tag, calculatorPid: pidsWith(tag)[0] ?? 0 };
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function configFile(servers: Record<string, unknown>): string {
  const file = join(tempDir(), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

describe('switchboard CLI', () => {
  it('on a fresh home, writes the default config and lists the calculator ready with 4 tools (--json)', () => {
    const r = cli(['--json', 'list']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ name: 'calculator', transport: 'stdio', status: 'ready', protocolVersion: '2026-07-28', tools: 4 }]);
    expect(existsSync(join(r.home, '.config', 'Switchboard', 'mcp.json'))).toBe(true);
  });

  it('call: prints the result and exits 0; a tool error exits 1 with the message on stderr', () => {
    const config = configFile({ calculator: { command: process.execPath, args: [calculatorPath()] } });
    const ok = cli(['--config', config, 'call', 'calculator', 'add', '{"a":2,"b":3}']);
    expect([ok.status, ok.stdout]).toEqual([0, '5\n']);
    const json = cli(['--config', config, '--json', 'call', 'calculator', 'multiply', '{"a":6,"b":7}']);
    // The result as the server gave it, its `_meta` kept (the 2026 SDK names the server there).
    expect(JSON.parse(json.stdout)).toEqual({
      content: [{ type: 'text', text: '42' }],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'switchboard-calculator', version: '1.0.0' } },
    });
    const byZero = cli(['--config', config, 'call', 'calculator', 'divide', '{"a":1,"b":0}']);
    expect(byZero.status).toBe(1);
    expect(byZero.stderr).toContain('calculator/divide returned an error: Cannot divide 1 by zero');
    const unknownTool = cli(['--config', config, 'call', 'calculator', 'pow', '{}']);
    expect(unknownTool.status).toBe(1);
    expect(unknownTool.stderr).toContain('has no tool "pow"');
  });

  it('list exits 0 even when a server fails, and tools --json lists the schema', () => {
    const config = configFile({
      calculator: { command: process.execPath, args: [calculatorPath()] },
      broken: { command: 'no-such-command-for-switchboard' },
    });
    const list = cli(['--config', config, '--json', 'list']);
    expect(list.status).toBe(0);
    const rows = JSON.parse(list.stdout) as Array<{ name: string; status: string; error?: string }>;
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['calculator', 'ready'],
      ['broken', 'error'],
    ]);
    expect(rows[1]?.error).toMatch(/command not found/);
    const human = cli(['--config', config, 'list']);
    expect(human.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+PROTOCOL\s+TOOLS\s+ERROR\n/);
    const tools = cli(['--config', config, '--json', 'tools', 'calculator']);
    const parsed = JSON.parse(tools.stdout) as Array<{ server: string; name: string; inputSchema: unknown }>;
    expect(parsed.map((t) => t.name)).toEqual(['add', 'subtract', 'multiply', 'divide']);
    expect(parsed[0]).toMatchObject({ server: 'calculator', inputSchema: { type: 'object' } });
  });

  it('doctor shows the resolved command and env names (never values), and exits 1 when a server fails', () => {
    const config = configFile({
      calculator: { command: 'node', args: [calculatorPath(), '--debug'], env: { API_KEY: 'value-that-must-not-print' } },
      broken: { command: 'no-such-command-for-switchboard' },
    });
    const r = cli(['--config', config, 'doctor']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/\[OK\] calculator \(stdio\)\n {2}command: \/\S*node\n/);
    expect(r.stdout).toMatch(/env: {5}default: [A-Z ]*PATH[A-Z ]*; allow-list: -; server env: API_KEY \(values not shown\)/);
    expect(r.stdout).toMatch(/status: {2}ready, protocol 2026-07-28 \(modern\), ready in \d+ ms, 4 tools/);
    expect(r.stdout).toContain('[calculator] starting (precision 10)');
    expect(r.stdout).toMatch(/\[FAIL\] broken \(stdio\)\n {2}command: no-such-command-for-switchboard\n/);
    expect(r.stdout).toContain('command not found. Looked in');
    expect(r.stdout + r.stderr).not.toContain('value-that-must-not-print');
    const one = cli(['--config', config, '--json', 'doctor', 'calculator']);
    expect(one.status).toBe(0);
    const report = JSON.parse(one.stdout) as { servers: Array<{ name: string; env: Array<{ name: string; source: string }> }> };
    expect(report.servers.map((s) => s.name)).toEqual(['calculator']);
    expect(report.servers[0]?.env).toContainEqual({ name: 'API_KEY', source: 'server-env' });
  });

  it('import shows a preview; --yes adds what does not conflict and says what it skipped; the source is untouched', () => {
    const home = tempDir();
    const source = join(tempDir(), 'claude_desktop_config.json');
    const sourceText = JSON.stringify({
      mcpServers: { fresh: { command: 'node', args: ['a.js'], env: { API_TOKEN: 'tok-literal' } }, calculator: { command: 'other' } },
    });
    writeFileSync(source, sourceText);
    const config = configFile({ calculator: { command: process.execPath, args: [calculatorPath()] } });
    const preview = cli(['--config', config, 'import', source], home);
    expect(preview.status).toBe(0);
    expect(preview.stdout).toMatch(/\+ fresh\s+new \(secret-looking: env\.API_TOKEN\)/);
    expect(preview.stdout).toMatch(/! calculator\s+CONFLICT/);
    expect(preview.stdout).toContain('Nothing changed. Re-run with --yes to add 1 new server(s) and skip 1 conflict(s).');
    const applied = cli(['--config', config, 'import', source, '--yes', '--move-secrets'], home);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Added: fresh.');
    expect(applied.stdout).toContain('Skipped calculator: a different server of that name exists (not overwritten).');
    expect(applied.stdout).toContain('Stored as secrets: fresh_API_TOKEN');
    expect(applied.stderr).toContain('not in the OS keychain');
    expect(readFileSync(source, 'utf8')).toBe(sourceText);
    const written = JSON.parse(readFileSync(config, 'utf8')) as { mcpServers: Record<string, { command?: string; env?: Record<string, string> }> };
    expect(written.mcpServers.fresh?.env).toEqual({ API_TOKEN: '${secret:fresh_API_TOKEN}' });
    expect(written.mcpServers.calculator?.command).toBe(process.execPath);
    expect(cli(['--config', config, 'secret', 'list'], home).stdout).toBe('fresh_API_TOKEN\n');
    const exported = cli(['--config', config, 'export', 'fresh'], home);
    expect(JSON.parse(exported.stdout)).toEqual({
      mcpServers: { fresh: { command: 'node', args: ['a.js'], env: { API_TOKEN: '${secret:fresh_API_TOKEN}' } } },
    });
    expect(cli(['--config', config, 'export', 'nope'], home).status).toBe(2);
    expect(cli(['--config', config, 'secret', 'delete', 'fresh_API_TOKEN'], home).status).toBe(0);
    expect(cli(['--config', config, 'secret', 'list'], home).stdout).toBe('');
  });

  it('serve stops cleanly on Ctrl+C (SIGINT) too, leaving no child', async () => {
    const { child, tag } = await startServe();
    const exited = exitOf(child);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(pidsWith(tag)).toEqual([]);
  });

  it('serve refuses a non-loopback address unless --allow-remote', () => {
    const config = configFile({});
    const r = cli(['--config', config, 'serve', '--host', '0.0.0.0', '--port', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('serve binds to loopback only; 0.0.0.0 would expose a program launcher');
  });

  it('serve on a full disk: exit 1 and one line saying where and why, no stack trace', async (context) => {
    const home = tempDir();
    const dataDir = join(home, '.config', 'Switchboard');
    mkdirSync(dataDir, { recursive: true });
    // A real full disk: the data folder on a tiny tmpfs (mounting needs root; elsewhere the test is skipped).
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', dataDir], { encoding: 'utf8' });
    if (mount.status !== 0) return context.skip(`cannot mount a tmpfs here (needs root): ${mount.stderr.trim()}`);
    try {
      const config = configFile({});
      // A first run makes the data folder's files; then the disk fills up.
      expect(cli(['--config', config, 'list'], home).status).toBe(0);
      const filler = spawnSync('dd', ['if=/dev/zero', `of=${join(dataDir, 'filler')}`, 'bs=4k'], { encoding: 'utf8' });
      expect(filler.stderr).toContain('No space left on device');
      const rendererDir = tempDir();
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test UI</title>');
      const r = spawnSync(process.execPath, [...cliArgs, '--config', config, 'serve', '--port', '0'], {
        env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_UI_DIR: rendererDir },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      // serve mirrors its own log to stderr ("[switchboard] …"); the error is the one other line.
      const lines = r.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('[switchboard] '));
      expect(lines).toEqual([
        `switchboard: cannot save the serve address to ${join(dataDir, 'serve.json')} (ENOSPC: no space left on device, write); nothing is served. Free some space on that disk (or make the folder writable) and start serve again.`,
      ]);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(join(dataDir, 'serve.json'))).toBe(false);
    } finally {
      spawnSync('umount', [dataDir]);
    }
  });

  it('usage and config errors exit 2 with FILE:LINE:COL', () => {
    expect(cli(['frobnicate']).status).toBe(2);
    expect(cli(['call', 'only-server']).status).toBe(2);
    const config = configFile({ calculator: { command: process.execPath, args: [calculatorPath()] } });
    const badJson = cli(['--config', config, 'call', 'calculator', 'add', '{a:1}']);
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/ARGS_JSON is not valid JSON/);
    const dir = tempDir();
    const broken = join(dir, 'mcp.json');
    writeFileSync(broken, '{\n  "mcpServers": {\n    "x": {"command": "a", "args": "b"}\n  }\n}\n');
    const r = cli(['--config', broken, 'list']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`${broken}:3:27: mcpServers.x.args must be an array of strings, got a string ("b")`);
    const missing = cli(['--config', join(dir, 'nope.json'), 'list']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.json:1:1: the config file does not exist');
  });

  it('serve prints the URL first, refuses requests without the token, and SIGTERM leaves no child behind', async () => {
    const { child, url, tag, calculatorPid } = await startServe();
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await fetch(`${url.origin}/`)).status).toBe(401);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>test UI</title>');
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(pidsWith(tag)).toEqual([]);
    expect(alive(calculatorPid)).toBe(false);
  });

  it('a reader that goes away (`| head`) does not crash the CLI: it exits with its own code and leaves no process', async () => {
    const tag = `--tag=${tempDir()}`;
    const config = configFile({ calculator: { command: process.execPath, args: [calculatorPath(), tag] } });
    for (const args of [['tools'], ['--json', 'list'], ['call', 'calculator', 'divide', '{"a":1,"b":0}']]) {
      const child = spawn(process.execPath, [...cliArgs, '--config', config, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: tempDir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // The read end closes before the CLI writes anything: its first write to stdout fails with EPIPE.
      child.stdout?.destroy();
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await exitOf(child);
      expect(stderr).not.toMatch(/Unhandled 'error' event|EPIPE/);
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(args[0] === 'call' ? 1 : 0);
      expect(pidsWith(tag)).toEqual([]);
    }
  });
});
