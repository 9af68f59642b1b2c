import type { HostApi, LogLevel } from '../../src-shared/host-api';
import type { ResourceContents } from '../../src-shared/contract/resources';
import { describeError } from '../host/bridge-client';
import { resourceKey, type BundleState, type PingState, type ResourceSelection, type ServerPageState, type ServerTab } from './feature-types';
import { without } from './tracked-call';
import type { SliceCreator } from './types';

/**
 * A server's page (tabs Tools · Resources · Prompts · Logs · Trace) shown on the chat screen in place of the
 * conversation (which stays mounted), plus what its header does: ping, the log level, the debug bundle.
 * Opening a tab loads what it shows, once; events keep it fresh (./bind-features.ts).
 */
export interface ServerPageSlice {
  serverPage: ServerPageState | undefined;
  pings: Record<string, PingState>;
  bundle: BundleState | undefined;
  logLevelErrors: Record<string, string>;

  openServerPage(server: string, tab?: ServerTab): void;
  setServerTab(tab: ServerTab): void;
  closeServerPage(): void;
  selectCatalogueTool(tool: string | undefined): void;
  selectResource(selection: ResourceSelection | undefined): void;
  selectPrompt(name: string | undefined): void;
  selectSkill(uri: string | undefined): void;
  /** Follows a `resource_link` or embedded resource from a tool result: the resources tab of that server, with it open. */
  openResource(server: string, uri: string, embedded?: ResourceContents): void;
  /** Loads what a tab shows if it is not loaded yet. */
  ensureTab(server: string, tab: ServerTab): void;
  pingServer(server: string): Promise<void>;
  setLogLevel(server: string, level: LogLevel): Promise<void>;
  exportDebugBundle(servers?: string[]): Promise<void>;
}

export const createServerPageSlice =
  (api: HostApi): SliceCreator<ServerPageSlice> =>
  (set, get) => {
    // Each server's page as last left (tab, selections), so reopening it comes back to the same place.
    const left = new Map<string, ServerPageState>();
    const show = (serverPage: ServerPageState): void => {
      left.set(serverPage.server, serverPage);
      set({ serverPage, screen: 'chat' });
    };
    const update = (serverPage: ServerPageState): void => {
      left.set(serverPage.server, serverPage);
      set({ serverPage });
    };
    return {
      serverPage: undefined,
      pings: {},
      bundle: undefined,
      logLevelErrors: {},

      openServerPage(server, tab) {
        const current = get().serverPage;
        const base = current?.server === server ? current : (left.get(server) ?? { server, tab: 'tools' });
        const next: ServerPageState = { ...base, tab: tab ?? base.tab };
        show(next);
        get().ensureTab(server, next.tab);
        // The resource it had open was changed on the server while the page was closed: read it again.
        const uri =
          next.tab === 'resources'
            ? next.resource?.kind === 'resource'
              ? next.resource.embedded
                ? undefined
                : next.resource.uri
              : next.resource?.uri
            : undefined;
        if (uri !== undefined && get().resourceReads[resourceKey(server, uri)] === undefined) void get().readResource(server, uri);
      },
      setServerTab(tab) {
        const page = get().serverPage;
        if (!page) return;
        update({ ...page, tab });
        get().ensureTab(page.server, tab);
      },
      closeServerPage: () => set({ serverPage: undefined }),
      selectCatalogueTool(tool) {
        const page = get().serverPage;
        if (page) update(tool === undefined ? withoutKey(page, 'tool') : { ...page, tool });
      },
      selectResource(selection) {
        const page = get().serverPage;
        if (!page) return;
        update(selection === undefined ? withoutKey(page, 'resource') : { ...page, resource: selection });
        if (selection?.kind === 'resource' && selection.embedded === undefined) {
          const read = get().resourceReads[resourceKey(page.server, selection.uri)];
          if (read === undefined || read.state === 'error') void get().readResource(page.server, selection.uri);
        } else if (selection?.kind === 'template' && selection.uri !== undefined) {
          void get().readResource(page.server, selection.uri);
        }
      },
      selectPrompt(name) {
        const page = get().serverPage;
        if (page) update(name === undefined ? withoutKey(page, 'prompt') : { ...page, prompt: name });
      },
      selectSkill(uri) {
        const page = get().serverPage;
        if (page) update(uri === undefined ? withoutKey(page, 'skill') : { ...page, skill: uri });
      },
      openResource(server, uri, embedded) {
        const resource: ResourceSelection = embedded ? { kind: 'resource', uri, embedded } : { kind: 'resource', uri };
        show({ ...(left.get(server) ?? { server }), server, tab: 'resources', resource });
        get().ensureTab(server, 'resources');
        if (!embedded) void get().readResource(server, uri);
      },
      ensureTab(server, tab) {
        const s = get();
        const caps = s.servers.find((v) => v.name === server)?.capabilities;
        switch (tab) {
          case 'tools':
            return;
          case 'resources':
            if (s.resourceLists[server] === undefined && caps?.resources !== false) void s.loadResources(server);
            return;
          case 'prompts':
            if (s.promptLists[server] === undefined && caps?.prompts !== false) void s.loadPrompts(server);
            return;
          case 'apps':
            // The last results come from the host's call registry: listed afresh, as a call may have ended elsewhere.
            void s.loadAppList(server);
            void s.loadCalls();
            return;
          case 'skills':
            if (s.skillLists[server] === undefined && caps?.skills === true) void s.loadSkills(server);
            return;
          case 'logs':
            if (s.logs[server]?.loaded !== true) void s.loadLogs(server);
            return;
          case 'trace':
            if (s.trace[server]?.loaded !== true) void s.loadTrace(server);
            return;
        }
      },

      async pingServer(server) {
        const previous = get().pings[server];
        set((s) => ({ pings: { ...s.pings, [server]: previous?.state === 'ok' ? { state: 'loading', value: previous.value } : { state: 'loading' } } }));
        try {
          const value = await api['servers:ping'](server);
          set((s) => ({ pings: { ...s.pings, [server]: { state: 'ok', value, at: Date.now() } } }));
        } catch (error) {
          set((s) => ({ pings: { ...s.pings, [server]: { state: 'error', message: describeError(error).message } } }));
        }
      },

      async setLogLevel(server, level) {
        set((s) => ({ logLevelErrors: without(s.logLevelErrors, server) }));
        try {
          await api['logs:set-level']({ server, level });
        } catch (error) {
          set((s) => ({ logLevelErrors: { ...s.logLevelErrors, [server]: describeError(error).message } }));
        }
      },

      async exportDebugBundle(servers) {
        set({ bundle: { state: 'loading' } });
        try {
          const value = await api['debug:bundle'](servers === undefined ? {} : { servers });
          set({ bundle: { state: 'ok', value, at: Date.now() } });
        } catch (error) {
          set({ bundle: { state: 'error', message: describeError(error).message } });
        }
      },
    };
  };

export function withoutKey<T extends object, K extends keyof T>(record: T, key: K): Omit<T, K> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}
