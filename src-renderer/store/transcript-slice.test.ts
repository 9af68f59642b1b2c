import { describe, expect, it, vi } from 'vitest';
import type { AssistantMessage, ChatEvent, ChatMessage, ChatSendResult, ProvidersView, UserMessage } from '../../src-shared/contract/chat';
import type { CallView, HostApi } from '../../src-shared/host-api';
import { HostDisconnectedError } from '../host/bridge-client';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const fakeHost_ = (overrides: Partial<HostApi> = {}) => fakeHost(overrides, []);
const storeWith = (overrides: Partial<HostApi>) => createAppStore(fakeHost_(overrides).client);

const providers: ProvidersView = { providers: [], model: 'openai:m', modelSource: 'env' };
const user: UserMessage = { id: 'u1', role: 'user', text: 'what is 2+3', at: 1 };
const assistant: AssistantMessage = { id: 'a1', role: 'assistant', parts: [], at: 1, model: 'openai:m', status: 'streaming' };
const base = { conversationId: 'c1', runId: 'r1' };

describe('transcript slice', () => {
  it('without a provider, text gets a notice that says how to add one', async () => {
    const { client } = fakeHost_({
      'providers:list': vi.fn(async () => ({ providers: [], hint: 'No LLM provider is configured. Add one.' })),
      'chat:settings': vi.fn(),
    });
    const store = createAppStore(client);
    await store.getState().refreshChat();
    expect(store.getState().submit('hello')).toBe(true);
    const last = store.getState().entries.at(-1);
    expect(last).toMatchObject({ kind: 'notice', message: expect.stringContaining('No LLM provider is configured') });
  });

  it('streams a turn from events: the send reply and run-started in either order, text, tool cards, the end', async () => {
    let events: ChatEvent[] = [];
    const { client, fire } = fakeHost_({
      'providers:list': vi.fn(async () => providers),
      'chat:settings': vi.fn(),
      'chat:send': vi.fn(async (): Promise<ChatSendResult> => {
        // main emits run-started before it answers
        for (const e of events) fire('chat:event', e);
        events = [];
        return { ...base, userMessage: user, assistantMessage: assistant };
      }),
    });
    const store = createAppStore(client);
    store.getState().followChat();
    await store.getState().refreshChat();
    events = [{ type: 'run-started', ...base, userMessage: user, assistantMessage: assistant }];
    expect(store.getState().submit('what is 2+3')).toBe(true);
    await vi.waitFor(() => expect(store.getState().sending).toBe(false));
    expect(store.getState().entries.map((e) => (e.kind === 'message' ? e.message.id : e.kind))).toEqual(['u1', 'a1']);
    expect(store.getState().activeRunId).toBe('r1');

    const part = {
      type: 'tool' as const,
      callId: 'k1',
      server: 'calculator',
      tool: 'add',
      modelName: 'calculator__add',
      args: { a: 2, b: 3 },
      status: 'awaiting-approval' as const,
    };
    fire('chat:event', { type: 'tool', ...base, messageId: 'a1', part });
    fire('chat:event', { type: 'tool', ...base, messageId: 'a1', part: { ...part, status: 'done', result: { content: [{ type: 'text', text: '5' }] } } });
    fire('chat:event', { type: 'text', ...base, messageId: 'a1', text: 'The answer ' });
    fire('chat:event', { type: 'text', ...base, messageId: 'a1', text: 'is 5' });
    // Another conversation's events do not leak in.
    fire('chat:event', { type: 'text', conversationId: 'other', runId: 'r9', messageId: 'a1', text: 'NOPE' });
    fire('chat:event', { type: 'run-finished', ...base, messageId: 'a1', status: 'done' });
    const message = store.getState().entries[1];
    expect(message?.kind === 'message' && message.message).toMatchObject({
      status: 'done',
      parts: [
        { type: 'tool', callId: 'k1', status: 'done' },
        { type: 'text', text: 'The answer is 5' },
      ],
    });
    expect(store.getState().activeRunId).toBeUndefined();
  });
});

