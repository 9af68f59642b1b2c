import { afterEach, describe, expect, it } from 'vitest';
import type { DirectCallResult } from '../../../src-shared/contract/chat';
import { disposeHarnesses, forgetHarness, harness } from '../../test-support/chat-harness';
import { say, sequence } from '../../test-support/fake-providers';

/*
 * Direct tool calls (`/add {…}` typed in the chat, or the tool form): no model, yet kept in the conversation (so
 * they survive a restart) and in the audit log like the model's calls. Real host, real calculator child process.
 */

afterEach(disposeHarnesses);

describe('direct tool calls (chat:call)', () => {
  it('are kept in a new conversation and the audit log, and are there again after a restart', async () => {
    const h = await harness('openai', sequence(say('unused')));
    const first: DirectCallResult = await h.host.api['chat:call']({
      server: 'calculator',
      tool: 'add',
      args: { a: 2, b: 3 },
      callId: 'c-1',
      command: '/add {"a":2,"b":3}',
    });
    expect(first.failure).toBeUndefined();
    expect(first.result?.content).toEqual([{ type: 'text', text: '5' }]);
    const id = first.conversationId;
    const second = await h.host.api['chat:call']({ conversationId: id, server: 'calculator', tool: 'divide', args: { a: 1, b: 0 }, callId: 'c-2' });
    expect(second.conversationId).toBe(id);

    const list = await h.host.api['chat:list']({});
    expect(list.find((c) => c.id === id)?.title).toBe('/add {"a":2,"b":3}');
    const audit = await h.host.api['audit:list']({});
    expect(audit.map((a) => [a.kind, a.direct, a.tool, a.conversationId, a.callId])).toEqual([
      ['call', true, 'divide', id, 'c-2'],
      ['call', true, 'add', id, 'c-1'],
    ]);
    expect(audit[1]?.outcome).toBe('ok');
    expect(audit[1]?.args).toBe('{"a":2,"b":3}');

    // A restart (a new host on the same data folder) reads them back.
    await h.host.dispose();
    forgetHarness(h);
    const again = await harness('openai', sequence(say('unused')), { dir: h.dir, fake: h.fake });
    const saved = await again.host.api['chat:get'](id);
    expect(saved.messages.map((m) => [m.role, m.direct])).toEqual([
      ['user', true],
      ['assistant', true],
      ['user', true],
      ['assistant', true],
    ]);
    const [, add, , divide] = saved.messages;
    expect(add?.role === 'assistant' ? add.parts : []).toMatchObject([
      { type: 'tool', server: 'calculator', tool: 'add', status: 'done', args: { a: 2, b: 3 }, result: { content: [{ type: 'text', text: '5' }] } },
    ]);
    expect(divide?.role === 'assistant' ? divide.parts[0]?.type === 'tool' && divide.parts[0].status : undefined).toMatch(/^(error|done)$/);
    expect((await again.host.api['audit:list']({})).filter((a) => a.direct === true)).toHaveLength(2);
  });

  it('a conversation deleted meanwhile gets a new one rather than a failed call', async () => {
    const h = await harness('openai', sequence(say('unused')));
    const first = await h.host.api['chat:call']({ server: 'calculator', tool: 'add', args: { a: 1, b: 1 }, callId: 'd-1' });
    expect(await h.host.api['chat:delete'](first.conversationId)).toBe(true);
    const next = await h.host.api['chat:call']({
      conversationId: first.conversationId,
      server: 'calculator',
      tool: 'add',
      args: { a: 1, b: 2 },
      callId: 'd-2',
    });
    expect(next.conversationId).not.toBe(first.conversationId);
    expect(next.result?.content).toEqual([{ type: 'text', text: '3' }]);
  });

  it('a new conversation takes the id the window chose, so calls sent before the first answers share it', async () => {
    const h = await harness('openai', sequence(say('unused')));
    const wanted = 'c-0123456789abcdef0123456789abcdef';
    const [first, second] = await Promise.all([
      h.host.api['chat:call']({ conversationId: wanted, server: 'calculator', tool: 'add', args: { a: 1, b: 1 }, callId: 'w-1' }),
      h.host.api['chat:call']({ conversationId: wanted, server: 'calculator', tool: 'add', args: { a: 2, b: 2 }, callId: 'w-2' }),
    ]);
    expect([first.conversationId, second.conversationId]).toEqual([wanted, wanted]);
    expect(await h.host.api['chat:list']({})).toHaveLength(1);
    expect((await h.host.api['chat:get'](wanted)).messages).toHaveLength(4);
    // A malformed id is not taken: the call gets a fresh one.
    const odd = await h.host.api['chat:call']({ conversationId: 'not/an id', server: 'calculator', tool: 'add', args: { a: 0, b: 0 }, callId: 'w-3' });
    expect(odd.conversationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a message sent with a new id the window chose starts that conversation; a deleted one is still refused', async () => {
    const h = await harness('openai', sequence(say('hello'), say('again')));
    const wanted = 'c-fedcba9876543210fedcba9876543210';
    const started = await h.send('hi', wanted);
    expect(started.conversationId).toBe(wanted);
    expect(await h.host.api['chat:delete'](wanted)).toBe(true);
    await expect(h.host.api['chat:send']({ conversationId: wanted, text: 'again' })).rejects.toThrow(/no conversation/);
  });

  it('records a call that fails before the tool answers, and says why', async () => {
    const h = await harness('openai', sequence(say('unused')));
    const out = await h.host.api['chat:call']({ server: 'nonesuch', tool: 'add', args: {}, callId: 'c-x' });
    expect(out.result).toBeUndefined();
    expect(out.failure?.message).toMatch(/nonesuch/);
    const saved = await h.host.api['chat:get'](out.conversationId);
    const call = saved.messages[1];
    expect(call?.role === 'assistant' && call.parts[0]?.type === 'tool' ? [call.status, call.parts[0].status] : []).toEqual(['error', 'error']);
    const [entry] = await h.host.api['audit:list']({});
    expect([entry?.kind, entry?.direct, entry?.outcome, entry?.detail]).toEqual(['call', true, 'failed', out.failure?.message]);
  });

  it('are told to the model as the person’s own words on the next turn (not as a call it made)', async () => {
    const h = await harness('openai', sequence(say('It was 5.')));
    const { conversationId } = await h.host.api['chat:call']({
      server: 'calculator',
      tool: 'add',
      args: { a: 2, b: 3 },
      callId: 'c-3',
      command: '/add {"a":2,"b":3}',
    });
    const { finished } = await h.send('What did I get?', conversationId);
    expect(finished.status).toBe('done');
    const seen = h.fake.requests[0];
    expect(seen?.toolResults).toEqual([]);
    expect(JSON.stringify(seen?.body)).toContain('I called the tool add of server \\"calculator\\" myself');
  });
});
