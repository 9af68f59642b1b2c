// Task-augmented server requests (2025-11-25): a server that sends `elicitation/create` / `sampling/createMessage`
// with `task` params gets a task at once and polls the client's tasks/get, tasks/result (tasks/list, tasks/cancel),
// while the person answers through the request queue as usual. server-everything's async variants and a raw fixture.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestAnswer } from '../../../src-shared/contract/requests';
import { askingHosts, everything, textOf } from '../../test-support/asking-host';

const start = askingHosts();
const taskAsking = { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'task-asking-server.mjs')] };

describe('task-augmented server requests', () => {
  it('server-everything: the async elicitation and sampling run as tasks the server polls, then fetches', async () => {
    const person = (r: { kind: string }): RequestAnswer =>
      r.kind === 'elicitation-form' ? { action: 'accept', content: { content: { name: 'Task Ada' } } } : { action: 'accept' };
    const { host: h, seen } = await start({ servers: { everything }, person });
    const form = await h.api['tools:call']({ server: 'everything', tool: 'trigger-elicitation-request-async', args: {}, callId: 'task-form' });
    expect(textOf(form)).toContain('[COMPLETED] User provided the requested information!');
    expect(textOf(form)).toContain('- Name: Task Ada');
    expect(textOf(form)).toMatch(/Task created: [0-9a-f-]{36}/);
    expect(textOf(form)).toContain('"io.modelcontextprotocol/related-task"');
    const sampled = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request-async', args: { prompt: 'async hello' } });
    expect(textOf(sampled)).toContain('[COMPLETED] Async sampling completed!');
    expect(textOf(sampled)).toContain('A fine answer from the fake model.');
    expect(seen.map((r) => [r.kind, r.origin.callId])).toEqual([
      ['elicitation-form', 'task-form'],
      ['sampling', undefined],
      ['sampling-result', undefined],
    ]);
  });

  it('server-everything: a declined sampling task ends failed, with the reason', async () => {
    const { host: h } = await start({ servers: { everything }, person: () => ({ action: 'decline', reason: 'not today' }) });
    const sampled = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request-async', args: { prompt: 'no' } });
    expect(textOf(sampled)).toMatch(/^\[FAILED\] User rejected sampling request: not today/);
  });

  it("tasks/list and tasks/cancel: a cancelled task withdraws the person's card and cannot be cancelled twice", async () => {
    const { host: h, seen } = await start({ servers: { tasks: taskAsking }, person: () => undefined });
    const settled: string[] = [];
    h.requests.onDidChange((change) => {
      if (change.settled) settled.push(change.settled.outcome);
    });
    const result = await h.api['tools:call']({ server: 'tasks', tool: 'cancel-form', args: {} });
    expect(textOf(result)).toMatch(/^created=working listed=1 cancel=cancelled get=cancelled result=Task [0-9a-f-]{36} was cancelled$/);
    expect(seen.map((r) => r.kind)).toEqual(['elicitation-form']);
    expect(settled).toEqual(['cancelled']);
    expect(h.requests.list()).toEqual([]);
  });

  it('tasks/result waits for the person; an unknown task is an error', async () => {
    const { host: h } = await start({ servers: { tasks: taskAsking }, person: () => ({ action: 'accept', content: { content: { name: 'Later' } } }) });
    const result = await h.api['tools:call']({ server: 'tasks', tool: 'task-form', args: {} });
    expect(textOf(result)).toMatch(
      /^created=working result=\{"action":"accept","content":\{"name":"Later"\},"_meta":\{"io.modelcontextprotocol\/related-task":\{"taskId":"[0-9a-f-]{36}"\}\}\}$/,
    );
    const unknown = await h.api['tools:call']({ server: 'tasks', tool: 'unknown-task', args: {} });
    expect(textOf(unknown)).toBe('error=Unknown task: no-such-task');
  });
});
