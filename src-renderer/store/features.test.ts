import { describe, expect, it, vi } from 'vitest';
import type { HostApi, LogEntry, ServerView, TraceEntry } from '../../src-shared/host-api';
import { bindFeatures } from './bind-features';
import { fakeHost } from './fake-host';
import { resourceKey } from './feature-types';
import { createAppStore } from './index';
import { MAX_LOG_ENTRIES } from './logs-slice';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 8; i++) await Promise.resolve();
};
const view = (name: string, over: Partial<ServerView> = {}): ServerView => ({
  name,
  transport: 'stdio',
  status: 'ready',
  disabled: false,
  tools: [],
  target: 'node x',
  stderrTail: [],
  restarts: 0,
  ...over,
});
const resources = (server: string, subscribed: string[] = []) => ({
  server,
  resources: [{ uri: 'test://a', name: 'a' }],
  templates: [{ uriTemplate: 'test://t/{id}', name: 't' }],
  subscribed,
  canSubscribe: true,
});
const log = (seq: number, level: LogEntry['level'] = 'info'): LogEntry => ({ seq, time: seq, server: 's', level, data: `line ${seq}` });
const trace = (seq: number): TraceEntry => ({ seq, time: seq, server: 's', direction: 'send', size: 10, message: { jsonrpc: '2.0', id: seq, method: 'ping' } });

function setup(overrides: Partial<HostApi> = {}) {
  const host = fakeHost(overrides);
  const store = createAppStore(host.client);
  store.getState().setServers([
    view('s'),
    view('calc', {
      tools: [{ name: 'add', inputSchema: {} }],
      capabilities: { tools: true, resources: false, subscribe: false, prompts: false, completions: false, logging: false, tasks: false },
    }),
  ]);
  const off = bindFeatures(store, host.client);
  return { ...host, store, off };
}

