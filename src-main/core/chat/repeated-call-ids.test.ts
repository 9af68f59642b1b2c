// Some OpenAI-compatible local models number their tool calls `call_0`, `call_1` in every turn (and every step): two
// turns that run at once, two steps of one turn, or a later turn of the conversation then send the same id. Each call
// keeps its own card, registry entry, progress, approval and result; the model still sees its own id in the history.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunFinished } from '../../test-support/chat-harness';
import { disposeHarnesses, harness } from '../../test-support/chat-harness';
import { callTool, say } from '../../test-support/fake-providers';
import { featuresEntry } from '../../test-support/features-fixture';
import { waitFor } from '../../test-support/processes';

afterEach(disposeHarnesses);

describe('the same provider tool-call id in two turns at once', () => {
  it('each call keeps its own result, in the registry and on its card', async () => {
    const h = await harness(
      'openai',
      // The first turn's call runs longer, so it is still running when the second's (same id) starts and ends.
      (request, index) =>
        index === 0
          ? callTool('features__slow', { steps: 8, delayMs: 80 }, 'call_0')
          : index === 1
            ? callTool('features__slow', { steps: 1, delayMs: 10 }, 'call_0')
            : say('ok'),
      { servers: { features: featuresEntry() } },
    );
    const api = h.host.api;
    const first = await api['chat:send']({ text: 'long' });
    await waitFor(async () => (await api['calls:list']()).some((c) => c.callId === 'call_0' && c.state === 'running'), 10_000, 'the first call running');
    const second = await api['chat:send']({ text: 'short' });
    const finished = (runId: string): RunFinished | undefined => h.events.find((e): e is RunFinished => e.type === 'run-finished' && e.runId === runId);
    await waitFor(() => finished(first.runId) !== undefined && finished(second.runId) !== undefined, 30_000, 'both turns to finish');

    // Two registry entries, each with its own call's result.
    const listed = await api['calls:list']();
    const texts = (id: string | undefined): unknown => listed.find((c) => c.callId === id)?.result?.content;
    expect(listed.map((c) => JSON.stringify(c.result?.content)).sort()).toEqual(
      ['slow done: 1 steps', 'slow done: 8 steps'].map((text) => JSON.stringify([{ type: 'text', text }])),
    );
    const [long] = h.tools(first.runId);
    const [short] = h.tools(second.runId);
    expect(long).toMatchObject({ callId: 'call_0', status: 'done', result: { content: [{ type: 'text', text: 'slow done: 8 steps' }] } });
    expect(short).toMatchObject({ modelCallId: 'call_0', status: 'done', result: { content: [{ type: 'text', text: 'slow done: 1 steps' }] } });
    expect(short?.callId).not.toBe('call_0');
    expect(texts(long?.callId)).toEqual([{ type: 'text', text: 'slow done: 8 steps' }]);
    expect(texts(short?.callId)).toEqual([{ type: 'text', text: 'slow done: 1 steps' }]);
    // The model gets its own id back with the result.
    const followUps = h.fake.requests.slice(2);
    expect(followUps.flatMap((r) => r.toolResults.map((t) => t.callId))).toEqual(['call_0', 'call_0']);
  }, 40_000);
});

describe('the same provider tool-call id in two steps of a turn, and in the next turn', () => {
  it('each call gets its own card and registry entry; the model gets its own id back', async () => {
    const h = await harness('openai', (request, index) =>
      index === 0
        ? callTool('calculator__add', { a: 1, b: 2 }, 'call_0')
        : index === 1
          ? callTool('calculator__add', { a: 10, b: 20 }, 'call_0')
          : index === 3
            ? callTool('calculator__add', { a: 100, b: 200 }, 'call_0')
            : say('ok'),
    );
    const api = h.host.api;
    const finished = (runId: string): boolean => h.events.some((e) => e.type === 'run-finished' && e.runId === runId);
    const first = await api['chat:send']({ text: 'add twice' });
    await waitFor(() => finished(first.runId), 30_000, 'the first turn to finish');
    const cards = h.tools(first.runId);
    expect(cards.map((c) => [c.callId, c.modelCallId, c.status, c.result?.content])).toEqual([
      ['call_0', undefined, 'done', [{ type: 'text', text: '3' }]],
      ['call_0-2', 'call_0', 'done', [{ type: 'text', text: '30' }]],
    ]);
    // The next turn of the same conversation: its call_0 is a third card, the earlier two keep theirs.
    const second = await api['chat:send']({ conversationId: first.conversationId, text: 'once more' });
    await waitFor(() => finished(second.runId), 30_000, 'the second turn to finish');
    expect(h.tools(second.runId).map((c) => [c.callId, c.modelCallId, c.result?.content])).toEqual([['call_0-3', 'call_0', [{ type: 'text', text: '300' }]]]);
    const stored = await api['chat:get'](first.conversationId);
    const storedCards = stored.messages.flatMap((m) => (m.role === 'assistant' ? m.parts.filter((p) => p.type === 'tool') : []));
    expect(storedCards.map((p) => p.callId)).toEqual(['call_0', 'call_0-2', 'call_0-3']);
    const listed = await api['calls:list']();
    expect(['call_0', 'call_0-2', 'call_0-3'].map((id) => JSON.stringify(listed.find((c) => c.callId === id)?.result?.content))).toEqual(
      ['3', '30', '300'].map((text) => JSON.stringify([{ type: 'text', text }])),
    );
    // Every result went back to the model under the id it sent.
    expect(h.fake.requests.flatMap((r) => r.toolResults.map((t) => t.callId))).toEqual(expect.arrayContaining(['call_0']));
    expect(h.fake.requests.flatMap((r) => r.toolResults.map((t) => t.callId)).every((id) => id === 'call_0')).toBe(true);
  }, 60_000);
});
