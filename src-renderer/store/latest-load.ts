import { describeError } from '../host/bridge-client';
import type { Loadable } from './feature-types';

/**
 * Loads into a record of {@link Loadable}s where the latest load of a key wins: `put` gets `loading` (keeping the
 * last value), then `ok` or `error` unless a later load of the same key has started since.
 */
export function latestLoads(
  now: () => number,
): <T>(key: string, previous: Loadable<T> | undefined, fetch: () => Promise<T>, put: (state: Loadable<T>) => void) => Promise<void> {
  const started = new Map<string, number>();
  let seq = 0;
  return async (key, previous, fetch, put) => {
    const at = ++seq;
    started.set(key, at);
    put({ state: 'loading', ...(previous?.value ? { value: previous.value } : {}) });
    try {
      const value = await fetch();
      if (started.get(key) === at) put({ state: 'ok', value, at: now() });
    } catch (error) {
      if (started.get(key) === at) put({ state: 'error', message: describeError(error).message });
    }
  };
}
