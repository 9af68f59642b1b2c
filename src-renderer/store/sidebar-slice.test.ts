import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';
import { matchesServerFilter, rememberedExpanded } from './sidebar-slice';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

const appStore = () => createAppStore(fakeHost({}, []).client);

describe('sidebar slice', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts with every server closed and remembers each one opened, per server, for the next load', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    const store = appStore();
    expect(store.getState().expandedServers).toEqual({});
    store.getState().toggleServerExpanded('calculator');
    store.getState().setServerExpanded('memory', true);
    store.getState().setServerExpanded('memory', false);
    expect(store.getState().expandedServers).toEqual({ calculator: true });
    expect(appStore().getState().expandedServers).toEqual({ calculator: true });
  });

  it('opens nothing from a damaged remembered value', () => {
    expect(rememberedExpanded(memoryStorage({ 'switchboard.expandedServers': '{oops' }))).toEqual({});
    expect(rememberedExpanded(memoryStorage({ 'switchboard.expandedServers': '{"a":1}' }))).toEqual({});
    expect(rememberedExpanded(memoryStorage({ 'switchboard.expandedServers': '["a",2]' }))).toEqual({ a: true });
  });

  it('filters by server name or tool name, ignoring case', () => {
    const server = { name: 'Calculator', tools: [{ name: 'add' }, { name: 'divide' }] };
    expect(matchesServerFilter(server, '')).toBe(true);
    expect(matchesServerFilter(server, 'calc')).toBe(true);
    expect(matchesServerFilter(server, 'DIV')).toBe(true);
    expect(matchesServerFilter(server, 'memory')).toBe(false);
  });
});
