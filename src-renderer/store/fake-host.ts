import { vi } from 'vitest';
import type { HostApi, HostEvents } from '../../src-shared/host-api';
import type { BridgeClient } from '../host/bridge-client';

/**
 * For store tests: a BridgeClient whose API methods are the given overrides, else vi.fn()s resolving to
 * `fallback`, and whose events the test fires.
 */
export function fakeHost(overrides: Partial<HostApi> = {}, fallback: unknown = undefined) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const api = new Proxy(overrides as HostApi, {
    get(target, key: string) {
      if (key === 'on') {
        return (event: string, listener: (payload: unknown) => void) => {
          const set = listeners.get(event) ?? new Set();
          listeners.set(event, set);
          set.add(listener);
          return () => set.delete(listener);
        };
      }
      return (target as unknown as Record<string, unknown>)[key] ?? vi.fn(async () => fallback);
    },
  });
  const client: BridgeClient = { api, kind: 'bridge', connection: () => ({ status: 'open' }), onConnection: () => () => undefined, dispose: () => undefined };
  const fire = <E extends keyof HostEvents>(event: E, payload: HostEvents[E]): void => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  return { client, fire, listeners };
}