describe('server page', () => {
  it('loads a tab only when it opens, once; features:changed refetches only what was loaded', async () => {
    const list = vi.fn(async (server: string) => resources(server));
    const promptsList = vi.fn(async (server: string) => ({ server, prompts: [] }));
    const { store, fire } = setup({ 'resources:list': list, 'prompts:list': promptsList });
    store.getState().openServerPage('s');
    expect(store.getState().serverPage).toEqual({ server: 's', tab: 'tools' });
    expect(list).not.toHaveBeenCalled();
    store.getState().setServerTab('resources');
    await settle();
    expect(list).toHaveBeenCalledTimes(1);
    expect(store.getState().resourceLists.s).toMatchObject({ state: 'ok', value: { resources: [{ uri: 'test://a' }] } });
    store.getState().setServerTab('tools');
    store.getState().setServerTab('resources');
    expect(list).toHaveBeenCalledTimes(1);

    fire('features:changed', { server: 's', feature: 'resources' });
    fire('features:changed', { server: 's', feature: 'prompts' });
    fire('features:changed', { server: 'other', feature: 'resources' });
    await settle();
    expect(list).toHaveBeenCalledTimes(2);
    expect(promptsList).not.toHaveBeenCalled();
    // A server that says it offers no resources is not asked.
    store.getState().openServerPage('calc', 'resources');
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('a resource link from a tool result opens the viewer on that server and reads it', async () => {
    const read = vi.fn(async () => ({ contents: [{ uri: 'test://a', text: 'hello' }] }));
    const { store } = setup({ 'resources:list': vi.fn(async (s: string) => resources(s)), 'resources:read': read });
    store.getState().setScreen('servers');
    store.getState().openResource('s', 'test://a');
    expect(store.getState()).toMatchObject({ screen: 'chat', serverPage: { server: 's', tab: 'resources', resource: { kind: 'resource', uri: 'test://a' } } });
    await settle();
    expect(read).toHaveBeenCalledWith({ server: 's', uri: 'test://a' });
    expect(store.getState().resourceReads[resourceKey('s', 'test://a')]).toMatchObject({ state: 'ok', value: { contents: [{ text: 'hello' }] } });

    // An embedded resource shows what came with the result, without a read.
    read.mockClear();
    store.getState().openResource('s', 'test://b', { uri: 'test://b', text: 'inline' });
    await settle();
    expect(read).not.toHaveBeenCalled();
    expect(store.getState().serverPage?.resource).toEqual({ kind: 'resource', uri: 'test://b', embedded: { uri: 'test://b', text: 'inline' } });
  });

  it('subscribe toggles the live mark; resources:updated marks it and re-reads the open one only', async () => {
    let n = 0;
    const read = vi.fn(async ({ uri }: { uri: string }) => ({ contents: [{ uri, text: `v${++n}` }] }));
    const subscribe = vi.fn(async () => undefined);
    const unsubscribe = vi.fn(async () => undefined);
    const { store, fire } = setup({
      'resources:list': vi.fn(async (s: string) => resources(s)),
      'resources:read': read,
      'resources:subscribe': subscribe,
      'resources:unsubscribe': unsubscribe,
    });
    store.getState().openResource('s', 'test://a');
    await settle();
    await store.getState().setSubscribed('s', 'test://a', true);
    expect(subscribe).toHaveBeenCalledWith({ server: 's', uri: 'test://a' });
    expect(store.getState().resourceLists.s?.value?.subscribed).toEqual(['test://a']);

    fire('resources:updated', { server: 's', uri: 'test://a' });
    await settle();
    expect(store.getState().resourceUpdated[resourceKey('s', 'test://a')]).toBeTypeOf('number');
    expect(read).toHaveBeenCalledTimes(2);
    expect(store.getState().resourceReads[resourceKey('s', 'test://a')]).toMatchObject({ state: 'ok', value: { contents: [{ text: 'v2' }] } });

    // Not on screen: marked, its old read dropped (read again when opened), no read now.
    fire('resources:updated', { server: 's', uri: 'test://other' });
    await settle();
    expect(read).toHaveBeenCalledTimes(2);
    expect(store.getState().resourceUpdated[resourceKey('s', 'test://other')]).toBeTypeOf('number');

    await store.getState().setSubscribed('s', 'test://a', false);
    expect(unsubscribe).toHaveBeenCalled();
    expect(store.getState().resourceLists.s?.value?.subscribed).toEqual([]);
  });

  it('a page reopened comes back to its tab and selection; a resource changed meanwhile is read again', async () => {
    const read = vi.fn(async ({ uri }: { uri: string }) => ({ contents: [{ uri, text: 'x' }] }));
    const { store, fire } = setup({ 'resources:list': vi.fn(async (s: string) => resources(s)), 'resources:read': read });
    store.getState().openResource('s', 'test://a');
    await settle();
    expect(read).toHaveBeenCalledTimes(1);
    store.getState().closeServerPage();
    fire('resources:updated', { server: 's', uri: 'test://a' });
    expect(read).toHaveBeenCalledTimes(1);
    store.getState().openServerPage('s');
    expect(store.getState().serverPage).toMatchObject({ server: 's', tab: 'resources', resource: { uri: 'test://a' } });
    await settle();
    expect(read).toHaveBeenCalledTimes(2);
    // Another server starts on its tools.
    store.getState().openServerPage('calc');
    expect(store.getState().serverPage).toEqual({ server: 'calc', tab: 'tools' });
  });

  it('a failed subscribe keeps the state and says why', async () => {
    const { store } = setup({
      'resources:list': vi.fn(async (s: string) => resources(s)),
      'resources:subscribe': vi.fn(async () => {
        throw new Error('the server does not support subscriptions');
      }),
    });
    store.getState().openServerPage('s', 'resources');
    await settle();
    await store.getState().setSubscribed('s', 'test://a', true);
    expect(store.getState().resourceLists.s?.value?.subscribed).toEqual([]);
    expect(store.getState().subscribeErrors[resourceKey('s', 'test://a')]).toContain('does not support');
    expect(store.getState().resourceSubscribing).toEqual({});
  });

  it('completion returns the values, and [] when the server fails', async () => {
    const complete = vi.fn(async () => ({ values: ['alice', 'bob'] }));
    const { store } = setup({ 'completion:complete': complete });
    expect(await store.getState().complete('s', { type: 'prompt', name: 'greet' }, 'name', 'a', { other: 'x' })).toEqual(['alice', 'bob']);
    expect(complete).toHaveBeenCalledWith({
      server: 's',
      ref: { type: 'prompt', name: 'greet' },
      argument: { name: 'name', value: 'a' },
      context: { other: 'x' },
    });
    complete.mockRejectedValueOnce(new Error('no'));
    expect(await store.getState().complete('s', { type: 'resource', uri: 'test://t/{id}' }, 'id', '')).toEqual([]);
  });

  it('ping, log level and the debug bundle report their result or the reason', async () => {
    const { store } = setup({
      'servers:ping': vi.fn(async (server: string) => ({ server, method: 'ping' as const, ms: 3 })),
      'logs:set-level': vi.fn(async () => {
        throw new Error('logging/setLevel is not offered by this server');
      }),
      'debug:bundle': vi.fn(async () => ({ path: '/data/debug/bundle.json', bytes: 2048 })),
    });
    await store.getState().pingServer('s');
    expect(store.getState().pings.s).toMatchObject({ state: 'ok', value: { ms: 3 } });
    await store.getState().setLogLevel('s', 'debug');
    expect(store.getState().logLevelErrors.s).toContain('not offered');
    await store.getState().exportDebugBundle(['s']);
    expect(store.getState().bundle).toMatchObject({ state: 'ok', value: { path: '/data/debug/bundle.json' } });
  });
});

describe('logs and trace', () => {
  it('logs load when the tab opens, then logs:appended appends what is newer; nothing is kept before the first load', async () => {
    const list = vi.fn(async () => [log(1), log(2)]);
    const { store, fire } = setup({ 'logs:list': list });
    fire('logs:appended', { server: 's', entries: [log(1)] });
    expect(store.getState().logs.s).toBeUndefined();
    store.getState().openServerPage('s', 'logs');
    await settle();
    expect(list).toHaveBeenCalledWith({ server: 's', limit: MAX_LOG_ENTRIES });
    fire('logs:appended', { server: 's', entries: [log(2), log(3, 'error'), log(4)] });
    expect(store.getState().logs.s?.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    // Reloading asks only for what is after the last held.
    list.mockResolvedValueOnce([log(5)]);
    await store.getState().loadLogs('s');
    expect(list).toHaveBeenLastCalledWith({ server: 's', after: 4, limit: MAX_LOG_ENTRIES });
    expect(store.getState().logs.s?.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps at most MAX_LOG_ENTRIES per server, dropping the oldest', async () => {
    const { store, fire } = setup({ 'logs:list': vi.fn(async () => []) });
    await store.getState().loadLogs('s');
    const many = Array.from({ length: MAX_LOG_ENTRIES + 10 }, (_, i) => log(i + 1));
    fire('logs:appended', { server: 's', entries: many });
    const entries = store.getState().logs.s?.entries ?? [];
    expect(entries.length).toBe(MAX_LOG_ENTRIES);
    expect(entries[0]?.seq).toBe(11);
  });

  it('trace:appended fetches what is after the last held, one fetch at a time per server', async () => {
    let answer: (entries: TraceEntry[]) => void = () => undefined;
    const list = vi.fn(() => new Promise<TraceEntry[]>((resolve) => (answer = resolve)));
    const { store, fire } = setup({ 'trace:list': list });
    fire('trace:appended', { server: 's', lastSeq: 5 });
    expect(list).not.toHaveBeenCalled();
    store.getState().openServerPage('s', 'trace');
    expect(list).toHaveBeenCalledTimes(1);
    answer([trace(1), trace(2)]);
    await settle();
    expect(store.getState().trace.s?.entries.map((e) => e.seq)).toEqual([1, 2]);

    fire('trace:appended', { server: 's', lastSeq: 3 });
    fire('trace:appended', { server: 's', lastSeq: 4 });
    expect(list).toHaveBeenCalledTimes(2);
    expect(list).toHaveBeenLastCalledWith({ server: 's', after: 2, limit: 5000 });
    answer([trace(3)]);
    await settle();
    // The second event arrived during the first fetch: one more after it.
    expect(list).toHaveBeenCalledTimes(3);
    expect(list).toHaveBeenLastCalledWith({ server: 's', after: 3, limit: 5000 });
    answer([trace(4)]);
    await settle();
    expect(store.getState().trace.s?.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    // Already held: nothing to fetch.
    fire('trace:appended', { server: 's', lastSeq: 4 });
    expect(list).toHaveBeenCalledTimes(3);

    const clear = vi.fn(async () => undefined);
    const again = setup({ 'trace:list': vi.fn(async () => [trace(1)]), 'trace:clear': clear });
    await again.store.getState().loadTrace('s');
    await again.store.getState().clearTrace('s');
    expect(clear).toHaveBeenCalledWith('s');
    expect(again.store.getState().trace.s?.entries).toEqual([]);
  });
});

describe('progress', () => {
  it('calls:progress is kept by callId, merged, and dropped when the direct call settles', async () => {
    let finish: () => void = () => undefined;
    const call = vi.fn(
      () =>
        new Promise<{ conversationId: string; result: { content: [] } }>(
          (resolve) => (finish = () => resolve({ conversationId: 'c', result: { content: [] } })),
        ),
    );
    const { store, fire } = setup({ 'chat:call': call });
    void store.getState().callTool({ server: 'calc', tool: 'add' }, {});
    const callId = (call.mock.calls[0] as unknown as [{ callId: string }])[0].callId;
    fire('calls:progress', { callId, server: 'calc', tool: 'add', progress: 1, total: 4, message: 'step 1' });
    fire('calls:progress', { callId, server: 'calc', tool: 'add', progress: 2 });
    expect(store.getState().progress[callId]).toMatchObject({ progress: 2, total: 4, message: 'step 1' });
    fire('calls:progress', { callId, server: 'calc', tool: 'add', task: { taskId: 't1', status: 'working', statusMessage: 'thinking' } });
    expect(store.getState().progress[callId]?.task).toEqual({ taskId: 't1', status: 'working', statusMessage: 'thinking' });
    finish();
    await settle();
    expect(store.getState().progress[callId]).toBeUndefined();
    // Late progress for a call that ended is kept only until the cap; it is never shown (the card is not pending).
    fire('calls:progress', { garbage: true } as never);
    expect(Object.keys(store.getState().progress)).toEqual([]);
  });
});

describe('tasks', () => {
  it('a call asked to run as a task says so to the host; an ordinary call does not', async () => {
    const call = vi.fn(async () => ({ conversationId: 'c', result: { content: [], task: { taskId: 't1', status: 'completed' as const } } }));
    const { store } = setup({ 'chat:call': call });
    await store.getState().callTool({ server: 'calc', tool: 'add' }, { a: 1 }, undefined, { task: true });
    await store.getState().callTool({ server: 'calc', tool: 'add' }, { a: 1 });
    expect(call.mock.calls.map((c) => (c as unknown as [{ task?: boolean }])[0].task)).toEqual([true, undefined]);
    expect(store.getState().entries.at(-2)).toMatchObject({ kind: 'call', state: 'ok', result: { task: { taskId: 't1' } } });
  });
});

describe('attachments', () => {
  it('resources attached go with the next message once, deduplicated and capped', async () => {
    const send = vi.fn(async () => ({
      conversationId: 'c',
      runId: 'r',
      userMessage: { id: 'u', role: 'user' as const, text: 'hi', at: 1 },
      assistantMessage: { id: 'a', role: 'assistant' as const, parts: [], at: 1, model: 'm', status: 'done' as const },
    }));
    const { store } = setup({ 'chat:send': send });
    store.getState().attachResource({ server: 's', uri: 'test://a' });
    store.getState().attachResource({ server: 's', uri: 'test://a' });
    store.getState().attachResource({ server: 's', uri: 'test://b' });
    store.getState().detachResource({ server: 's', uri: 'test://b' });
    expect(store.getState().attachments).toEqual([{ server: 's', uri: 'test://a' }]);
    await store.getState().sendChat('hi');
    expect(send).toHaveBeenCalledWith({ text: 'hi', attachments: [{ server: 's', uri: 'test://a' }] });
    expect(store.getState().attachments).toEqual([]);
    await store.getState().sendChat('again');
    expect(send).toHaveBeenLastCalledWith({ text: 'again', conversationId: 'c' });
    for (let i = 0; i < 12; i++) store.getState().attachResource({ server: 's', uri: `test://${i}` });
    expect(store.getState().attachments.length).toBe(10);
    expect(store.getState().entries.at(-1)).toMatchObject({ kind: 'notice', message: expect.stringContaining('At most 10') });
  });
});

describe('prompts', () => {
  const greet = { name: 'greet', description: 'Say hello', arguments: [{ name: 'name', required: true }] };
  const promptServers = (store: ReturnType<typeof setup>['store']) =>
    store
      .getState()
      .setServers([
        view('p', { capabilities: { tools: true, resources: false, subscribe: false, prompts: true, completions: true, logging: false, tasks: false } }),
        view('calc', { tools: [{ name: 'add', inputSchema: {} }] }),
      ]);

  it('insert into conversation puts the messages into the chat log and shows the chat', async () => {
    const get = vi.fn(async () => ({ description: 'd', messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hello, Bob' } }] }));
    const { store } = setup({ 'prompts:get': get, 'prompts:list': vi.fn(async (server: string) => ({ server, prompts: [greet] })) });
    store.getState().openServerPage('s', 'prompts');
    await settle();
    expect(store.getState().promptLists.s?.value?.prompts).toEqual([greet]);
    expect(await store.getState().insertPrompt('s', 'greet', { name: 'Bob' })).toBe(true);
    expect(get).toHaveBeenCalledWith({ server: 's', name: 'greet', args: { name: 'Bob' } });
    expect(store.getState().serverPage).toBeUndefined();
    expect(store.getState().entries.at(-1)).toMatchObject({
      kind: 'prompt',
      insert: { server: 's', prompt: 'greet', args: { name: 'Bob' }, messages: [{ role: 'user' }] },
    });
  });

  it('/name opens a prompt form when no tool has that name; with all its arguments it inserts at once; tools still win', async () => {
    const get = vi.fn(async () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hi' } }] }));
    const list = vi.fn(async (server: string) => ({ server, prompts: server === 'p' ? [greet, { name: 'add', arguments: [] }] : [] }));
    const call = vi.fn(async () => ({ conversationId: 'c', result: { content: [] } }));
    const { store } = setup({ 'prompts:get': get, 'prompts:list': list, 'chat:call': call });
    promptServers(store);
    // The lists are not loaded yet: submit loads them, then decides (the line stays in the box meanwhile).
    expect(store.getState().submit('/greet')).toBe(false);
    await settle();
    expect(store.getState().promptForm).toEqual({ server: 'p', name: 'greet', args: {} });

    store.getState().openPromptForm(undefined);
    expect(store.getState().submit('/greet {"name":"Bob"}')).toBe(true);
    await settle();
    expect(get).toHaveBeenCalledWith({ server: 'p', name: 'greet', args: { name: 'Bob' } });
    expect(store.getState().entries.at(-1)).toMatchObject({ kind: 'prompt' });
    expect(store.getState().promptForm).toBeUndefined();

    // A tool of the same name is called, as before.
    expect(store.getState().submit('/add {"a":1}')).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);

    // Neither: the tool's message, as before.
    expect(store.getState().submit('/nope {}')).toBe(false);
    expect(store.getState().entries.at(-1)).toMatchObject({ kind: 'notice', tone: 'error', message: expect.stringContaining('Unknown tool "/nope"') });
  });

  it('an inserted prompt can be sent to the model as the next message', async () => {
    const send = vi.fn(async () => {
      throw new Error('stop here');
    });
    const { store } = setup({ 'chat:send': send });
    store.getState().addPromptEntry({ server: 's', prompt: 'greet', args: {}, messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] });
    const entry = store.getState().entries.at(-1);
    await store.getState().sendPromptEntry(entry?.id ?? -1);
    expect(send).toHaveBeenCalledWith({ text: 'Hello' });
  });
});
