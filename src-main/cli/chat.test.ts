import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { calculatorModel, callTool, say, sequence, startFakeProvider, type FakeProvider } from '../test-support/fake-providers';
import { runPiped, type Piped } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

/** `switchboard chat` as a user runs it: a real process, the real calculator, a fake OpenAI-compatible server. */

const main = join(import.meta.dirname, 'main.ts');
const key = 'sk-cli-test-key-abcdef';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Async (the fake provider lives in this process, so the test must not block its event loop). */
function cli(args: string[], env: Record<string, string>, home = tempDir()): Promise<Piped> {
  return runPiped([main, ...args], { PATH: process.env.PATH ?? '', HOME: home, ...env });
}

function setup(): { config: string; home: string } {
  const home = tempDir();
  const config = join(home, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
  return { config, home };
}

describe('switchboard chat', () => {
  it('--approve all: runs the loop, streams the answer to stdout, tool lines to stderr, and audits the call', async () => {
    fake = await startFakeProvider('openai', calculatorModel());
    const { config, home } = setup();
    const env = { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: key, SWITCHBOARD_MODEL: 'openai:fake-model' };
    const r = await cli(['--config', config, 'chat', '--approve', 'all', 'what is 2+3'], env, home);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('The answer is 5\n');
    expect(r.stderr).toContain('→ calculator › add {"a":2,"b":3}');
    expect(r.stderr).toContain('← 5');
    expect(r.stderr + r.stdout).not.toContain(key);
    const audit = readFileSync(join(home, '.config', 'Switchboard', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"decision":"auto-all"');
    expect(audit).toContain('"source":"cli"');
  });

  it('--approve none never runs a tool; ask without a terminal denies; --json prints one document', async () => {
    fake = await startFakeProvider('anthropic', calculatorModel());
    const { config, home } = setup();
    const env = { ANTHROPIC_BASE_URL: fake.baseURL, ANTHROPIC_API_KEY: key };
    const none = await cli(['--config', config, '--json', 'chat', '--model', 'anthropic:fake-model', '--approve', 'none', 'what is 2+3'], env, home);
    expect(none.status, none.stderr).toBe(0);
    const doc = JSON.parse(none.stdout) as { status: string; text: string; tools: Array<{ tool: string; status: string; decision: string }> };
    expect(doc).toMatchObject({ status: 'done', text: 'You denied the calculator, so I cannot compute that.' });
    expect(doc.tools).toMatchObject([{ tool: 'add', status: 'denied', decision: 'auto-deny' }]);

    const ask = await cli(['--config', config, 'chat', '--model', 'anthropic:fake-model', 'what is 2+3'], env, home);
    expect(ask.status, ask.stderr).toBe(0);
    expect(ask.stderr).toContain('denied — there is no terminal to ask on');
    expect(ask.stdout).toBe('You denied the calculator, so I cannot compute that.\n');
  });

  it('a provider error exits 1 with a readable message; no provider exits 2 and says how to add one', async () => {
    fake = await startFakeProvider('openai', () => ({ kind: 'error', status: 401, body: { error: { message: 'bad key' } } }));
    const { config, home } = setup();
    const failed = await cli(['--config', config, 'chat', '--model', 'openai:m', 'hi'], { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: key }, home);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/rejected the API key \(HTTP 401\)/);
    const none = await cli(['--config', config, 'chat', 'hi'], {}, tempDir());
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('No LLM provider is configured');
    const usage = await cli(['chat', '--approve', 'sometimes', 'hi'], {});
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--approve must be ask, all, readonly or none');
  });

  it('--tool-loading search offers search_tools first and says what it loaded; a bad value exits 2', async () => {
    fake = await startFakeProvider(
      'openai',
      sequence(callTool('search_tools', { query: 'multiply numbers' }), callTool('calculator__multiply', { a: 6, b: 7 }), say('42')),
    );
    const { config, home } = setup();
    const env = { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: key, SWITCHBOARD_MODEL: 'openai:fake-model' };
    const r = await cli(['--config', config, 'chat', '--approve', 'all', '--tool-loading', 'search', 'what is 6*7'], env, home);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('42\n');
    expect(r.stderr).toMatch(/⌕ search_tools "multiply numbers" → calculator › multiply/);
    expect(fake.requests[0]?.toolNames).toEqual(['search_tools']);
    expect(fake.requests[1]?.toolNames).toContain('calculator__multiply');

    const usage = await cli(['chat', '--tool-loading', 'some', 'hi'], {});
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--tool-loading must be auto, all or search, got "some"');
    const help = await cli(['--help'], {});
    expect(help.stdout).toContain('--tool-loading auto|all|search');
  });

  it('--toolset NAME and --servers A,B limit the tools offered; an unknown toolset or server exits 2 saying which there are', async () => {
    fake = await startFakeProvider('openai', sequence(say('ok')));
    const home = tempDir();
    const config = join(home, 'mcp.json');
    const calculator = { command: process.execPath, args: [calculatorPath()] };
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator, calc2: calculator } }));
    const data = join(home, 'data');
    mkdirSync(data);
    writeFileSync(
      join(data, 'chat-settings.json'),
      JSON.stringify({
        toolLoading: 'all',
        toolsets: [
          { name: 'second', servers: ['calc2'] },
          { name: 'adding', tools: ['calculator/add'] },
        ],
      }),
    );
    const env = { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: key, SWITCHBOARD_MODEL: 'openai:fake-model' };
    const run = (flags: string[]) => cli(['--config', config, '--data-dir', data, 'chat', ...flags, 'hi'], env, home);

    const all = await run([]);
    expect(all.status, all.stderr).toBe(0);
    expect(fake.requests.at(-1)?.toolNames).toHaveLength(8);
    const second = await run(['--toolset', 'second']);
    expect(second.status, second.stderr).toBe(0);
    expect(fake.requests.at(-1)?.toolNames.sort()).toEqual(['calc2__add', 'calc2__divide', 'calc2__multiply', 'calc2__subtract']);
    const servers = await run(['--servers', 'calculator']);
    expect(servers.status, servers.stderr).toBe(0);
    expect(fake.requests.at(-1)?.toolNames.every((n) => n.startsWith('calculator__'))).toBe(true);
    // Both: a tool must pass both.
    const both = await run(['--toolset=adding', '--servers=calculator,calc2']);
    expect(both.status, both.stderr).toBe(0);
    expect(fake.requests.at(-1)?.toolNames).toEqual(['calculator__add']);
    const asked = fake.requests.length;

    const unknownSet = await run(['--toolset', 'coding']);
    expect(unknownSet.status).toBe(2);
    expect(unknownSet.stderr).toContain('There is no toolset "coding" (there are: "second", "adding")');
    const unknownServer = await run(['--servers', 'calculator,github']);
    expect(unknownServer.status).toBe(2);
    expect(unknownServer.stderr).toContain('No server named "github" in the config (there are: "calculator", "calc2")');
    const empty = await run(['--servers', ',']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('--servers needs a value');
    expect(fake.requests).toHaveLength(asked);

    const help = await cli(['--help'], {});
    expect(help.stdout).toContain('[--toolset NAME]');
    expect(help.stdout).toContain('--servers A,B only those servers');
    const zh = await cli(['--help'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(zh.stdout).toContain('[--servers A,B]');
    expect(zh.stdout).toContain('--toolset NAME 只提供该工具集的工具');
  }, 120_000);
});
