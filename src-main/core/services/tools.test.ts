import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';
import { ToolsService } from './tools';

/** A fleet of one server whose callTool records what reached it. */
function recording(): { fleet: ServerFleet; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const supervisor = {
    callTool: async (...args: unknown[]): Promise<ToolResult> => {
      calls.push(args);
      return { content: [], isError: false } as unknown as ToolResult;
    },
  };
  const fleet = { get: (name: string) => (name === 'srv' ? supervisor : undefined) } as unknown as ServerFleet;
  return { fleet, calls };
}

describe('ToolsService tools:call arguments (in-process callers skip the second zod pass only when nothing changes)', () => {
  it('a well-formed request reaches the server as it is; missing args become {}', async () => {
    const { fleet, calls } = recording();
    const api = new ToolsService(fleet).api;
    await api['tools:call']({ server: 'srv', tool: 'echo', args: { text: 'x' } });
    await api['tools:call']({ server: 'srv', tool: 'echo' });
    await api['tools:call']({ server: 'srv', tool: 'echo', args: {}, task: true });
    expect(calls.map((c) => [c[0], c[1]])).toEqual([
      ['echo', { text: 'x' }],
      ['echo', {}],
      ['echo', {}],
    ]);
    expect(calls[2]?.[2]).toEqual({ task: true });
  });

  it('a malformed request is refused by the schema, as before', async () => {
    const { fleet, calls } = recording();
    const api = new ToolsService(fleet).api;
    const call = api['tools:call'] as (request: unknown) => Promise<unknown>;
    await expect(call({ server: 'srv', tool: 'echo', args: ['not', 'an', 'object'] })).rejects.toThrow(/args/);
    await expect(call({ server: '', tool: 'echo' })).rejects.toThrow(/server/);
    await expect(call({ server: 'srv', tool: 'echo', callId: 'x'.repeat(201) })).rejects.toThrow(/callId/);
    await expect(call({ server: 'srv', tool: 'echo', task: 'yes' })).rejects.toThrow(/task/);
    expect(calls).toHaveLength(0);
  });

  it('extra keys are dropped by the schema (the slow path), not passed on', async () => {
    const { fleet, calls } = recording();
    const api = new ToolsService(fleet).api;
    const call = api['tools:call'] as (request: unknown) => Promise<unknown>;
    await call({ server: 'srv', tool: 'echo', args: { a: 1 }, extra: true });
    expect(calls).toEqual([['echo', { a: 1 }, {}]]);
  });
});
