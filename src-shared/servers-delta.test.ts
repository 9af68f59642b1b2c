import { describe, expect, it } from 'vitest';
import type { ServerPatch, ServerView, ToolInfo } from './host-api';
import { applyServersDelta, isServersDelta, ServersDiffer } from './servers-delta';

const tools = (n: number, prefix = 't'): ToolInfo[] => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, inputSchema: { type: 'object' } }));

function view(name: string, over: Partial<ServerView> = {}): ServerView {
  return { name, transport: 'stdio', status: 'ready', disabled: false, tools: [], target: 'node x', stderrTail: [], restarts: 0, ...over };
}

function patchOf(v: ServerView): ServerPatch {
  const { tools: _tools, ...rest } = v;
  return rest;
}

describe('servers:changed deltas', () => {
  it('sends everything first, then only the servers that changed; nothing when nothing did', () => {
    const differ = new ServersDiffer();
    const aTools = tools(3, 'a');
    const a = view('a', { tools: aTools });
    const b = view('b');
    expect(differ.next([a, b])).toEqual({ changed: [a, b], removed: [], order: ['a', 'b'] });
    // Equal views (new objects, the same tools arrays): nothing to send.
    expect(differ.next([view('a', { tools: aTools }), view('b', { tools: b.tools })])).toBeUndefined();
    const b2 = view('b', { status: 'error', error: 'boom', tools: b.tools });
    expect(differ.next([a, b2])).toEqual({ changed: [patchOf(b2)], removed: [] });
    // Back to ready: `error` is gone from the patch, so a merge drops it too.
    const b3 = view('b', { tools: b.tools });
    expect(differ.next([a, b3])).toEqual({ changed: [patchOf(b3)], removed: [] });
    expect(applyServersDelta([a, b2], { changed: [patchOf(b3)], removed: [] })?.[1]).toEqual(b3);
  });

  it('a stderr-only change leaves the tools out; new tools are sent', () => {
    const differ = new ServersDiffer();
    const many = tools(10_000);
    differ.next([view('big', { tools: many })]);
    const delta = differ.next([view('big', { tools: many, stderrTail: ['hello'] })]);
    expect(delta?.changed).toHaveLength(1);
    expect(delta?.changed[0]).not.toHaveProperty('tools');
    expect(delta?.changed[0]?.stderrTail).toEqual(['hello']);
    expect(JSON.stringify(delta).length).toBeLessThan(500);
    // The connection re-listed: a new array, even with equal content, is sent (it may differ in any field).
    const relisted = tools(10_000);
    expect(differ.next([view('big', { tools: relisted, stderrTail: ['hello'] })])?.changed[0]?.tools).toBe(relisted);
  });

  it('reports removals and reorders; a listener merges every delta back into the same list', () => {
    const differ = new ServersDiffer();
    const steps: ServerView[][] = [
      [view('a', { tools: tools(2) }), view('b')],
      [view('a', { tools: tools(2), stderrTail: ['x'] }), view('b'), view('c', { status: 'starting' })],
      [view('c', { status: 'ready', tools: tools(1) }), view('a', { stderrTail: ['x', 'y'] })],
      [view('c', { status: 'ready', tools: tools(1) })],
      [],
      [view('d')],
    ];
    // Each step keeps the previous step's tools array where the test means "unchanged tools".
    for (let i = 1; i < steps.length; i++) {
      for (const v of steps[i] ?? []) {
        const before = steps[i - 1]?.find((p) => p.name === v.name);
        if (before && JSON.stringify(before.tools) === JSON.stringify(v.tools)) v.tools = before.tools;
      }
    }
    let list: ServerView[] = [];
    let loaded = false;
    for (const step of steps) {
      const delta = differ.next(step);
      if (!delta) continue;
      expect(isServersDelta(JSON.parse(JSON.stringify(delta)))).toBe(true);
      // Over the wire: JSON, as the bridge and IPC carry it.
      const merged = applyServersDelta(list, JSON.parse(JSON.stringify(delta)) as typeof delta);
      if (!merged) throw new Error(`could not merge ${JSON.stringify(delta)}`);
      list = merged;
      loaded = true;
      expect(list).toEqual(step);
    }
    expect(loaded).toBe(true);
    const third = differ.next([view('d'), view('e')]);
    expect(third?.removed).toEqual([]);
    expect(third?.order).toEqual(['d', 'e']);
  });

  it('keeps untouched servers as the same objects, and refuses what it cannot merge', () => {
    const a = view('a', { tools: tools(2) });
    const b = view('b', { tools: tools(1, 'b') });
    const merged = applyServersDelta([a, b], { changed: [patchOf(view('b', { status: 'error' }))], removed: [] });
    expect(merged?.[0]).toBe(a);
    expect(merged?.[1]).toMatchObject({ status: 'error', tools: b.tools });
    // A patch without tools for a server the list lacks (the list is stale): fetch again.
    expect(applyServersDelta([a], { changed: [patchOf(view('zz'))], removed: [] })).toBeUndefined();
    // An order naming a server neither listed nor sent.
    expect(applyServersDelta([a], { changed: [], removed: [], order: ['a', 'ghost'] })).toBeUndefined();
    expect(isServersDelta([])).toBe(false);
    expect(isServersDelta({ changed: [{}], removed: [] })).toBe(false);
    expect(isServersDelta({ changed: [], removed: [1] })).toBe(false);
  });
});
