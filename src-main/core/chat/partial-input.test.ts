import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src-shared/contract/chat';
import { disposeHarnesses, harness } from '../../test-support/chat-harness';
import { say, sequence, type Reply, type Vendor } from '../../test-support/fake-providers';
import { appsFixture } from '../apps/test-host';
import { PartialInputs } from './partial-input';

/*
 * While the model writes a tool call's arguments, a tool with an app gets them as they grow (`tool-input` chat
 * events, partial JSON made whole), throttled; a tool without an app gets none. The real AI SDK provider against a
 * fake vendor on loopback, with the apps fixture server.
 */

afterEach(disposeHarnesses);

type ToolInput = Extract<ChatEvent, { type: 'tool-input' }>;

const args = { city: 'New York', units: 'metric', note: 'a fairly long note so that the text splits well' };
const streamCall = (name: string, id: string): Reply => ({
  kind: 'stream',
  events: [{ toolCall: { name, id, args, chunks: 5 } }],
  delayMs: 150,
});

describe.each<Vendor>(['openai', 'anthropic'])('partial tool input against a fake %s server', (vendor) => {
  it('an app tool gets its arguments as they grow, then the call; a tool without an app gets none', async () => {
    const h = await harness(vendor, sequence(streamCall('apps__show_clock', 'call_app'), streamCall('apps__plain', 'call_plain'), say('Done.')), {
      servers: { apps: { command: process.execPath, args: [appsFixture] } },
    });
    const { runId, finished } = await h.send('Show the clock');
    expect(finished.status, finished.error?.message).toBe('done');

    const inputs = h.events.filter((e): e is ToolInput => e.type === 'tool-input' && e.runId === runId);
    expect(inputs.length).toBeGreaterThanOrEqual(3);
    for (const e of inputs) expect(e).toMatchObject({ modelCallId: 'call_app', server: 'apps', tool: 'show_clock' });
    // Each is a prefix of the arguments, made whole: the keys so far, the last one's value cut short.
    const sizes = inputs.map((e) => JSON.stringify(e.args).length);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(new Set(sizes).size).toBeGreaterThanOrEqual(3);
    for (const e of inputs) for (const [key, value] of Object.entries(e.args)) expect(args[key as keyof typeof args].startsWith(String(value))).toBe(true);
    expect(inputs.at(-1)?.args).toEqual(args);

    // Each comes before the call's card, and the plain tool had none.
    const firstCard = h.events.findIndex((e) => e.type === 'tool' && (e.part.modelCallId ?? e.part.callId) === 'call_app');
    expect(h.events.indexOf(inputs[0] as ChatEvent)).toBeLessThan(firstCard);
    expect(h.tools(runId).map((p) => p.tool)).toEqual(['show_clock', 'plain']);
    // Never stored.
    const stored = await h.host.api['chat:get'](finished.conversationId);
    expect(JSON.stringify(stored)).not.toContain('tool-input');
  }, 40_000);
});

describe('PartialInputs', () => {
  it('sends at most one a window and the last one at the end; forgets a call past the size limit', async () => {
    const seen: unknown[] = [];
    const inputs = new PartialInputs((input) => seen.push(input.args), 10_000);
    inputs.start('a');
    inputs.delta('a', '{"x": "ab');
    await new Promise((r) => setTimeout(r, 10));
    inputs.delta('a', 'c", "y": [1, ');
    inputs.delta('a', '2');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([{ x: 'ab' }]);
    await inputs.end('a');
    expect(seen).toEqual([{ x: 'ab' }, { x: 'abc', y: [1, 2] }]);

    inputs.start('b');
    inputs.delta('b', `{"big": "${'x'.repeat(300 * 1024)}`);
    await inputs.end('b');
    expect(seen).toHaveLength(2);
    inputs.dispose();
  });
});
