// A 2026-07-28 task (the io.modelcontextprotocol/tasks extension) that asks for input mid-way: features-server.mjs's
// `book` goes input_required with inputRequests (a form, or a sampling request); the host puts each through its
// request queue on the call's card, answers with tasks/update (checked against @modelcontextprotocol/ext-tasks'
// schemas here as on the way out), and the task's result depends on the answer. Also: decline, cancel at the form,
// a refused sampling request, and Stop while the form is open.
import { UpdateTaskRequestV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { describe, expect, it } from 'vitest';
import type { PendingRequestView, RequestAnswer } from '../../../../src-shared/contract/requests';
import type { CallProgressEvent } from '../../../../src-shared/host-api';
import type { Host } from '../../host';
import { askingHosts, textOf } from '../../../test-support/asking-host';
import { featuresEntry } from '../../../test-support/features-fixture';
import { waitFor } from '../../../test-support/processes';

const start = askingHosts();
const servers = { features: featuresEntry(['--modern-only']) };

async function sent(h: Host, method: string): Promise<unknown[]> {
  const trace = await h.api['trace:list']({ server: 'features' });
  return trace.filter((e) => e.direction === 'send' && (e.message as { method?: string }).method === method).map((e) => e.message);
}

function progressOf(h: Host, callId: string): CallProgressEvent[] {
  const seen: CallProgressEvent[] = [];
  h.api.on('calls:progress', (event) => event.callId === callId && seen.push(event));
  return seen;
}

const person =
  (answer: RequestAnswer) =>
  (r: PendingRequestView): RequestAnswer =>
    r.kind === 'elicitation-form' ? answer : { action: 'decline' };

describe('tasks: input_required answered with tasks/update (2026-07-28)', () => {
  it('a form inside the task is shown on the call card; the accepted answer goes back with tasks/update and decides the result', async () => {
    const { host: h, seen } = await start({ servers, versionMode: 'auto', person: person({ action: 'accept', content: { content: { name: 'Ada' } } }) });
    const events = progressOf(h, 'book-1');
    const result = await h.api['tools:call']({ server: 'features', tool: 'book', args: { party: 4 }, callId: 'book-1' });
    expect(textOf(result)).toBe('booked a table for 4 under Ada');
    expect(result.task).toMatchObject({ status: 'completed' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: 'elicitation-form',
      server: 'features',
      origin: { callId: 'book-1' },
      payload: { message: 'Who is the table for 4 for?', requestedSchema: { required: ['name'] } },
    });
    expect(events.map((e) => e.task?.status)).toContain('input_required');
    const updates = await sent(h, 'tasks/update');
    expect(updates).toHaveLength(1);
    const parsed = UpdateTaskRequestV2Schema.safeParse(updates[0]);
    expect(parsed.success, parsed.error?.message).toBe(true);
    expect(parsed.data?.params).toEqual({ taskId: result.task?.taskId, inputResponses: { guest: { action: 'accept', content: { name: 'Ada' } } } });
  }, 30_000);

  it('a declined form goes back as a decline; the server decides the result', async () => {
    const declined = await start({ servers, versionMode: 'auto', person: person({ action: 'decline' }) });
    const result = await declined.host.api['tools:call']({ server: 'features', tool: 'book', args: {}, callId: 'book-d' });
    expect(textOf(result)).toBe('booking not made: the form was declined');
    const [update] = await sent(declined.host, 'tasks/update');
    expect(UpdateTaskRequestV2Schema.parse(update).params.inputResponses).toEqual({ guest: { action: 'decline' } });
  }, 30_000);

  it('a form cancelled by the person goes back as a cancel', async () => {
    const { host: h } = await start({ servers, versionMode: 'auto', person: person({ action: 'cancel' }) });
    const result = await h.api['tools:call']({ server: 'features', tool: 'book', args: {} });
    expect(textOf(result)).toBe('booking not made: the form was cancelled');
    const [update] = await sent(h, 'tasks/update');
    expect(UpdateTaskRequestV2Schema.parse(update).params.inputResponses).toEqual({ guest: { action: 'cancel' } });
  }, 30_000);

  it('a sampling request inside the task is approved, run on the chat provider, and its answer goes back', async () => {
    const { host: h, seen } = await start({
      servers,
      versionMode: 'auto',
      person: (r) => (r.kind === 'sampling' || r.kind === 'sampling-result' ? { action: 'accept' } : { action: 'decline' }),
    });
    const result = await h.api['tools:call']({ server: 'features', tool: 'book', args: { party: 3, ask: 'model' }, callId: 'book-m' });
    expect(textOf(result)).toBe('booked for 3; the model picked: A fine answer from the fake model.');
    expect(seen.map((r) => r.kind)).toEqual(['sampling', 'sampling-result']);
    expect(seen[0]).toMatchObject({ origin: { callId: 'book-m' } });
    const [update] = await sent(h, 'tasks/update');
    const parsed = UpdateTaskRequestV2Schema.parse(update);
    expect(parsed.params.inputResponses.dish).toMatchObject({ role: 'assistant', model: expect.any(String) });
  }, 30_000);

  it('a refused sampling request ends the call and cancels the task (no tasks/update)', async () => {
    const { host: h } = await start({ servers, versionMode: 'auto', person: () => ({ action: 'decline' }) });
    const error: unknown = await h.api['tools:call']({ server: 'features', tool: 'book', args: { ask: 'model' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'tool-call-failed', data: { server: 'features', tool: 'book', status: 'cancelled' } });
    expect(String((error as Error).message)).toMatch(/asked for input \(sampling\/createMessage\) that was not given.*the task was cancelled/);
    expect(await sent(h, 'tasks/update')).toEqual([]);
    expect(await sent(h, 'tasks/cancel')).toHaveLength(1);
  }, 30_000);

  it('input in a shape the tasks extension does not allow is not asked: the call fails, naming it, and the task is cancelled', async () => {
    const { host: h, seen } = await start({ servers, versionMode: 'auto' });
    const error: unknown = await h.api['tools:call']({ server: 'features', tool: 'book', args: { ask: 'malformed' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'tool-call-failed', data: { server: 'features', tool: 'book', status: 'cancelled' } });
    expect(String((error as Error).message)).toMatch(/asks for input in a shape the tasks extension does not allow.*maxTokens/s);
    expect(seen).toEqual([]);
    expect(await sent(h, 'tasks/update')).toEqual([]);
    expect(await sent(h, 'tasks/cancel')).toHaveLength(1);
  }, 30_000);

  it('cancelling the call while the form is open withdraws the form and cancels the task', async () => {
    const { host: h, seen } = await start({ servers, versionMode: 'auto', person: () => undefined });
    const call = h.api['tools:call']({ server: 'features', tool: 'book', args: {}, callId: 'book-stop' });
    await waitFor(() => seen.length === 1, 10_000, 'the form to be asked');
    expect(await h.api['tools:cancel']('book-stop')).toBe(true);
    const error: unknown = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'cancelled' });
    expect((await h.api['requests:list']()).length).toBe(0);
    expect(await sent(h, 'tasks/update')).toEqual([]);
    expect(await sent(h, 'tasks/cancel')).toHaveLength(1);
  }, 30_000);
});
