// Tool calls through the host's API (tools:call, tools:cancel, calls:progress): the full catalogue, outputSchema
// validation, progress, tasks in both protocol eras (features-server.mjs over stdio) and server-everything's
// task-only simulate-research-query. Real processes; every host is disposed after its test.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallProgressEvent, HostError, ServerView, ToolResult } from '../../../../src-shared/host-api';
import type { Host } from '../../host';
import { FEATURE_ERAS as ERAS, featuresServer as fixture, hostPerTest, startFeaturesHttp } from '../../../test-support/features-fixture';
import { everythingEntry as everything, waitFor } from '../../../test-support/processes';

const { hostWith, disposeHost } = hostPerTest();

async function features(versionMode: 'legacy' | 'auto'): Promise<Host> {
  const h = await hostWith({ features: { command: process.execPath, args: [fixture] } }, { versionMode });
  const [view] = await h.api['servers:list']();
  expect(view, view?.error).toMatchObject({ status: 'ready' });
  return h;
}

/** The `calls:progress` events of one call, in order. */
function progressOf(h: Host, callId: string): CallProgressEvent[] {
  const seen: CallProgressEvent[] = [];
  h.api.on('calls:progress', (event) => {
    if (event.callId === callId) seen.push(event);
  });
  return seen;
}