describe('direct calls', () => {
  it('go to the open conversation (or open one at once and keep it open), with the typed command', async () => {
    const call = vi.fn(async (request: { conversationId?: string }) => ({
      conversationId: request.conversationId ?? 'none',
      result: { content: [{ type: 'text' as const, text: '5' }] },
    }));
    const s = storeWith({ 'chat:call': call });
    await s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 2, b: 3 }, '/add {"a":2,"b":3}');
    expect(call).toHaveBeenLastCalledWith(expect.objectContaining({ server: 'calc', tool: 'add', args: { a: 2, b: 3 }, command: '/add {"a":2,"b":3}' }));
    const opened = call.mock.calls[0]?.[0].conversationId;
    expect(opened).toMatch(/^c-[0-9a-f]{32}$/);
    expect(s.getState().activeConversationId).toBe(opened);
    await s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 1, b: 1 });
    expect(call).toHaveBeenLastCalledWith(expect.objectContaining({ conversationId: opened }));
    expect(s.getState().entries.map((e) => (e.kind === 'call' ? e.state : e.kind))).toEqual(['ok', 'ok']);
  });

  it('a second call sent before the first answers goes to the same new conversation', async () => {
    // The first call's result can show (the host's calls settle its card) before its own reply arrives; a call typed
    // then must not start a conversation of its own, or a reload shows only one of them.
    const replies: Array<() => void> = [];
    const call = vi.fn(
      (request: { conversationId?: string }) =>
        new Promise<{ conversationId: string; result: { content: [] } }>((resolve) =>
          replies.push(() => resolve({ conversationId: request.conversationId ?? 'none', result: { content: [] } })),
        ),
    );
    const s = storeWith({ 'chat:call': call });
    const first = s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 1, b: 1 });
    const second = s.getState().callTool({ server: 'calc', tool: 'add' }, { a: 2, b: 2 });
    for (const reply of replies) reply();
    await Promise.all([first, second]);
    const ids = call.mock.calls.map((c) => c[0].conversationId);
    expect(ids[0]).toBeDefined();
    expect(ids).toEqual([ids[0], ids[0]]);
  });

  it('follows the host when it had to start another conversation; New chat during a call stays new', async () => {
    const s = storeWith({ 'chat:call': vi.fn(async () => ({ conversationId: 'fresh', result: { content: [] } })) });
    await s.getState().callTool({ server: 'calc', tool: 'add' }, {});
    expect(s.getState().activeConversationId).toBe('fresh');

    let reply: () => void = () => undefined;
    const slow = storeWith({
      'chat:call': vi.fn(
        () =>
          new Promise<{ conversationId: string; result: { content: [] } }>(
            (resolve) => (reply = () => resolve({ conversationId: 'other', result: { content: [] } })),
          ),
      ),
    });
    const pending = slow.getState().callTool({ server: 'calc', tool: 'add' }, {});
    slow.getState().clearChat();
    reply();
    await pending;
    expect(slow.getState().activeConversationId).toBeUndefined();
  });

  it('a failure the host reports keeps its code (cancelled shows as cancelled)', async () => {
    const s = storeWith({
      'chat:call': vi.fn(async () => ({ conversationId: 'c1', failure: { code: 'cancelled' as const, message: 'Cancelled by the user' } })),
    });
    await s.getState().callTool({ server: 'calc', tool: 'add' }, {});
    expect(s.getState().entries[0]).toMatchObject({ kind: 'call', state: 'cancelled', failure: { code: 'cancelled' } });
  });

  it('a reopened conversation shows them as call cards again, with their command; the model’s turns as messages', async () => {
    const s = storeWith({ 'calls:list': vi.fn(async () => []) });
    const direct: AssistantMessage = {
      id: 'a',
      role: 'assistant',
      parts: [
        {
          type: 'tool',
          callId: 'k',
          server: 'calc',
          tool: 'add',
          modelName: 'calc.add',
          args: { a: 2, b: 3 },
          status: 'done',
          result: { content: [{ type: 'text', text: '5' }] },
          durationMs: 4,
        },
      ],
      at: 10,
      model: 'direct',
      status: 'done',
      direct: true,
    };
    const broken: AssistantMessage = {
      ...direct,
      id: 'b',
      parts: [{ type: 'tool', callId: 'l', server: 'calc', tool: 'div', modelName: 'calc.div', args: {}, status: 'running' }],
      status: 'streaming',
    };
    const messages: ChatMessage[] = [
      { id: 'u', role: 'user', text: '/add {"a":2,"b":3}', at: 10, direct: true },
      direct,
      { id: 'u2', role: 'user', text: 'hello', at: 11 },
      { id: 'm', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], at: 11, model: 'openai:x', status: 'done' },
      { id: 'u3', role: 'user', text: '/div {}', at: 12, direct: true },
      broken,
    ];
    s.getState().showConversation('c', messages);
    const entries = s.getState().entries;
    expect(entries.map((e) => e.kind)).toEqual(['call', 'message', 'message', 'call']);
    expect(entries[0]).toMatchObject({
      kind: 'call',
      server: 'calc',
      tool: 'add',
      command: '/add {"a":2,"b":3}',
      state: 'ok',
      durationMs: 4,
      result: { content: [{ type: 'text', text: '5' }] },
    });
    // One the conversation shows running waits for the host's word; a host that does not know it stopped while it ran.
    expect(entries[3]).toMatchObject({ kind: 'call', state: 'pending', detached: true });
    await s.getState().loadCalls();
    expect(s.getState().entries[3]).toMatchObject({ kind: 'call', state: 'error', failure: { message: expect.stringContaining('did not finish') } });
    // A running part in a message that is over (the host restarted since) did not finish either.
    s.getState().showConversation('c', [messages[4] as ChatMessage, { ...broken, status: 'stopped' }]);
    expect(s.getState().entries[0]).toMatchObject({ kind: 'call', state: 'error', failure: { message: expect.stringContaining('did not finish') } });
  });

  it('a call the host still runs after a reload shows running, then its real result', async () => {
    const { client } = fakeHost_({
      'chat:get': vi.fn(async () => ({
        id: 'c',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        messageCount: 2,
        messages: [
          { id: 'u', role: 'user' as const, text: '/slow {}', at: 1, direct: true as const },
          {
            id: 'a',
            role: 'assistant' as const,
            parts: [{ type: 'tool' as const, callId: 'k', server: 'f', tool: 'slow', modelName: 'f.slow', args: {}, status: 'running' as const }],
            at: 1,
            model: 'direct',
            status: 'streaming' as const,
            direct: true as const,
          },
        ],
      })),
      'calls:list': vi.fn(async () => [
        {
          callId: 'k',
          server: 'f',
          tool: 'slow',
          args: {},
          state: 'running' as const,
          startedAt: 5,
          progress: { progress: 2, total: 4, message: 'step 2 of 4' },
        },
      ]),
    });
    const s = createAppStore(client);
    await s.getState().openConversation('c');
    expect(s.getState().entries[0]).toMatchObject({ kind: 'call', callId: 'k', state: 'pending', command: '/slow {}' });
    expect(s.getState().progress.k).toMatchObject({ progress: 2, total: 4, message: 'step 2 of 4' });
    // As bindFeatures delivers `calls:changed`.
    s.getState().applyCallChanged({
      callId: 'k',
      server: 'f',
      tool: 'slow',
      args: {},
      state: 'ok',
      startedAt: 5,
      finishedAt: 905,
      result: { content: [{ type: 'text', text: 'slow done' }] },
    });
    expect(s.getState().entries[0]).toMatchObject({ state: 'ok', durationMs: 900, result: { content: [{ type: 'text', text: 'slow done' }] } });
    expect(s.getState().progress.k).toBeUndefined();
  });

  it('a call whose connection drops goes on in the host: the host settles its card, or a lost host says so', async () => {
    const lists: CallView[][] = [];
    const { client } = fakeHost_({
      'chat:call': vi.fn(async () => {
        throw new HostDisconnectedError('Disconnected from the Switchboard host: gone', { reason: 'gone', why: undefined });
      }),
      'calls:list': vi.fn(async () => lists.shift() ?? []),
    });
    const s = createAppStore(client);
    await s.getState().callTool({ server: 'f', tool: 'slow' }, {});
    const first = s.getState().entries[0];
    expect(first).toMatchObject({ kind: 'call', state: 'pending', detached: true });
    const callId = first?.kind === 'call' ? first.callId : '';
    // The connection is back; the host finished the call meanwhile.
    lists.push([
      { callId, server: 'f', tool: 'slow', args: {}, state: 'ok', startedAt: 1, finishedAt: 11, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    await s.getState().loadCalls();
    expect(s.getState().entries[0]).toMatchObject({ state: 'ok', durationMs: 10, result: { content: [{ type: 'text', text: 'done' }] } });

    // One whose result the host no longer holds (older than its newest results): finished, and says so.
    await s.getState().callTool({ server: 'f', tool: 'slow' }, {});
    const big = s.getState().entries[1];
    lists.push([
      { callId: big?.kind === 'call' ? big.callId : '', server: 'f', tool: 'slow', args: {}, state: 'ok', startedAt: 1, finishedAt: 11, resultNotKept: true },
    ]);
    await s.getState().loadCalls();
    expect(s.getState().entries[1]).toMatchObject({ state: 'ok', resultNotKept: true });
    expect(s.getState().entries[1]).not.toHaveProperty('result');

    // Another one, and the connection ends for good: the card says its result is not known here.
    await s.getState().callTool({ server: 'f', tool: 'slow' }, {});
    expect(s.getState().entries[2]).toMatchObject({ state: 'pending', detached: true });
    s.getState().hostLost('closed by the page');
    expect(s.getState().entries[2]).toMatchObject({
      state: 'error',
      failure: { code: 'disconnected', message: expect.stringContaining('closed by the page') },
    });
  });

  it('a call sent while disconnected never started, and fails at once', async () => {
    const { client } = fakeHost_({
      'chat:call': vi.fn(async () => {
        throw new HostDisconnectedError('Not connected to the Switchboard host: gone', { reason: 'gone', why: undefined });
      }),
    });
    const s = createAppStore({ ...client, connection: () => ({ status: 'closed', reason: 'gone', retrying: true }) });
    await s.getState().callTool({ server: 'f', tool: 'slow' }, {});
    expect(s.getState().entries[0]).toMatchObject({ state: 'error' });
  });
});

describe('partial tool input', () => {
  it('keeps the arguments being written per call until the call’s part arrives; the turn’s end drops the rest', () => {
    const store = storeWith({});
    store.getState().showConversation('c1', [user, assistant]);
    const input = (modelCallId: string, args: Record<string, unknown>): Extract<ChatEvent, { type: 'tool-input' }> => ({
      type: 'tool-input',
      ...base,
      messageId: 'a1',
      modelCallId,
      server: 'apps',
      tool: 'show_clock',
      args,
    });
    store.getState().applyChatEvent(input('m1', { city: 'New' }));
    store.getState().applyChatEvent(input('m2', {}));
    store.getState().applyChatEvent(input('m1', { city: 'New York' }));
    expect(store.getState().toolInputs).toEqual({
      a1: [
        { modelCallId: 'm1', server: 'apps', tool: 'show_clock', args: { city: 'New York' } },
        { modelCallId: 'm2', server: 'apps', tool: 'show_clock', args: {} },
      ],
    });

    // The call is complete: its card takes over, and a late partial for it is ignored.
    const part = {
      type: 'tool' as const,
      callId: 'h1',
      modelCallId: 'm1',
      server: 'apps',
      tool: 'show_clock',
      modelName: 'apps__show_clock',
      args: { city: 'New York' },
      status: 'awaiting-approval' as const,
    };
    store.getState().applyChatEvent({ type: 'tool', ...base, messageId: 'a1', part });
    store.getState().applyChatEvent(input('m1', { city: 'New York' }));
    expect(store.getState().toolInputs.a1?.map((p) => p.modelCallId)).toEqual(['m2']);

    store.getState().applyChatEvent({ type: 'run-finished', ...base, messageId: 'a1', status: 'done' });
    expect(store.getState().toolInputs).toEqual({});
    // Another conversation's events are not this log's.
    store.getState().applyChatEvent({ ...input('m3', {}), conversationId: 'other' });
    expect(store.getState().toolInputs).toEqual({});
  });
});
