import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { HostApi, HostEventName, HostEvents, HostMethods, Unsubscribe } from '../src-shared/host-api';
import { channelNames, globalName, isEventName, unwrapEnvelope } from './contract';

/*
 * The page's only door to main: one method per contract channel plus `on` for host events. The page never sees
 * ipcRenderer, the IPC event object or process.env, and can neither call nor listen to anything off-contract.
 */

const methods = Object.fromEntries(
  channelNames.map((channel) => [channel, async (...args: unknown[]): Promise<unknown> => unwrapEnvelope(await ipcRenderer.invoke(channel, ...args))]),
  // Built from the checked channel list; main parses every argument with the contract's zod tuple.
) as unknown as HostMethods;

function on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): Unsubscribe {
  if (!isEventName(event)) throw new TypeError(`Unknown Switchboard event: ${String(event)}`);
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  const forward = (_event: IpcRendererEvent, payload: HostEvents[E]): void => listener(payload);
  ipcRenderer.on(event, forward);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    ipcRenderer.removeListener(event, forward);
  };
}

const api: HostApi = { ...methods, on };

contextBridge.exposeInMainWorld(globalName, api);
