import { useEffect } from 'react';
import { useApp, useAppStore } from '../../store/useApp';

/**
 * Keeps the store's copy of the config file current: fetched once, then every `config:changed`, and fetched
 * again whenever the connection to the host opens after having been lost (the bridge reconnects on its own). The
 * secret names follow `secrets:changed` the same way (fetched again on a reconnect once they have been shown).
 */
export function useConfigSync(): void {
  const store = useAppStore();
  useEffect(() => store.getState().followConfig(), [store]);
  const open = useApp((s) => s.connection.status === 'open');
  useEffect(() => {
    if (!open) return;
    void store.getState().loadConfig();
    // Events are not replayed after a lost connection: a list shown before it is fetched again.
    if (store.getState().secretsLoaded) void store.getState().loadSecrets();
  }, [open, store]);
}
