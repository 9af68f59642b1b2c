import type { Unsubscribe } from '../../src-shared/host-api';
import { DisposableStore, toDisposable } from '../../src-shared/lifecycle';
import { isServersDelta } from '../../src-shared/servers-delta';
import { describeError, type BridgeClient } from '../host/bridge-client';
import { bindFeatures } from './bind-features';
import type { AppStore } from './index';

/**
 * Subscribes the store to the host, once: `servers:changed` and `app:changed` events, then a first fetch of
 * both (and again after the bridge reconnects). Status only ever comes from main.
 *
 * `servers:changed` carries only what changed, so the list itself comes from `servers:list`; each delta is merged
 * into it. Replies and events travel in order on one channel (the bridge's socket, the window's IPC pipe), so
 * a list reply is never older than a delta that arrived before it, and deltas after it apply on top. A delta
 * that cannot be merged (no list yet, or it names a server the list lacks) asks for the list again.
 */
export function bindHost(store: AppStore, host: BridgeClient): Unsubscribe {
  const { api } = host;
  // Every subscription, ended newest first by the returned function.
  const subscriptions = new DisposableStore();
  // Bumped by every pushed event: a fetch that started before the latest event is older than it, so dropped.
  let appEpoch = 0;
  // Only the latest list fetch is applied (an earlier one still in flight is older than it).
  let serversFetch = 0;
  let serversFetching = 0;
  const fetchServers = (): void => {
    const at = ++serversFetch;
    serversFetching += 1;
    api['servers:list']()
      .then(
        (servers) => {
          if (at === serversFetch) store.getState().setServers(servers);
        },
        (error: unknown) => console.warn('servers:list failed', describeError(error).message),
      )
      .finally(() => {
        serversFetching -= 1;
      });
  };

  subscriptions.addFn(
    api.on('servers:changed', (delta) => {
      if (!isServersDelta(delta)) return;
      // A fetch in flight answers with the newer list anyway.
      if (!store.getState().applyServersDelta(delta) && serversFetching === 0) fetchServers();
    }),
  );
  // The queue of things a person must answer: each change carries the whole queue.
  subscriptions.addFn(api.on('requests:changed', (change) => store.getState().applyRequestsChanged(change)));
  subscriptions.addFn(
    api.on('app:changed', (info) => {
      appEpoch += 1;
      store.getState().setAppInfo(info);
    }),
  );

  const refresh = (): void => {
    const appAt = appEpoch;
    fetchServers();
    void store.getState().loadRequests();
    void store.getState().loadAppSettings();
    api['app:info']().then(
      (info) => {
        if (appAt === appEpoch) store.getState().setAppInfo(info);
      },
      (error: unknown) => store.getState().setAppInfoError(describeError(error).message),
    );
  };

  let wasOpen = host.connection().status === 'open';
  subscriptions.addFn(
    host.onConnection((state) => {
      store.getState().setConnection(state);
      const open = state.status === 'open';
      if (open && !wasOpen) refresh();
      wasOpen = open;
    }),
  );

  // The bridge queues requests until its socket opens, so the first fetch can go out right away.
  refresh();
  // A fetch queued while connecting is already in flight, so do not repeat it on the first open.
  wasOpen = wasOpen || host.connection().status === 'connecting';

  // Resources, prompts, logs, trace and call progress (./bind-features.ts).
  subscriptions.add(toDisposable(bindFeatures(store, host)));

  return () => subscriptions.dispose();
}
