import type { SliceCreator } from './types';

const expandedKey = 'switchboard.expandedServers';

/** The servers whose rows a person opened, as remembered on this origin (a damaged value opens none). */
export function rememberedExpanded(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Record<string, true> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(expandedKey) ?? '[]');
    if (!Array.isArray(parsed)) return {};
    const names = parsed.filter((name): name is string => typeof name === 'string');
    return Object.fromEntries(names.map((name) => [name, true as const]));
  } catch {
    return {};
  }
}

function rememberExpanded(expanded: Record<string, true>, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(expandedKey, JSON.stringify(Object.keys(expanded)));
  } catch {
    // storage may be unavailable (a locked-down profile): the rows still open for this page load
  }
}

/**
 * The servers sidebar's own state: which rows are open (closed by default — a row is a status line with a tool
 * count until opened — and remembered per server across reloads) and the filter typed above the list.
 */
export interface SidebarSlice {
  expandedServers: Record<string, true>;
  serverFilter: string;
  toggleServerExpanded(name: string): void;
  setServerExpanded(name: string, expanded: boolean): void;
  setServerFilter(filter: string): void;
  /** The keyboard shortcuts' help dialog. */
  shortcutsOpen: boolean;
  setShortcutsOpen(open: boolean): void;
}

export const createSidebarSlice =
  (storage: Storage | undefined = typeof localStorage === 'undefined' ? undefined : localStorage): SliceCreator<SidebarSlice> =>
  (set, get) => {
    const write = (name: string, expanded: boolean): void => {
      const next = { ...get().expandedServers };
      if (expanded) next[name] = true;
      else delete next[name];
      rememberExpanded(next, storage);
      set({ expandedServers: next });
    };
    return {
      expandedServers: rememberedExpanded(storage),
      serverFilter: '',
      toggleServerExpanded: (name) => write(name, get().expandedServers[name] !== true),
      setServerExpanded: (name, expanded) => {
        if ((get().expandedServers[name] === true) !== expanded) write(name, expanded);
      },
      setServerFilter: (serverFilter) => set({ serverFilter }),
      shortcutsOpen: false,
      setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
    };
  };

/** Whether a server row matches the sidebar's filter: its name, or one of its tools' names (case-insensitive). */
export function matchesServerFilter(server: { name: string; tools: readonly { name: string }[] }, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return server.name.toLowerCase().includes(needle) || server.tools.some((tool) => tool.name.toLowerCase().includes(needle));
}
