import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which call a server's request (sampling, elicitation, roots) arose from, so its card can be shown on that call.
 * The supervisor runs each `tools:call` inside `runWithCallId`; the SDK client (McpClient) carries the id into the
 * 2026-07-28 `input_required` rounds of that call and counts the calls in flight for the legacy era, where a
 * server's request names no call: there it is attributed only when exactly one call of that server is running.
 */
const store = new AsyncLocalStorage<string>();

export function runWithCallId<T>(callId: string | undefined, run: () => T): T {
  return callId === undefined ? run() : store.run(callId, run);
}

/** The call id of the async context (a call's own work, its MRTR rounds), if any. */
export function currentCallId(): string | undefined {
  return store.getStore();
}
