import type { CompletionRef, HostApi, ResourceUpdatedEvent } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { resourceKey, type ReadState, type ResourceListState } from './feature-types';
import { latestLoads } from './latest-load';
import { without } from './tracked-call';
import type { SliceCreator } from './types';

/** Resource lists per server (fetched when the tab opens, again on `features:changed`), reads, subscriptions, completion. */
export interface ResourcesSlice {
  resourceLists: Record<string, ResourceListState>;
  /** Keyed by resourceKey(server, uri). */
  resourceReads: Record<string, ReadState>;
  /** When the server last said a resource changed (`resources:updated`), by resourceKey. */
  resourceUpdated: Record<string, number>;
  resourceSubscribing: Record<string, boolean>;
  subscribeErrors: Record<string, string>;

  loadResources(server: string): Promise<void>;
  readResource(server: string, uri: string): Promise<void>;
  setSubscribed(server: string, uri: string, on: boolean): Promise<void>;
  applyResourceUpdated(event: ResourceUpdatedEvent): void;
  /** Suggestions for a prompt argument or template variable; [] when the server has none or fails. */
  complete(server: string, ref: CompletionRef, argument: string, value: string, context?: Record<string, string>): Promise<string[]>;
}

export const createResourcesSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<ResourcesSlice> =>
  (set, get) => {
    // Only the latest fetch per server (and read per resource) is applied.
    const loadList = latestLoads(now);
    const loadRead = latestLoads(now);
    return {
      resourceLists: {},
      resourceReads: {},
      resourceUpdated: {},
      resourceSubscribing: {},
      subscribeErrors: {},

      async loadResources(server) {
        await loadList(
          server,
          get().resourceLists[server],
          () => api['resources:list'](server),
          (state) => set((s) => ({ resourceLists: { ...s.resourceLists, [server]: state } })),
        );
      },

      async readResource(server, uri) {
        const key = resourceKey(server, uri);
        await loadRead(
          key,
          get().resourceReads[key],
          () => api['resources:read']({ server, uri }),
          (state) => set((s) => ({ resourceReads: { ...s.resourceReads, [key]: state } })),
        );
      },

      async setSubscribed(server, uri, on) {
        const key = resourceKey(server, uri);
        set((s) => ({ resourceSubscribing: { ...s.resourceSubscribing, [key]: true }, subscribeErrors: without(s.subscribeErrors, key) }));
        try {
          await api[on ? 'resources:subscribe' : 'resources:unsubscribe']({ server, uri });
          set((s) => {
            const list = s.resourceLists[server];
            if (list?.state !== 'ok') return {};
            const others = list.value.subscribed.filter((u) => u !== uri);
            const subscribed = on ? [...others, uri] : others;
            return { resourceLists: { ...s.resourceLists, [server]: { ...list, value: { ...list.value, subscribed } } } };
          });
        } catch (error) {
          set((s) => ({ subscribeErrors: { ...s.subscribeErrors, [key]: describeError(error).message } }));
        } finally {
          set((s) => ({ resourceSubscribing: without(s.resourceSubscribing, key) }));
        }
      },

      applyResourceUpdated({ server, uri }) {
        const key = resourceKey(server, uri);
        set((s) => ({ resourceUpdated: { ...s.resourceUpdated, [key]: now() } }));
        // The one on screen is read again at once; others when opened.
        const page = get().serverPage;
        const open = page?.server === server && page.tab === 'resources' && page.resource?.uri === uri;
        if (open) void get().readResource(server, uri);
        else if (get().resourceReads[key] !== undefined) set((s) => ({ resourceReads: without(s.resourceReads, key) }));
      },

      async complete(server, ref, argument, value, context) {
        try {
          const view = await api['completion:complete']({
            server,
            ref,
            argument: { name: argument, value },
            ...(context && Object.keys(context).length > 0 ? { context } : {}),
          });
          return view.values;
        } catch {
          return [];
        }
      },
    };
  };
