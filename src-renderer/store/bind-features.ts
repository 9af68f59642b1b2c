import type { Unsubscribe } from '../../src-shared/host-api';
import type { BridgeClient } from '../host/bridge-client';
import type { AppStore } from './index';

/**
 * Follows the feature events for the views that have loaded something: a list reloaded on the server
 * (`features:changed`) is fetched again where it was loaded; `resources:updated` marks (and re-reads the open
 * resource); `logs:appended` appends; `trace:appended` fetches what is new; `calls:progress` feeds the cards and `calls:changed` settles them.
 * After the bridge reconnects, whatever was loaded is fetched again (events may have been missed).
 */
export function bindFeatures(store: AppStore, host: BridgeClient): Unsubscribe {
  const { api } = host;
  const state = () => store.getState();
  const offs: Unsubscribe[] = [
    api.on('features:changed', (event) => {
      if (typeof event?.server !== 'string') return;
      if (event.feature === 'resources' && state().resourceLists[event.server] !== undefined) void state().loadResources(event.server);
      if (event.feature === 'prompts' && state().promptLists[event.server] !== undefined) void state().loadPrompts(event.server);
      if (event.feature === 'skills' && state().skillLists[event.server] !== undefined) void state().loadSkills(event.server);
    }),
    api.on('resources:updated', (event) => {
      if (typeof event?.server === 'string' && typeof event.uri === 'string') state().applyResourceUpdated(event);
    }),
    api.on('logs:appended', (event) => {
      if (typeof event?.server === 'string') state().applyLogsAppended(event);
    }),
    api.on('trace:appended', (event) => {
      if (typeof event?.server === 'string' && typeof event.lastSeq === 'number') state().applyTraceAppended(event);
    }),
    api.on('calls:progress', (event) => state().applyProgress(event)),
    api.on('calls:changed', (view) => state().applyCallChanged(view)),
  ];

  let wasOpen = host.connection().status !== 'closed';
  offs.push(
    host.onConnection((connection) => {
      const open = connection.status === 'open';
      // Calls went on in the host while the connection was down: list them again (which settles their cards); when
      // it is gone for good, the cards that were following a call say so.
      if (!open && wasOpen) state().forgetHostCalls();
      if (connection.status === 'closed' && !connection.retrying) state().hostLost(connection.reason);
      if (open && !wasOpen) {
        const s = state();
        void s.loadCalls();
        for (const server of Object.keys(s.resourceLists)) void s.loadResources(server);
        for (const server of Object.keys(s.promptLists)) void s.loadPrompts(server);
        for (const [server, logs] of Object.entries(s.logs)) if (logs.loaded) void s.loadLogs(server);
        for (const [server, trace] of Object.entries(s.trace)) if (trace.loaded) void s.loadTrace(server);
      }
      wasOpen = open;
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
