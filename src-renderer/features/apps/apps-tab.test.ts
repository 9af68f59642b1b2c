import { describe, expect, it } from 'vitest';
import type { CallView } from '../../../src-shared/contract/tools';
import { hasRequiredArguments, lastToolResult } from './apps-tab';

const call = (callId: string, over: Partial<CallView>): CallView => ({
  callId,
  server: 's',
  tool: 't',
  args: {},
  state: 'ok',
  startedAt: 1,
  finishedAt: 2,
  result: { content: [{ type: 'text', text: callId }] },
  ...over,
});

describe('apps tab', () => {
  it('opens with the newest finished call of that tool that still has its result', () => {
    const calls = {
      a: call('a', { finishedAt: 10 }),
      b: call('b', { finishedAt: 30, state: 'error', result: { content: [], isError: true } }),
      c: call('c', { finishedAt: 40, tool: 'other' }),
      d: call('d', { finishedAt: 50, server: 'x' }),
      e: call('e', { state: 'running', startedAt: 60, finishedAt: undefined, result: undefined }),
      f: call('f', { finishedAt: 70, result: undefined, resultNotKept: true }),
    };
    expect(lastToolResult(calls, 's', 't')?.callId).toBe('b');
    expect(lastToolResult(calls, 's', 'none')).toBeUndefined();
  });

  it('a tool can be run from the tab only when it requires no argument', () => {
    expect(hasRequiredArguments(undefined)).toBe(false);
    expect(hasRequiredArguments({ type: 'object' })).toBe(false);
    expect(hasRequiredArguments({ type: 'object', required: [] })).toBe(false);
    expect(hasRequiredArguments({ type: 'object', required: ['q'] })).toBe(true);
  });
});
