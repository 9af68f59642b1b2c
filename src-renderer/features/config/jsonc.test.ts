import { describe, expect, it } from 'vitest';
import { lineColumnAt, lintConfigText, mainProblem, offsetAt, parseLocatedMessage, readConfig } from './jsonc';

describe('readConfig', () => {
  it('reads servers (unknown keys kept) and inputs from JSONC', () => {
    const text = `{
  // mine
  "inputs": [{ "id": "db", "type": "promptString", "description": "Database password", "password": true }, { "id": "plain" }],
  "mcpServers": {
    "calc": { "command": "node", "args": ["c.mjs"], "x-extra": 1, },
  },
}`;
    const parsed = readConfig(text);
    expect(parsed.servers).toEqual({ calc: { command: 'node', args: ['c.mjs'], 'x-extra': 1 } });
    expect(parsed.inputs).toEqual([
      { id: 'db', description: 'Database password', password: true },
      { id: 'plain', password: false },
    ]);
  });

  it('gives no servers for text that does not parse', () => {
    expect(readConfig('{ "mcpServers": { ').servers).toBeUndefined();
  });
});

describe('lintConfigText', () => {
  it('finds nothing wrong with a good file (comments and trailing commas allowed)', () => {
    expect(lintConfigText('{\n  // c\n  "mcpServers": { "a": { "command": "x", }, },\n}\n')).toEqual([]);
  });

  it('locates a syntax error at its line and column', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n';
    const [first] = lintConfigText(text);
    expect(first).toMatchObject({ line: 4, column: 5, source: 'local' });
    expect(first?.message).toContain('comma');
  });

  it('locates an entry with neither command nor url at its name', () => {
    const text = '{\n  "mcpServers": {\n    "ok": { "url": "http://x" },\n    "bad": { "args": ["x"] }\n  }\n}';
    expect(lintConfigText(text)).toEqual([
      expect.objectContaining({ line: 4, column: 5, message: expect.stringContaining('needs either "command"') as unknown }),
    ]);
  });

  it('reports a missing or mistyped mcpServers and an empty file', () => {
    expect(lintConfigText('{}')[0]?.message).toContain('missing "mcpServers"');
    expect(lintConfigText('{\n "mcpServers": []\n}')[0]).toMatchObject({ line: 2, message: expect.stringContaining('must be an object') as unknown });
    expect(lintConfigText('')[0]?.message).toContain('empty');
  });
});

describe('positions', () => {
  it('converts offsets and line/column both ways', () => {
    const text = 'ab\ncde\n\nf';
    expect(lineColumnAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt(text, 4)).toEqual({ line: 2, column: 2 });
    expect(offsetAt(text, 2, 2)).toBe(4);
    expect(offsetAt(text, 4, 1)).toBe(8);
    expect(offsetAt(text, 2, 99)).toBe(6); // clamped to the line's end
    expect(offsetAt(text, 99, 1)).toBe(text.length);
  });

  it('places main’s problem from its line to the end of that line', () => {
    const text = '{\n  "mcpServers": 3\n}';
    expect(mainProblem(text, 2, 3, 'nope')).toEqual({ line: 2, column: 3, from: 4, to: 19, message: 'nope', source: 'main' });
  });
});

describe('parseLocatedMessage', () => {
  it('reads FILE:LINE:COL: message, with the file known or not (Windows drive letters too)', () => {
    expect(parseLocatedMessage('/tmp/x/mcp.json:4:7: mcpServers.a.args must be an array', '/tmp/x/mcp.json')).toEqual({
      line: 4,
      column: 7,
      message: 'mcpServers.a.args must be an array',
    });
    expect(parseLocatedMessage('C:\\Users\\me\\mcp.json:12:3: not valid JSON: expected a comma')).toEqual({
      line: 12,
      column: 3,
      message: 'not valid JSON: expected a comma',
    });
  });

  it('gives undefined for an unlocated message', () => {
    expect(parseLocatedMessage('The config file changed on disk since the editor loaded it.', '/tmp/mcp.json')).toBeUndefined();
  });
});
