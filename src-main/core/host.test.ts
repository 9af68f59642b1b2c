import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calculatorPath } from './support/paths';
import { createHost, type Host } from './host';
import { StaticSettings } from './settings/store';
import { nodeRuntime } from './config/runtime';
import { MemorySecretStore } from './secrets/store';
import { alive, tempDir, waitFor, pidsWith } from '../test-support/processes';

async function hostWith(servers: Record<string, unknown>): Promise<{ host: Host; dir: string }> {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const host = await createHost({ mode: 'headless', configPath: config, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime: nodeRuntime() });
  return { host, dir };
}

describe('host with the bundled calculator', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('connects, lists 4 tools, calls them, and reports divide-by-zero as a tool error', async () => {
    ({ host } = await hostWith({
      calculator: { command: process.execPath, args: [calculatorPath(), '--debug'], env: { CALC_PRECISION: '3' } },
    }));
    const seen: string[] = [];
    host.api.on('servers:changed', (delta) => seen.push(...delta.changed.map((v) => v.status)));
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view).toMatchObject({ name: 'calculator', transport: 'stdio', status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(view?.tools.map((t) => t.name).sort()).toEqual(['add', 'divide', 'multiply', 'subtract']);
    expect(view?.tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    await waitFor(() => seen.includes('ready'), 2000, 'a servers:changed event with ready');

    expect(await host.api['tools:call']({ server: 'calculator', tool: 'add', args: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    // CALC_PRECISION from the server's env block is honoured.
    const third = await host.api['tools:call']({ server: 'calculator', tool: 'divide', args: { a: 1, b: 3 } });
    expect(third.content).toEqual([{ type: 'text', text: '0.333' }]);
    const byZero = await host.api['tools:call']({ server: 'calculator', tool: 'divide', args: { a: 1, b: 0 } });
    expect(byZero.isError).toBe(true);
    expect(byZero.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/divide 1 by zero/) });
    // --debug logs go to stderr, which we keep per server.
    await waitFor(async () => ((await host?.api['servers:list']())?.[0]?.stderrTail ?? []).some((l) => l.includes('add(2, 3) = 5')), 2000, 'stderr tail');
  });

  it('names unknown servers and tools', async () => {
    ({ host } = await hostWith({ calculator: { command: process.execPath, args: [calculatorPath()] } }));
    await host.settled();
    await expect(host.api['tools:call']({ server: 'nope', tool: 'add', args: {} })).rejects.toMatchObject({
      code: 'unknown-server',
      message: 'There is no server named "nope" in the config. Configured: calculator.',
    });
    await expect(host.api['tools:call']({ server: 'calculator', tool: 'pow', args: {} })).rejects.toMatchObject({
      code: 'unknown-tool',
      message: expect.stringContaining('Its tools: add, subtract, multiply, divide'),
    });
  });

  it('a server whose command does not exist fails with a readable reason; its neighbour stays ready', async () => {
    ({ host } = await hostWith({
      calculator: { command: process.execPath, args: [calculatorPath()] },
      broken: { command: 'definitely-not-a-command-xyz' },
      crashes: { command: process.execPath, args: ['-e', 'process.stderr.write("fatal: bad config\\n"); process.exit(3)'] },
    }));
    await host.settled();
    const views = await host.api['servers:list']();
    const byName = Object.fromEntries(views.map((v) => [v.name, v]));
    expect(byName.calculator?.status).toBe('ready');
    expect(byName.broken?.status).toBe('error');
    expect(byName.broken?.error).toMatch(
      /^Cannot start "definitely-not-a-command-xyz": command not found\. Looked in .*Install it, put its absolute path in "command", or add its folder to your login shell's PATH\.$/s,
    );
    expect(byName.crashes?.status).toBe('error');
    expect(byName.crashes?.error).toContain('fatal: bad config');
    expect((await host.api['tools:call']({ server: 'calculator', tool: 'multiply', args: { a: 6, b: 7 } })).content).toEqual([{ type: 'text', text: '42' }]);
    await expect(host.api['tools:call']({ server: 'broken', tool: 'x', args: {} })).rejects.toMatchObject({ code: 'server-not-ready' });
  });

  it('dispose ends every child, and restart replaces the child', async () => {
    // The calculator path is shared with other tests; mark ours by an argument only this test uses.
    const tag = `--tag=${tempDir()}`;
    ({ host } = await hostWith({
      one: { command: process.execPath, args: [calculatorPath(), tag], cwd: '.' },
      two: { command: process.execPath, args: [calculatorPath(), '--debug', tag] },
    }));
    await host.settled();
    const first = pidsWith(tag);
    expect(first).toHaveLength(2);
    await host.api['servers:restart']('one');
    expect((await host.api['servers:list']()).find((v) => v.name === 'one')?.status).toBe('ready');
    const second = pidsWith(tag);
    expect(second).toHaveLength(2);
    expect(second).not.toEqual(first);
    await host.dispose();
    await host.dispose(); // idempotent
    await waitFor(() => [...first, ...second].every((pid) => !alive(pid)), 5000, 'children to exit');
    expect(pidsWith(tag)).toEqual([]);
  });
});

describe('host construction', () => {
  it('a step that fails disposes what was made before it: the log is closed, saying so', async () => {
    const dir = tempDir();
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
    const secrets = new MemorySecretStore();
    secrets.list = () => {
      throw new Error('the keychain is locked');
    };
    await expect(
      createHost({ mode: 'headless', configPath, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime: nodeRuntime(), secrets }),
    ).rejects.toThrow('the keychain is locked');
    expect(readFileSync(join(dir, 'logs', 'switchboard.log'), 'utf8')).toContain('stopped; every server session closed and every process tree ended');
  });
});
