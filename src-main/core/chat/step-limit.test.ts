import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness } from '../../test-support/chat-harness';
import { calculatorModel, callTool, type Script } from '../../test-support/fake-providers';

/* The "most model steps per message" setting (chat settings `maxSteps`) bounds the tool loop. */

afterEach(disposeHarnesses);

/** A model that never stops calling the calculator: request n adds n + 1. */
const relentless: Script = (_request, index) => callTool('calculator__add', { a: index, b: 1 });

describe('the step limit', () => {
  it('stops a model that keeps calling tools after maxSteps model calls, and says so', async () => {
    const h = await harness('openai', relentless);
    expect((await h.host.api['chat:settings']()).maxSteps).toBe(10);
    await h.host.api['chat:update-settings']({ maxSteps: 3, approval: 'all' });
    expect(JSON.parse(readFileSync(join(h.dir, 'chat-settings.json'), 'utf8'))).toMatchObject({ maxSteps: 3 });

    const { runId, conversationId, finished } = await h.send('count for ever');
    expect(finished.status).toBe('done');
    // Three model calls, each of whose tool calls the real calculator ran; the third result never went back.
    expect(h.fake.requests).toHaveLength(3);
    expect(h.fake.requests.map((r) => r.toolResults.map((t) => t.content))).toEqual([[], ['1'], ['2']]);
    expect(h.tools(runId).map((t) => [t.tool, t.args, t.status, t.result?.content])).toEqual([
      ['add', { a: 0, b: 1 }, 'done', [{ type: 'text', text: '1' }]],
      ['add', { a: 1, b: 1 }, 'done', [{ type: 'text', text: '2' }]],
      ['add', { a: 2, b: 1 }, 'done', [{ type: 'text', text: '3' }]],
    ]);
    const calls = (await h.host.api['audit:list']({})).filter((a) => a.kind === 'call');
    expect(calls.map((a) => [a.tool, a.outcome])).toEqual([
      ['add', 'ok'],
      ['add', 'ok'],
      ['add', 'ok'],
    ]);
    // The person is told why the answer ends there, live and in the saved conversation.
    expect(h.text(runId)).toMatch(/stopped after 3 model steps/i);
    const saved = await h.host.api['chat:get'](conversationId);
    expect(JSON.stringify(saved.messages[1])).toMatch(/stopped after 3 model steps/i);
  });

  it('a one-step limit runs the first call and stops', async () => {
    const h = await harness('anthropic', relentless);
    await h.host.api['chat:update-settings']({ maxSteps: 1, approval: 'all' });
    const { runId, finished } = await h.send('count');
    expect(finished.status).toBe('done');
    expect(h.fake.requests).toHaveLength(1);
    expect(h.tools(runId).map((t) => t.status)).toEqual(['done']);
    expect(h.text(runId)).toMatch(/stopped after 1 model step\b/i);
  });

  it('an answer that ends exactly at the limit is not flagged', async () => {
    const h = await harness('openai', calculatorModel());
    await h.host.api['chat:update-settings']({ maxSteps: 2 });
    const { runId, finished } = await h.send('what is 2+3');
    expect(finished.status).toBe('done');
    expect(h.fake.requests).toHaveLength(2);
    expect(h.text(runId)).toBe('The answer is 5');
  });
});
