import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestsChangedEvent } from '../../../src-shared/contract/requests';
import { RequestQueue, type AskRequest } from './queue';

const form = (server = 'everything'): AskRequest => ({
  kind: 'elicitation-form',
  server,
  title: `${server} asks for your name`,
  payload: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
  origin: { callId: 'call-1' },
});

const approval: AskRequest = {
  kind: 'tool-approval',
  server: 'calculator',
  title: 'The model asks to run calculator › add',
  payload: { tool: 'add', args: { a: 1, b: 2 }, readOnly: true },
  origin: { runId: 'run-1', conversationId: 'conv-1', callId: 'call-7' },
};

function recording(queue: RequestQueue): RequestsChangedEvent[] {
  const events: RequestsChangedEvent[] = [];
  queue.onDidChange((e) => events.push(structuredClone(e)));
  return events;
}

const queues: RequestQueue[] = [];
function make(options: ConstructorParameters<typeof RequestQueue>[0] = { interactive: true }): RequestQueue {
  const queue = new RequestQueue(options);
  queues.push(queue);
  return queue;
}

afterEach(() => {
  vi.useRealTimers();
  for (const q of queues.splice(0)) q.dispose();
});

describe('RequestQueue', () => {
  it('lists a request with id, deadline and origin, and resolves with the answer', async () => {
    const queue = make({ interactive: true, now: () => 1000, defaultTimeoutMs: 60_000 });
    const events = recording(queue);
    const asked = queue.ask(form());
    const [view] = queue.list();
    expect(view).toMatchObject({ kind: 'elicitation-form', server: 'everything', createdAt: 1000, deadline: 61_000, origin: { callId: 'call-1' } });
    expect(view?.id).toMatch(/[0-9a-f-]{36}/);
    expect(queue.get(view!.id)).toEqual(view);

    expect(queue.answer(view!.id, { action: 'accept', content: { content: { name: 'Ada' } } })).toBe(true);
    await expect(asked).resolves.toEqual({ action: 'accept', content: { content: { name: 'Ada' } } });
    expect(queue.list()).toEqual([]);
    // A second answer (a double click, the CLI and the UI at once) finds nothing.
    expect(queue.answer(view!.id, { action: 'decline' })).toBe(false);

    expect(events).toEqual([
      { pending: [view], added: view },
      { pending: [], settled: { id: view!.id, server: 'everything', kind: 'elicitation-form', outcome: 'accepted' } },
    ]);
  });

  it('tells the asker the id it waits under, and every window what became of an accepted request', async () => {
    const queue = make();
    const events = recording(queue);
    let id: string | undefined;
    const asked = queue.ask(form(), { onPending: (pending) => (id = pending) });
    expect(id).toBe(queue.list()[0]?.id);
    // Not while it is pending: only what came after its answer.
    queue.followUp({ id: id ?? '', server: 'everything', kind: 'elicitation-form', stage: 'done' });
    expect(events).toHaveLength(1);
    queue.answer(id ?? '', { action: 'accept', content: { content: {} } });
    await asked;
    queue.followUp({ id: id ?? '', server: 'everything', kind: 'elicitation-form', stage: 'failed', message: 'HTTP 500' });
    expect(events.at(-1)).toEqual({ pending: [], followUp: { id, server: 'everything', kind: 'elicitation-form', stage: 'failed', message: 'HTTP 500' } });
  });

  it('decline and cancel answers settle with their outcome and reason', async () => {
    const queue = make();
    const events = recording(queue);
    const first = queue.ask(form('a'));
    const second = queue.ask(form('b'));
    const [a, b] = queue.list();
    queue.answer(a!.id, { action: 'decline', reason: 'not now' });
    queue.answer(b!.id, { action: 'cancel' });
    await expect(first).resolves.toEqual({ action: 'decline', reason: 'not now' });
    await expect(second).resolves.toEqual({ action: 'cancel' });
    expect(events.flatMap((e) => (e.settled ? [[e.settled.server, e.settled.outcome, e.settled.message]] : []))).toEqual([
      ['a', 'declined', 'not now'],
      ['b', 'cancelled', undefined],
    ]);
  });

  it('not interactive: declines at once with the reason, never listing (or hanging on) the request', async () => {
    const queue = make({ interactive: false, noAnswererReason: 'not a terminal: run it in one, or pass --approve all' });
    const events = recording(queue);
    const answer = await queue.ask(form());
    expect(answer).toEqual({ action: 'decline', reason: 'not a terminal: run it in one, or pass --approve all' });
    expect(queue.list()).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]?.added).toBeUndefined();
    expect(events[0]?.settled).toMatchObject({
      server: 'everything',
      kind: 'elicitation-form',
      outcome: 'declined',
      message: 'not a terminal: run it in one, or pass --approve all',
    });
    expect(events[0]?.settled?.id).not.toBe('');
  });

  it('becoming non-interactive declines what is pending; becoming interactive again queues new requests', async () => {
    const queue = make();
    const pending = queue.ask(form());
    queue.setInteractive(false, 'the window closed');
    expect(queue.isInteractive).toBe(false);
    await expect(pending).resolves.toEqual({ action: 'decline', reason: 'the window closed' });
    await expect(queue.ask(form())).resolves.toEqual({ action: 'decline', reason: 'the window closed' });
    queue.setInteractive(true);
    void queue.ask(form());
    expect(queue.list()).toHaveLength(1);
  });

  it('the deadline cancels the request and says so', async () => {
    vi.useFakeTimers();
    const queue = make({ interactive: true, defaultTimeoutMs: 90_000 });
    const events = recording(queue);
    const asked = queue.ask(form());
    const custom = queue.ask(form('quick'), { timeoutMs: 500 });
    vi.advanceTimersByTime(500);
    await expect(custom).resolves.toEqual({ action: 'cancel', reason: 'timed out after 500 ms with no answer' });
    expect(queue.list().map((r) => r.server)).toEqual(['everything']);
    vi.advanceTimersByTime(90_000);
    await expect(asked).resolves.toEqual({ action: 'cancel', reason: 'timed out after 90 s with no answer' });
    expect(queue.list()).toEqual([]);
    expect(events.flatMap((e) => (e.settled ? [[e.settled.server, e.settled.outcome, e.settled.message]] : []))).toEqual([
      ['quick', 'timed-out', 'timed out after 500 ms with no answer'],
      ['everything', 'timed-out', 'timed out after 90 s with no answer'],
    ]);
  });

  it('timeoutMs 0 (or a nonsense value) means no deadline', () => {
    vi.useFakeTimers();
    const queue = make();
    void queue.ask(form('zero'), { timeoutMs: 0 });
    void queue.ask(form('infinite'), { timeoutMs: Number.POSITIVE_INFINITY });
    void queue.ask(form('negative'), { timeoutMs: -5 });
    vi.advanceTimersByTime(365 * 24 * 3600 * 1000);
    expect(queue.list().map((r) => [r.server, r.deadline])).toEqual([
      ['zero', undefined],
      ['infinite', undefined],
      ['negative', undefined],
    ]);
  });

  it('an answer before the deadline clears the timer (no late cancel)', async () => {
    vi.useFakeTimers();
    const queue = make();
    const events = recording(queue);
    const asked = queue.ask(form(), { timeoutMs: 1000 });
    queue.answer(queue.list()[0]!.id, { action: 'decline' });
    vi.advanceTimersByTime(5000);
    await expect(asked).resolves.toEqual({ action: 'decline' });
    expect(events.filter((e) => e.settled).map((e) => e.settled?.outcome)).toEqual(['declined']);
  });

  it('the asker withdrawing (abort signal) cancels the request', async () => {
    const queue = make();
    const events = recording(queue);
    const controller = new AbortController();
    const asked = queue.ask(approval, { signal: controller.signal });
    expect(queue.list()).toHaveLength(1);
    controller.abort();
    await expect(asked).resolves.toEqual({ action: 'cancel', reason: 'the request was withdrawn' });
    expect(queue.list()).toEqual([]);
    expect(events.at(-1)?.settled).toMatchObject({ outcome: 'cancelled', message: 'withdrawn by the asker' });

    // Already aborted: not even listed.
    const before = events.length;
    await expect(queue.ask(approval, { signal: controller.signal })).resolves.toEqual({ action: 'cancel', reason: 'the request was withdrawn' });
    expect(events).toHaveLength(before);
  });

  it("the queue's own reasons carry a code and data beside the English (what servers get stays the English text)", async () => {
    vi.useFakeTimers();
    const queue = make({ interactive: true, defaultTimeoutMs: 90_000 });
    const events = recording(queue);
    const reasons = (): unknown[] => events.flatMap((e) => (e.settled ? [[e.settled.server, e.settled.message, e.settled.reason]] : []));
    const quick = queue.ask(form('quick'), { timeoutMs: 500 });
    const slow = queue.ask(form('slow'));
    vi.advanceTimersByTime(90_000);
    await expect(quick).resolves.toEqual({ action: 'cancel', reason: 'timed out after 500 ms with no answer' });
    await expect(slow).resolves.toEqual({ action: 'cancel', reason: 'timed out after 90 s with no answer' });
    const controller = new AbortController();
    const withdrawn = queue.ask(form('asker'), { signal: controller.signal });
    controller.abort();
    await withdrawn;
    const gone = queue.ask(form('gone'));
    queue.cancelServer('gone');
    await expect(gone).resolves.toEqual({ action: 'cancel', reason: 'gone stopped or went away' });
    const told = queue.ask(form('told'));
    queue.cancelServer('told', 'told crashed');
    await told;
    // Someone else's reason (a person's answer) has no code: it is shown as it is.
    const declined = queue.ask(form('person'));
    queue.answer(queue.list()[0]!.id, { action: 'decline', reason: 'not now' });
    await declined;
    const shutting = queue.ask(form('last'));
    queue.dispose();
    await shutting;
    expect(reasons()).toEqual([
      ['quick', 'timed out after 500 ms with no answer', { code: 'timed-out', data: { ms: 500 } }],
      ['slow', 'timed out after 90 s with no answer', { code: 'timed-out', data: { seconds: 90 } }],
      ['asker', 'withdrawn by the asker', { code: 'withdrawn' }],
      ['gone', 'gone stopped or went away', { code: 'server-gone', data: { server: 'gone' } }],
      ['told', 'told crashed', undefined],
      ['person', 'not now', undefined],
      ['last', 'Switchboard is shutting down', { code: 'shutting-down' }],
    ]);
  });

  it("no one to answer: the queue's own reason has its code; a host's own reason is the host's to word", async () => {
    const plain = make({ interactive: false });
    const plainEvents = recording(plain);
    await expect(plain.ask(form())).resolves.toEqual({ action: 'decline', reason: 'no one is there to answer' });
    expect(plainEvents[0]?.settled).toMatchObject({ message: 'no one is there to answer', reason: { code: 'no-answerer' } });
    const own = make({ interactive: false, noAnswererReason: 'not a terminal' });
    const ownEvents = recording(own);
    await own.ask(form());
    expect(ownEvents[0]?.settled?.reason).toBeUndefined();
  });

  it('cancelServer cancels that server’s requests only', async () => {
    const queue = make();
    const mine = queue.ask(form('everything'));
    const other = queue.ask(form('filesystem'));
    queue.cancelServer('everything', 'everything stopped');
    await expect(mine).resolves.toEqual({ action: 'cancel', reason: 'everything stopped' });
    expect(queue.list().map((r) => r.server)).toEqual(['filesystem']);
    queue.answer(queue.list()[0]!.id, { action: 'accept', content: { content: {} } });
    await expect(other).resolves.toMatchObject({ action: 'accept' });
  });

  it('dispose cancels everything pending, is idempotent, and later asks cancel at once', async () => {
    const queue = make();
    const events = recording(queue);
    const a = queue.ask(form('a'));
    const b = queue.ask(approval);
    queue.dispose();
    queue.dispose();
    await expect(a).resolves.toEqual({ action: 'cancel', reason: 'Switchboard is shutting down' });
    await expect(b).resolves.toEqual({ action: 'cancel', reason: 'Switchboard is shutting down' });
    expect(events.filter((e) => e.settled).map((e) => [e.settled?.server, e.settled?.outcome])).toEqual([
      ['a', 'cancelled'],
      ['calculator', 'cancelled'],
    ]);
    expect(events.at(-1)?.pending).toEqual([]);
    await expect(queue.ask(form())).resolves.toEqual({ action: 'cancel', reason: 'Switchboard is shutting down' });
    expect(queue.list()).toEqual([]);
  });

  it('events carry the whole pending list after each change', () => {
    const queue = make();
    const events = recording(queue);
    void queue.ask(form('a'));
    void queue.ask(approval);
    const [a, b] = queue.list();
    queue.answer(a!.id, { action: 'decline' });
    expect(events.map((e) => [e.added?.server ?? null, e.settled?.server ?? null, e.pending.map((p) => p.id)])).toEqual([
      ['a', null, [a!.id]],
      ['calculator', null, [a!.id, b!.id]],
      [null, 'a', [b!.id]],
    ]);
    expect(events[1]?.added).toMatchObject({
      kind: 'tool-approval',
      payload: { tool: 'add', readOnly: true },
      origin: { runId: 'run-1', conversationId: 'conv-1', callId: 'call-7' },
    });
  });

  it('a listener that answers at once: every listener still sees added before settled', async () => {
    const queue = make();
    // The scripted answerer subscribes first, so it runs before the recorder.
    queue.onDidChange((e) => {
      if (e.added) queue.answer(e.added.id, { action: 'accept', content: {} });
    });
    const events = recording(queue);
    await expect(queue.ask(approval)).resolves.toEqual({ action: 'accept', content: {} });
    expect(events.map((e) => [e.added ? 'added' : 'settled', e.pending.length])).toEqual([
      ['added', 1],
      ['settled', 0],
    ]);
  });

  it('a listener that throws does not break the asker', async () => {
    const queue = make();
    queue.onDidChange(() => {
      throw new Error('listener bug');
    });
    const asked = queue.ask(form());
    queue.answer(queue.list()[0]!.id, { action: 'decline' });
    await expect(asked).resolves.toEqual({ action: 'decline' });
  });
});
