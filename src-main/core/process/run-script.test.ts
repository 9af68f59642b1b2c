import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { calculatorPath } from '../support/paths';
import { checkedScriptPath, parseRunScriptArgv, RunScriptError, runScriptFlag } from './run-script';
import { tempDir } from '../../test-support/processes';

const fakeApp = join(import.meta.dirname, '..', 'fixtures', 'fake-app.ts');
/** The app's binary as the first-run config names it, with Node and the fake entry standing in for Electron. */
const appCommand = [process.execPath, '--import', 'tsx', fakeApp];
const resourcesDir = dirname(calculatorPath());

const running = new Set<ChildProcess>();
// A failing test must not leave its app process behind.
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Runs the fake app to its end with stdin closed at once: exit code, signal and stderr. */
function runApp(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [command = '', ...prefix] = appCommand;
    const child = spawn(command, [...prefix, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    running.add(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stderr });
    });
    child.stdin.end();
  });
}

describe('parseRunScriptArgv', () => {
  it('finds the script and its own arguments after the flag (and the optional --), and nothing in a normal start', () => {
    expect(parseRunScriptArgv(['/opt/app', runScriptFlag, '--', '/r/calc.mjs', '--debug', 'x'])).toEqual({ script: '/r/calc.mjs', args: ['--debug', 'x'] });
    expect(parseRunScriptArgv(['/electron', '/repo/out/main/index.js', runScriptFlag, '/r/calc.mjs'])).toEqual({ script: '/r/calc.mjs', args: [] });
    expect(parseRunScriptArgv(['/opt/app', '--config', 'mcp.json'])).toBeUndefined();
    expect(() => parseRunScriptArgv(['/opt/app', runScriptFlag, '--'])).toThrow(RunScriptError);
  });
});

describe('checkedScriptPath', () => {
  it('accepts only scripts inside the resources folder: not outside, not by .., not through a symlink, not relative', () => {
    expect(checkedScriptPath(calculatorPath(), resourcesDir)).toBe(calculatorPath());
    const dir = tempDir();
    const outside = join(dir, 'evil.mjs');
    writeFileSync(outside, '');
    expect(() => checkedScriptPath(outside, resourcesDir)).toThrow(/runs only the scripts bundled in its resources folder/);
    expect(() => checkedScriptPath(join(resourcesDir, '..', 'package.json'), resourcesDir)).toThrow(RunScriptError);
    expect(() => checkedScriptPath(resourcesDir, resourcesDir)).toThrow(RunScriptError);
    expect(() => checkedScriptPath('resources/calculator.mjs', resourcesDir)).toThrow(/absolute path/);
    // A resources folder whose link points elsewhere: the link's target is what counts.
    const fakeResources = join(dir, 'resources');
    mkdirSync(fakeResources);
    symlinkSync(outside, join(fakeResources, 'calculator.mjs'));
    expect(() => checkedScriptPath(join(fakeResources, 'calculator.mjs'), join(dir, 'resources'))).toThrow(RunScriptError);
    expect(checkedScriptPath(join(fakeResources, 'calculator.mjs'), dir)).toBe(outside);
  });
});

describe('the app binary running its bundled calculator (--switchboard-run-script)', () => {
  it('speaks MCP on stdio: handshake, tools, add; the script sees its own argv (--debug) and env', async () => {
    const [command = '', ...prefix] = appCommand;
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, runScriptFlag, '--', calculatorPath(), '--debug'],
      env: { PATH: process.env.PATH ?? '', CALC_PRECISION: '2' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'run-script-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['add', 'divide', 'multiply', 'subtract']);
      expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
      expect(await client.callTool({ name: 'divide', arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: '0.67' }] });
    } finally {
      await client.close();
    }
    expect(stderr).toContain('[calculator] starting (precision 2)');
    expect(stderr).toContain('[calculator] add(2, 3) = 5');
  });

  it('exits by itself (code 0) when the client closes stdin, though the app process would otherwise live on', async () => {
    const result = await runApp([runScriptFlag, '--', calculatorPath()]);
    expect(result).toMatchObject({ code: 0, signal: null });
  });

  it('refuses a script outside the resources folder without running it, and says why (exit 1)', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const script = join(dir, 'evil.mjs');
    writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'yes');\n`);
    const result = await runApp([runScriptFlag, '--', script]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Switchboard runs only the scripts bundled in its resources folder (${resourcesDir}), and ${script} is not one.`);
    expect(existsSync(marker)).toBe(false);
  });

  it('is a normal app start without the flag', async () => {
    expect(await runApp(['--config', 'x.json'])).toMatchObject({ code: 3, stderr: 'fake app: started as the app (no run-script flag)\n' });
  });
});
