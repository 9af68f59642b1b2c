import type { Unsubscribe } from '../../src-shared/host-api';
import { describeError, type HostClient } from '../host-client';
import type { AppStore } from './index';

/**
 * Subscribes the store to the host, once: `servers:changed` and `app:changed` events, then a first fetch of
 * both (and again after the bridge reconnects). Status only ever comes from main.
 */
export function bindHost(store: AppStore, host: HostClient): Unsubscribe {
  const { api } = host;
  // Bumped by every pushed event: a fetch that started before the latest event is older than it, so dropped.
  let serversEpoch = 0;
  let appEpoch = 0;

  const offServers = api.on('servers:changed', (servers) => {
    serversEpoch += 1;
    if (Array.isArray(servers)) store.getState().setServers(servers);
  });
  const offApp = api.on('app:changed', (info) => {
    appEpoch += 1;
    store.getState().setAppInfo(info);
  });

  const refresh = (): void => {
    const serversAt = serversEpoch;
    const appAt = appEpoch;
    api['servers:list']().then(
      (servers) => {
        if (serversAt === serversEpoch) store.getState().setServers(servers);
      },
      (error: unknown) => console.warn('servers:list failed', describeError(error).message),
    );
    api['app:info']().then(
      (info) => {
        if (appAt === appEpoch) store.getState().setAppInfo(info);
      },
      (error: unknown) => store.getState().setAppInfoError(describeError(error).message),
    );
  };

  let wasOpen = host.connection().status === 'open';
  const offConnection = host.onConnection((state) => {
    store.getState().setConnection(state);
    const open = state.status === 'open';
    if (open && !wasOpen) refresh();
    wasOpen = open;
  });

  // The bridge queues requests until its socket opens, so the first fetch can go out right away.
  refresh();
  // A fetch queued while connecting is already in flight, so do not repeat it on the first open.
  wasOpen = wasOpen || host.connection().status === 'connecting';

  return () => {
    offServers();
    offApp();
    offConnection();
  };
}
