import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../../src-shared/host-api';
import { autoMaxTools, effectiveLoading } from './loading';

const tool = (name: string, description = 'Does one thing.'): { info: ToolInfo } => ({
  info: { name, description, inputSchema: { type: 'object', properties: {} } },
});

describe('effectiveLoading', () => {
  it('auto: all up to the tool count and byte budget, search beyond either', () => {
    const few = Array.from({ length: autoMaxTools }, (_, i) => tool(`t${i}`));
    expect(effectiveLoading('auto', few)).toBe('all');
    expect(effectiveLoading('auto', [...few, tool('one_more')])).toBe('search');
    // Few tools, but long definitions: ~40 KB of JSON.
    const wordy = Array.from({ length: 10 }, (_, i) => tool(`w${i}`, 'x'.repeat(4000)));
    expect(effectiveLoading('auto', wordy)).toBe('search');
  });

  it('all and search are taken as they are', () => {
    expect(effectiveLoading('search', [tool('a')])).toBe('search');
    expect(
      effectiveLoading(
        'all',
        Array.from({ length: 500 }, (_, i) => tool(`t${i}`)),
      ),
    ).toBe('all');
  });
});
