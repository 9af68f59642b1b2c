// The chat's tool loop with progress and tasks: the fake OpenAI-compatible vendor (real loopback HTTP) asks for
// features-server.mjs's tools; their progress and task status reach calls:progress under the model's tool call id
// (the tool card's key), a task-only tool runs as a task (one that asks for input mid-way shows its form on that card),
// Stop and the card's Cancel cancel it.
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingRequestView } from '../../../src-shared/contract/requests';
import type { CallProgressEvent } from '../../../src-shared/host-api';
import { disposeHarnesses, harness, type Harness } from '../../test-support/chat-harness';
import { callTool, say, sequence } from '../../test-support/fake-providers';
import { featuresEntry } from '../../test-support/features-fixture';
import { waitFor } from '../../test-support/processes';

afterEach(disposeHarnesses);

const servers = { features: featuresEntry() };

function progressOf(h: Harness, callId: string): CallProgressEvent[] {
  const seen: CallProgressEvent[] = [];
  h.host.api.on('calls:progress', (event) => {
    if (event.callId === callId) seen.push(event);
  });
  return seen;
}

const methodsSent = async (h: Harness): Promise<string[]> =>
  (await h.host.api['trace:list']({ server: 'features' })).filter((e) => e.direction === 'send').map((e) => (e.message as { method?: string }).method ?? '');

describe('chat tool loop: progress and tasks', () => {
  it('a task-only tool runs as a task; its status reaches calls:progress under the tool call id; the model gets the result', async () => {
    const h = await harness('openai', sequence(callTool('features__research', { topic: 'owls', stageMs: 50 }, 'call-research'), say('The research is done.')), {
      servers,
    });
    const events = progressOf(h, 'call-research');
    const { runId, finished } = await h.send('research owls');
    expect(finished.status).toBe('done');
    const [part] = h.tools(runId);
    expect(part).toMatchObject({ callId: 'call-research', tool: 'research', status: 'done', result: { task: { status: 'completed' } } });
    expect(h.fake.requests[1]?.toolResults[0]?.content).toContain('research done: owls');
    expect(events.some((e) => e.task?.status === 'working' && /\(\d\/3\)$/.test(e.task.statusMessage ?? ''))).toBe(true);
    expect(events.at(-1)?.task).toMatchObject({ taskId: part?.result?.task?.taskId, status: 'completed' });
    expect(h.text(runId)).toBe('The research is done.');
  }, 30_000);

  it("a task that asks for input mid-way (2026-07-28) shows its form on the tool's card; the answer decides the result the model gets", async () => {
    const h = await harness('openai', sequence(callTool('features__book', { party: 2 }, 'call-book'), say('Booked.')), { servers });
    const asked: PendingRequestView[] = [];
    h.host.requests.onDidChange(({ added }) => {
      if (added?.kind !== 'elicitation-form') return;
      asked.push(added);
      setImmediate(() => h.host.requests.answer(added.id, { action: 'accept', content: { content: { name: 'Grace' } } }));
    });
    const events = progressOf(h, 'call-book');
    const { runId, finished } = await h.send('book a table');
    expect(finished.status).toBe('done');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'elicitation-form', server: 'features', origin: { callId: 'call-book' } });
    expect(events.some((e) => e.task?.status === 'input_required')).toBe(true);
    expect(h.tools(runId)[0]).toMatchObject({ callId: 'call-book', status: 'done', result: { task: { status: 'completed' } } });
    expect(h.fake.requests[1]?.toolResults[0]?.content).toContain('booked a table for 2 under Grace');
    expect(await methodsSent(h)).toContain('tasks/update');
  }, 30_000);

  it("a tool's notifications/progress reach calls:progress under the tool call id, in order with messages", async () => {
    const h = await harness('openai', sequence(callTool('features__slow', { steps: 4, delayMs: 50 }, 'call-slow'), say('ok')), { servers });
    const events = progressOf(h, 'call-slow');
    const { finished } = await h.send('go slow');
    expect(finished.status).toBe('done');
    expect(events).toEqual(
      [1, 2, 3, 4].map((step) => ({ callId: 'call-slow', server: 'features', tool: 'slow', progress: step, total: 4, message: `step ${step} of 4` })),
    );
  }, 30_000);

  it('Stop cancels a running task (tasks/cancel) and the card ends cancelled', async () => {
    const h = await harness('openai', sequence(callTool('features__research', { topic: 'slow', stageMs: 60_000 }, 'call-long'), say('never')), { servers });
    const events = progressOf(h, 'call-long');
    const started = await h.host.api['chat:send']({ text: 'research slowly' });
    await waitFor(() => events.some((e) => e.task?.status === 'working'), 10_000, 'the task working');
    expect(await h.host.api['chat:stop'](started.runId)).toBe(true);
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 10_000, 'the turn to end');
    expect(h.tools(started.runId)[0]).toMatchObject({ status: 'cancelled' });
    expect(events.at(-1)?.task).toMatchObject({ status: 'cancelled' });
    expect(await methodsSent(h)).toContain('tasks/cancel');
  }, 30_000);

  it("the tool card's Cancel (tools:cancel with the call id) cancels that call only; the model is told and the turn goes on", async () => {
    const h = await harness(
      'openai',
      sequence(callTool('features__research', { topic: 'slow', stageMs: 60_000 }, 'call-card'), say('Cancelled, as you asked.')),
      { servers },
    );
    const events = progressOf(h, 'call-card');
    const started = await h.host.api['chat:send']({ text: 'research slowly' });
    await waitFor(() => events.some((e) => e.task?.status === 'working'), 10_000, 'the task working');
    expect(await h.host.api['tools:cancel']('call-card')).toBe(true);
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 10_000, 'the turn to end');
    expect(h.events.find((e) => e.type === 'run-finished' && e.runId === started.runId)).toMatchObject({ status: 'done' });
    expect(h.tools(started.runId)[0]).toMatchObject({ status: 'cancelled' });
    expect(h.text(started.runId)).toBe('Cancelled, as you asked.');
    expect(h.fake.requests).toHaveLength(2);
    expect(await methodsSent(h)).toContain('tasks/cancel');
  }, 30_000);
});
