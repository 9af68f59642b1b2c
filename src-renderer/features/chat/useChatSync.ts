import { useEffect, useRef } from 'react';
import { useApp, useAppStore } from '../../store/useApp';

/** Follows `chat:event` and loads providers, settings and history; loads them again when the connection comes back. */
export function useChatSync(): void {
  const store = useAppStore();
  const connected = useApp((s) => s.connection.status === 'open');
  const first = useRef(true);
  useEffect(() => store.getState().followChat(), [store]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (connected) void store.getState().refreshChat();
  }, [connected, store]);
}
