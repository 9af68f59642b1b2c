import { describe, expect, it, vi } from 'vitest';
import type { ServerPatch, ServerView } from '../../src-shared/host-api';
import { bindHost } from './bind-host';
import { fakeHost } from './fake-host';
import { createAppStore } from './index';

function view(name: string, over: Partial<ServerView> = {}): ServerView {
  return { name, transport: 'stdio', status: 'ready', disabled: false, tools: [], target: 'node x', stderrTail: [], restarts: 0, ...over };
}
function patch(v: ServerView): ServerPatch {
  const { tools: _tools, ...rest } = v;
  return rest;
}
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('bindHost and servers:changed deltas', () => {
  it('merges deltas into the fetched list: tools kept when left out, untouched servers kept as they were', async () => {
    const a = view('a', { tools: [{ name: 'add', inputSchema: {} }] });
    const b = view('b');
    const list = vi.fn(async () => [a, b]);
    const { client, fire } = fakeHost({
      'servers:list': list,
      'app:info': vi.fn(async () => ({ version: 't', mode: 'headless' as const, configPath: '/c', logsDir: '/l', secrets: { backing: 'memory' as const } })),
    });
    const store = createAppStore(client);
    bindHost(store, client);
    await settle();
    expect(store.getState().servers).toEqual([a, b]);

    fire('servers:changed', { changed: [patch(view('a', { stderrTail: ['hi'] }))], removed: [] });
    const [a2, b2] = store.getState().servers;
    expect(a2).toMatchObject({ stderrTail: ['hi'], tools: a.tools });
    expect(b2).toBe(b);

    const c = view('c', { status: 'starting' });
    fire('servers:changed', { changed: [c], removed: ['b'], order: ['c', 'a'] });
    expect(store.getState().servers.map((s) => s.name)).toEqual(['c', 'a']);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it('a delta before the first list waits for it; one that names a server the list lacks fetches the list again', async () => {
    let answer: (views: ServerView[]) => void = () => undefined;
    const list = vi.fn(() => new Promise<ServerView[]>((resolve) => (answer = resolve)));
    const { client, fire } = fakeHost(
      { 'servers:list': list },
      { version: 't', mode: 'headless', configPath: '/c', logsDir: '/l', secrets: { backing: 'memory' } },
    );
    const store = createAppStore(client);
    bindHost(store, client);
    // Not loaded yet: nothing to merge into, and the fetch in flight will answer with a newer list.
    fire('servers:changed', { changed: [patch(view('a', { status: 'error' }))], removed: [] });
    expect(store.getState().serversLoaded).toBe(false);
    expect(list).toHaveBeenCalledTimes(1);
    answer([view('a')]);
    await settle();
    expect(store.getState().servers).toEqual([view('a')]);

    // A server this list has never seen, sent without tools: the list is stale, so fetch it.
    fire('servers:changed', { changed: [patch(view('new'))], removed: [] });
    expect(list).toHaveBeenCalledTimes(2);
    // While that fetch is in flight, another unmergeable delta does not start a third.
    fire('servers:changed', { changed: [patch(view('newer'))], removed: [] });
    expect(list).toHaveBeenCalledTimes(2);
    answer([view('a'), view('new'), view('newer')]);
    await settle();
    expect(store.getState().servers.map((s) => s.name)).toEqual(['a', 'new', 'newer']);
    // Garbage on the wire is ignored.
    fire('servers:changed', [] as never);
    expect(store.getState().servers.map((s) => s.name)).toEqual(['a', 'new', 'newer']);
  });
});