const textOf = (result: ToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const view = async (h: Host): Promise<ServerView> => {
  const [v] = await h.api['servers:list']();
  if (!v) throw new Error('no server');
  return v;
};
/** Lines of the stderr tail that report a protocol error or a progress notification. */
const noisyLines = (v: ServerView): string[] => v.stderrTail.filter((line) => /protocol error|progress notification/i.test(line));

describe.each(ERAS)('tool calls, $era era', ({ era, versionMode }) => {
  it('the catalogue keeps title, annotations, outputSchema and execution', async () => {
    const h = await features(versionMode);
    const v = await view(h);
    expect(v.era).toBe(era);
    const tools = new Map(v.tools.map((t) => [t.name, t]));
    // 2026-07-28 deleted `execution` from Tool (the SDK strips it); the tasks extension decides there.
    expect(tools.get('research')?.execution).toEqual(era === 'legacy' ? { taskSupport: 'required' } : undefined);
    expect(tools.get('maybe-task')?.execution).toEqual(era === 'legacy' ? { taskSupport: 'optional' } : undefined);
    expect(tools.get('structured')?.description).toMatch(/Sum and product/);
    expect(tools.get('structured')?.outputSchema).toMatchObject({ type: 'object', required: ['sum', 'product'] });
    expect(tools.get('slow')?.execution).toBeUndefined();
  }, 20_000);

  it('outputSchema: a matching result has no error; a mismatch is kept and named, not thrown', async () => {
    const h = await features(versionMode);
    const good = await h.api['tools:call']({ server: 'features', tool: 'structured', args: { a: 2, b: 3 } });
    expect(good.structuredContent).toEqual({ sum: 5, product: 6 });
    expect(good.outputSchemaError).toBeUndefined();
    const bad = await h.api['tools:call']({ server: 'features', tool: 'structured-bad', args: { a: 2, b: 3 } });
    expect(bad.structuredContent).toEqual({ sum: '5' });
    expect(bad.outputSchemaError).toMatch(/structuredContent\/sum must be number/);
    expect(bad.outputSchemaError).toMatch(/required property 'product'/);
  }, 20_000);

  it('progress: calls:progress events in order with their messages, the last step included', async () => {
    const h = await features(versionMode);
    const events = progressOf(h, 'slow-1');
    const result = await h.api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 4, delayMs: 50 }, callId: 'slow-1' });
    expect(textOf(result)).toBe('slow done: 4 steps');
    expect(events).toEqual(
      [1, 2, 3, 4].map((step) => ({ callId: 'slow-1', server: 'features', tool: 'slow', progress: step, total: 4, message: `step ${step} of 4` })),
    );

    // Steps without a pause arrive in the same reads as the result: every one is still delivered (SDK 2.4.0 alone
    // drops those that share a read with the result, see progress-order.ts), counted against the trace.
    for (let attempt = 1; attempt <= 5; attempt++) {
      await h.api['trace:clear']('features');
      const callId = `burst-${attempt}`;
      const delivered = progressOf(h, callId);
      await h.api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 30, delayMs: 0 }, callId });
      const trace = await h.api['trace:list']({ server: 'features' });
      const received = trace.filter((e) => e.direction === 'receive' && (e.message as { method?: string }).method === 'notifications/progress').length;
      expect([received, delivered.length, delivered.at(-1)?.message]).toEqual([30, 30, 'step 30 of 30']);
    }
    expect(noisyLines(await view(h))).toEqual([]);
  }, 60_000);

  it('a cancelled call rejects as cancelled and its late progress leaves the stderr tail as it was', async () => {
    const h = await features(versionMode);
    const before = (await view(h)).stderrTail;
    // Late progress, made certain: on the first progress event the test holds the event loop for 30 ms (the server
    // keeps writing a step per ms into the pipe), then cancels; what it reads after notifications/cancelled went
    // out is progress for a token the SDK no longer tracks.
    let late = 0;
    for (let attempt = 1; attempt <= 5 && late === 0; attempt++) {
      await h.api['trace:clear']('features');
      const callId = `slow-cancel-${attempt}`;
      // Cancelled from the first progress event, while the server is still sending.
      const cancelled = new Promise<boolean>((resolve) => {
        const off = h.api.on('calls:progress', (event) => {
          if (event.callId !== callId) return;
          off();
          const until = Date.now() + 30;
          while (Date.now() < until) {
            // hold the loop: the server's next steps queue up unread
          }
          resolve(h.api['tools:cancel'](callId));
        });
      });
      const call = h.api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 1000, delayMs: 1 }, callId });
      expect(await cancelled).toBe(true);
      await expect(call).rejects.toMatchObject({ code: 'cancelled' } satisfies Partial<HostError>);
      // The server saw the cancel (it notes where it stopped on its stderr).
      await waitFor(
        async () => (await view(h)).stderrTail.filter((l) => /slow cancelled at step/.test(l)).length >= attempt,
        10_000,
        'the fixture noting the cancel',
      );
      // One more round trip: whatever the server sent before its answer to it has been received (stdout is ordered).
      await h.api['tools:call']({ server: 'features', tool: 'structured', args: { a: 1, b: 1 } });
      const trace = await h.api['trace:list']({ server: 'features' });
      const method = (e: (typeof trace)[number]): string | undefined => (e.message as { method?: string }).method;
      const cancelSeq = trace.find((e) => e.direction === 'send' && method(e) === 'notifications/cancelled')?.seq ?? Infinity;
      late = trace.filter((e) => e.direction === 'receive' && method(e) === 'notifications/progress' && e.seq > cancelSeq).length;
    }
    expect(late).toBeGreaterThan(0);
    const after = (await view(h)).stderrTail;
    expect(after.slice(0, before.length)).toEqual(before);
    expect(noisyLines(await view(h))).toEqual([]);
  }, 60_000);

  it('tasks: a task-only tool runs as a task, its status messages arrive, and the result is delivered', async () => {
    const h = await features(versionMode);
    const events = progressOf(h, 'research-1');
    const result = await h.api['tools:call']({ server: 'features', tool: 'research', args: { topic: 'owls', stageMs: 100 }, callId: 'research-1' });
    expect(textOf(result)).toBe('research done: owls');
    expect(result.task).toMatchObject({ status: 'completed' });
    expect(result.task?.taskId).toEqual(expect.any(String));
    const statuses = events.map((e) => e.task);
    expect(statuses.every((t) => t?.taskId === result.task?.taskId)).toBe(true);
    expect(statuses.some((t) => t?.status === 'working' && /\(\d\/3\)$/.test(t.statusMessage ?? ''))).toBe(true);
    expect(statuses.at(-1)?.status).toBe('completed');

    // An optional one, asked to, runs as a task in both eras. Not asked: inline on 2025-11-25 (no params.task);
    // on 2026-07-28 the server decides (the client declares the extension) and the fixture runs it as a task.
    const asTask = await h.api['tools:call']({ server: 'features', tool: 'maybe-task', args: { topic: 'bats', stageMs: 0 }, task: true });
    expect(textOf(asTask)).toBe('maybe-task done: bats');
    expect(asTask.task?.status).toBe('completed');
    const unasked = await h.api['tools:call']({ server: 'features', tool: 'maybe-task', args: { topic: 'rats', stageMs: 0 } });
    expect(textOf(unasked)).toBe('maybe-task done: rats');
    expect(unasked.task?.status).toBe(era === 'legacy' ? undefined : 'completed');
  }, 30_000);

  it('tasks: tools:cancel cancels the task (tasks/cancel); the call rejects as cancelled with the task id', async () => {
    const h = await features(versionMode);
    const events = progressOf(h, 'research-cancel');
    const call = h.api['tools:call']({ server: 'features', tool: 'research', args: { topic: 'slow', stageMs: 60_000 }, callId: 'research-cancel' });
    await waitFor(() => events.some((e) => e.task?.status === 'working'), 10_000, 'the task working');
    expect(await h.api['tools:cancel']('research-cancel')).toBe(true);
    const error: unknown = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    const taskId = events[0]?.task?.taskId;
    expect(error).toMatchObject({ code: 'cancelled', data: { server: 'features', tool: 'research', taskId, status: 'cancelled' } });
    expect(events.at(-1)?.task).toMatchObject({ taskId, status: 'cancelled' });
    const trace = await h.api['trace:list']({ server: 'features' });
    const cancel = trace.find((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tasks/cancel');
    expect((cancel?.message as { params?: unknown } | undefined)?.params).toMatchObject({ taskId });
    // The server agrees: the task is cancelled there (a second run shows the server still serves).
    const again = await h.api['tools:call']({ server: 'features', tool: 'research', args: { topic: 'after', stageMs: 0 } });
    expect(textOf(again)).toBe('research done: after');
  }, 30_000);
});

