import { describe, expect, it, vi } from 'vitest';
import type { UiAppInfo } from '../../src-shared/contract/apps';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

describe('apps slice', () => {
  it('ui/message without a model: a notice from the app, nothing sent', async () => {
    const send = vi.fn();
    const { client } = fakeHost({ 'chat:send': send });
    const store = createAppStore(client);
    expect(await store.getState().appMessage('Get Time', 'hello')).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(store.getState().entries).toEqual([expect.objectContaining({ kind: 'notice', tone: 'info', command: 'From the app Get Time', message: 'hello' })]);
  });

  it('ui/message with a model: sent as the next user message, marked as from the app; a failed send leaves a notice', async () => {
    const send = vi.fn(async () => {
      throw new Error('stop here');
    });
    const { client } = fakeHost({ 'chat:send': send });
    const store = createAppStore(client);
    store.setState({ providers: { providers: [], model: 'openai:m' } });
    expect(await store.getState().appMessage('Get Time', 'hello', { server: 'basic', tool: 'get-time' })).toBe(false);
    expect(send).toHaveBeenCalledWith({ text: 'hello', fromApp: { server: 'basic', tool: 'get-time', title: 'Get Time' } });
    expect(store.getState().entries.at(-1)).toMatchObject({ kind: 'notice', command: 'From the app Get Time', message: 'hello' });
  });

  it('ui/message sent: the user message shows it, no notice besides', async () => {
    const fromApp = { server: 'basic', tool: 'get-time', title: 'Get Time' };
    const send = vi.fn(async () => ({
      conversationId: 'c1',
      runId: 'r1',
      userMessage: { id: 'u1', role: 'user' as const, text: 'hello', at: 1, fromApp },
      assistantMessage: { id: 'a1', role: 'assistant' as const, parts: [], at: 1, model: 'openai:m', status: 'streaming' as const },
    }));
    const { client } = fakeHost({ 'chat:send': send });
    const store = createAppStore(client);
    store.setState({ providers: { providers: [], model: 'openai:m' } });
    expect(await store.getState().appMessage('Get Time', 'hello', { server: 'basic', tool: 'get-time' })).toBe(true);
    expect(store.getState().entries.some((e) => e.kind === 'notice')).toBe(false);
    expect(store.getState().entries[0]).toMatchObject({ kind: 'message', message: { fromApp } });
  });

  it('the apps’ model context goes with the next message (bounded) and leaves the box; an update made meanwhile stays', async () => {
    let release: () => void = () => undefined;
    const send = vi.fn(async () => {
      await new Promise<void>((r) => (release = r));
      return {
        conversationId: 'c1',
        runId: 'r1',
        userMessage: { id: 'u1', role: 'user' as const, text: 'q', at: 1 },
        assistantMessage: { id: 'a1', role: 'assistant' as const, parts: [], at: 1, model: 'openai:m', status: 'streaming' as const },
      };
    });
    const { client } = fakeHost({ 'chat:send': send });
    const store = createAppStore(client);
    store.setState({ activeConversationId: 'c1' });
    for (let i = 0; i < 20; i++)
      store.getState().setAppContext({ key: `k${i}`, server: 's', tool: 't', title: 'T', text: i === 19 ? '時'.repeat(6000) : `n${i}` });
    const sending = store.getState().sendChat('q');
    store.getState().setAppContext({ key: 'k3', server: 's', tool: 't', title: 'T', text: 'updated meanwhile' });
    release();
    expect(await sending).toBe(true);
    const request = (send.mock.calls[0] as unknown as [{ appContext: Array<{ text: string }> }])[0];
    expect(request.appContext).toHaveLength(16);
    expect(request.appContext[0]?.text).toBe('n4');
    const last = request.appContext.at(-1)?.text ?? '';
    expect(new TextEncoder().encode(last).length).toBeLessThanOrEqual(16 * 1024);
    expect(last.endsWith('時')).toBe(true);
    expect(store.getState().appContexts.c1?.map((c) => c.text)).toEqual(['updated meanwhile']);
  });

  it('model context: one per app instance, replaced by its update, removable, per conversation', () => {
    const { client } = fakeHost();
    const store = createAppStore(client);
    store.setState({ activeConversationId: 'c1' });
    const base = { key: 'call-1', server: 's', tool: 't', title: 'T' };
    store.getState().setAppContext({ ...base, text: 'first' });
    store.getState().setAppContext({ ...base, text: 'second' });
    store.getState().setAppContext({ ...base, key: 'call-2', text: 'other' });
    expect(store.getState().appContexts.c1?.map((c) => c.text)).toEqual(['second', 'other']);
    store.getState().removeAppContext('c1', 'call-1');
    expect(store.getState().appContexts.c1?.map((c) => c.text)).toEqual(['other']);
    // An empty update clears what the app kept.
    store.getState().setAppContext({ ...base, key: 'call-2', text: '' });
    expect(store.getState().appContexts.c1).toEqual([]);
  });

  it('each tools/call from an app gets a call id of its own', async () => {
    const call = vi.fn(async () => ({ content: [] }));
    const { client } = fakeHost({ 'apps:call-tool': call });
    const store = createAppStore(client);
    await store.getState().appCallTool('frame-12345678', 'get-time', {});
    await store.getState().appCallTool('frame-12345678', 'get-time', {});
    const ids = call.mock.calls.map((c) => (c as unknown as [{ callId: string }])[0].callId);
    expect(new Set(ids).size).toBe(2);
  });

  it('the Apps tab lists the server’s apps and the host’s calls (for the last results) when it opens', async () => {
    const app: UiAppInfo = { server: 's', tool: 't', title: 'T', resourceUri: 'ui://t/x.html', visibility: ['model', 'app'], status: 'ok', review: 'trusted' };
    const list = vi.fn(async () => [app]);
    const calls = vi.fn(async () => []);
    const { client } = fakeHost({ 'apps:list': list, 'calls:list': calls });
    const store = createAppStore(client);
    store.getState().openServerPage('s', 'apps');
    await vi.waitFor(() => expect(store.getState().appLists.s?.state).toBe('ok'));
    expect(list).toHaveBeenCalledWith({ server: 's' });
    expect(calls).toHaveBeenCalled();
    expect(store.getState().appLists.s).toMatchObject({ state: 'ok', value: [app] });
  });

  it('a failed listing keeps what was listed before, with the error', async () => {
    let fail = false;
    const list = vi.fn(async () => {
      if (fail) throw new Error('server gone');
      return [];
    });
    const { client } = fakeHost({ 'apps:list': list });
    const store = createAppStore(client);
    await store.getState().loadAppList('s');
    fail = true;
    await store.getState().loadAppList('s');
    expect(store.getState().appLists.s).toMatchObject({ state: 'error', value: [] });
  });

  it('"Run the tool" is a direct call with no arguments under a call id of its own', async () => {
    const call = vi.fn(async () => ({ content: [{ type: 'text' as const, text: 'now' }] }));
    const { client } = fakeHost({ 'tools:call': call });
    const store = createAppStore(client);
    const first = store.getState().runAppTool('s', 't');
    const second = store.getState().runAppTool('s', 't');
    expect(first.callId).not.toBe(second.callId);
    expect(await first.done).toEqual({ content: [{ type: 'text', text: 'now' }] });
    expect(call).toHaveBeenCalledWith({ server: 's', tool: 't', args: {}, callId: first.callId });
  });

  it('apps:closed reaches only the frame it names, once; unwatching stops it', () => {
    const { client, fire } = fakeHost();
    const store = createAppStore(client);
    const mine = vi.fn();
    const other = vi.fn();
    store.getState().watchAppFrame('frame-a', mine);
    const off = store.getState().watchAppFrame('frame-b', other);
    off();
    const event = { frameId: 'frame-a', server: 's', tool: 't', reason: 'server-stopped' as const, message: 'its server stopped' };
    fire('apps:closed', event);
    fire('apps:closed', event);
    fire('apps:closed', { ...event, frameId: 'frame-b' });
    expect(mine).toHaveBeenCalledTimes(1);
    expect(mine).toHaveBeenCalledWith(event);
    expect(other).not.toHaveBeenCalled();
  });
});
