import { describe, expect, it } from 'vitest';
import type { ServerView, ToolInfo } from '../../src-shared/host-api';
import { parseCommand, promptArgs, resolvePrompt, resolveTool, slashSuggestions } from './command';

const tool = (name: string): ToolInfo => ({ name, inputSchema: { type: 'object' } });
const server = (name: string, tools: string[], status: ServerView['status'] = 'ready'): ServerView => ({
  name,
  transport: 'stdio',
  status,
  disabled: false,
  tools: tools.map(tool),
  target: name,
  stderrTail: [],
  restarts: 0,
});

describe('parseCommand', () => {
  it('reads a tool name and a JSON object', () => {
    expect(parseCommand('/add {"a":2,"b":3}')).toEqual({ kind: 'call', name: 'add', args: { a: 2, b: 3 } });
    expect(parseCommand('  /add{"a":1}  ')).toEqual({ kind: 'call', name: 'add', args: { a: 1 } });
    expect(parseCommand('/calc.add')).toEqual({ kind: 'call', name: 'calc.add', args: {} });
    expect(parseCommand('/calc/add {\n "a": 1\n}')).toEqual({ kind: 'call', name: 'calc/add', args: { a: 1 } });
  });

  it('explains bad input', () => {
    expect(parseCommand('')).toEqual({ kind: 'empty' });
    expect(parseCommand('/help')).toEqual({ kind: 'help' });
    expect(parseCommand('hello')).toEqual({ kind: 'text', text: 'hello' });
    expect(parseCommand('/')).toMatchObject({ kind: 'invalid' });
    expect(parseCommand('/add {a:1}')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('not valid JSON') });
    expect(parseCommand('/add [1,2]')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('JSON object') });
  });
});

describe('resolveTool', () => {
  const servers = [server('calc', ['add', 'divide']), server('abacus', ['add']), server('broken', [], 'error')];

  it('finds a unique bare name across ready servers', () => {
    expect(resolveTool('divide', servers)).toMatchObject({ ok: true, server: 'calc', tool: { name: 'divide' } });
  });

  it('reports ambiguity with the qualified names', () => {
    const r = resolveTool('add', servers);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/ambiguous.*\/calc\.add.*\/abacus\.add/);
  });

  it('takes server.tool and server/tool', () => {
    expect(resolveTool('abacus.add', servers)).toMatchObject({ ok: true, server: 'abacus' });
    expect(resolveTool('calc/add', servers)).toMatchObject({ ok: true, server: 'calc' });
  });

  it('handles dotted server and tool names', () => {
    const dotted = [server('my.server', ['files.read']), server('my', ['server.files.read'])];
    const r = resolveTool('my.server.files.read', dotted);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('ambiguous');
    expect(resolveTool('my.server/files.read', dotted)).toMatchObject({ ok: true, server: 'my.server' });
  });

  it('explains unknown tools and servers that are not ready', () => {
    expect(resolveTool('nope', servers)).toMatchObject({ ok: false, message: expect.stringContaining('Unknown tool "/nope"') });
    expect(resolveTool('broken.add', servers)).toMatchObject({ ok: false, message: expect.stringContaining('"broken" is not ready') });
    expect(resolveTool('calc.power', servers)).toMatchObject({ ok: false, message: expect.stringContaining('has no tool "power"') });
    expect(resolveTool('add', [])).toMatchObject({ ok: false, message: expect.stringContaining('no servers are configured') });
    expect(resolveTool('add', [server('x', ['add'], 'starting')])).toMatchObject({
      ok: false,
      message: expect.stringContaining('no server is ready'),
    });
  });
});

describe('resolvePrompt and slash suggestions', () => {
  const prompt = (name: string) => ({ name, arguments: [] });
  const servers = [server('calc', ['add']), server('p', []), server('q', []), server('down', [], 'error')];
  const lists = {
    p: { value: { prompts: [prompt('greet'), prompt('review')] } },
    q: { value: { prompts: [prompt('review')] } },
    down: { value: { prompts: [prompt('gone')] } },
  };

  it('finds a bare or qualified prompt on ready servers, and reports ambiguity', () => {
    expect(resolvePrompt('greet', servers, lists)).toMatchObject({ kind: 'found', server: 'p', prompt: { name: 'greet' } });
    expect(resolvePrompt('q/review', servers, lists)).toMatchObject({ kind: 'found', server: 'q' });
    expect(resolvePrompt('review', servers, lists)).toMatchObject({ kind: 'ambiguous', message: expect.stringMatching(/\/p\.review.*\/q\.review/) });
    // Not ready: not offered; calc's list is not loaded, so it may still have it.
    expect(resolvePrompt('gone', servers, lists)).toEqual({ kind: 'unknown', unloaded: ['calc'] });
  });

  it('turns typed JSON arguments into the strings prompts take', () => {
    expect(promptArgs({ name: 'Bob', n: 2, flag: true })).toEqual({ name: 'Bob', n: '2', flag: 'true' });
  });

  it('suggests tools and prompts by prefix first, qualified where a name is shared', () => {
    const s = slashSuggestions('re', servers, lists);
    expect(s.map((x) => [x.kind, x.command])).toEqual([
      ['prompt', 'p.review'],
      ['prompt', 'q.review'],
      // then names that merely contain it
      ['prompt', 'greet'],
    ]);
    expect(slashSuggestions('', servers, lists).map((x) => x.command)).toEqual(['add', 'greet', 'p.review', 'q.review']);
    expect(slashSuggestions('dd', servers, lists).map((x) => x.command)).toEqual(['add']);
  });

  it('never suggests an app-only tool (MCP Apps visibility without "model")', () => {
    const appOnly: ToolInfo = { name: 'refresh_view', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://x/v.html', visibility: ['app'] } } };
    const both: ToolInfo = { name: 'render_view', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://x/v.html' } } };
    const withApps: ServerView[] = [{ ...server('x', []), tools: [appOnly, both] }];
    expect(slashSuggestions('re', withApps, {}).map((x) => x.command)).toEqual(['render_view']);
  });
});