describe.each(ERAS)('over Streamable HTTP, $era era', ({ era, versionMode }) => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await disposeHost();
    await stop?.();
    stop = undefined;
  });

  it('a task-only tool completes, a cancelled one ends cancelled, progress arrives', async () => {
    const fixtureHttp = await startFeaturesHttp(era === 'legacy' ? ['--legacy-only'] : []);
    stop = fixtureHttp.stop;
    const h = await hostWith({ features: { url: fixtureHttp.url } }, { versionMode });
    expect(await view(h)).toMatchObject({ status: 'ready', era, transport: 'http' });
    const done = await h.api['tools:call']({ server: 'features', tool: 'research', args: { topic: 'http', stageMs: 50 } });
    expect([textOf(done), done.task?.status]).toEqual(['research done: http', 'completed']);

    const events = progressOf(h, 'http-cancel');
    const call = h.api['tools:call']({ server: 'features', tool: 'research', args: { topic: 'slow', stageMs: 60_000 }, callId: 'http-cancel' });
    await waitFor(() => events.some((e) => e.task?.status === 'working'), 10_000, 'the task working');
    expect(await h.api['tools:cancel']('http-cancel')).toBe(true);
    await expect(call).rejects.toMatchObject({ code: 'cancelled', data: { status: 'cancelled' } });

    const slow = progressOf(h, 'http-slow');
    await h.api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 3, delayMs: 50 }, callId: 'http-slow' });
    expect(slow.map((e) => e.message).slice(0, 2)).toEqual(['step 1 of 3', 'step 2 of 3']);
  }, 30_000);
});

describe('a task that pushes its status (notifications/tasks/status)', () => {
  it('is followed from the notification, without waiting for the next poll (the server asks for one every 10 min)', async () => {
    const pushed = join(__dirname, '..', '..', 'fixtures', 'task-status-server.mjs');
    const h = await hostWith({ pushed: { command: process.execPath, args: [pushed] } }, { versionMode: 'legacy' });
    expect(await view(h), (await view(h)).error).toMatchObject({ status: 'ready' });
    const events = progressOf(h, 'pushed-1');
    const result = await h.api['tools:call']({ server: 'pushed', tool: 'pushed', args: { text: 'hi' }, callId: 'pushed-1' });
    expect(textOf(result)).toBe('pushed: hi');
    expect(result.task?.status).toBe('completed');
    expect(events.map((e) => e.task?.status)).toEqual(['working', 'completed']);
    const sent = (await h.api['trace:list']({ server: 'pushed' })).filter((e) => e.direction === 'send').map((e) => (e.message as { method?: string }).method);
    expect(sent).toContain('tasks/result');
    expect(sent).not.toContain('tasks/get');
  }, 30_000);
});

describe('server-everything over stdio', () => {
  it('simulate-research-query (task-only) completes with its report, through its status messages', async () => {
    const h = await hostWith({ everything: { command: process.execPath, args: [everything] } });
    const v = await view(h);
    expect(v, v.error).toMatchObject({ status: 'ready' });
    const tool = v.tools.find((t) => t.name === 'simulate-research-query');
    expect(tool?.execution).toEqual({ taskSupport: 'required' });
    expect(tool?.title).toBe('Simulate Research Query');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false });
    const events = progressOf(h, 'everything-research');
    const result = await h.api['tools:call']({ server: 'everything', tool: 'simulate-research-query', args: { topic: 'owls' }, callId: 'everything-research' });
    expect(textOf(result)).toMatch(/# Research Report: owls/);
    expect(result.task?.status).toBe('completed');
    expect(events.some((e) => e.task?.statusMessage === 'Gathering sources...')).toBe(true);
  }, 40_000);
});
