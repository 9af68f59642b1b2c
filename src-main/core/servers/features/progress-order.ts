import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

type OnMessage = (message: JSONRPCMessage, extra?: unknown) => void;

const installed = new WeakMap<Transport, OnMessage>();

/**
 * Progress before its result. SDK 2.4.0 dispatches a notification in a microtask but handles a response at once,
 * dropping the request's progress handler: when a server's last `notifications/progress` and its result arrive in
 * one read (common: the last step is sent right before the result), that progress is lost (and reported as
 * "unknown token"). Here a response whose request had progress in the same turn of the event loop is handed on
 * one macrotask later, after the progress handlers ran. Other messages pass straight through, so calls without
 * progress pay nothing. Installed on the client's transport after connect (the SDK sets its handler in connect);
 * idempotent.
 */
export function deliverProgressFirst(client: Client): void {
  const transport = client.transport;
  const inner = transport?.onmessage as OnMessage | undefined;
  if (!transport || !inner || installed.get(transport) === inner) return;
  /** Progress tokens seen in this turn of the event loop (the SDK's tokens are its request ids). */
  const tokens = new Set<string>();
  let clearing = false;
  const ordered: OnMessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress') {
      const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
      if (typeof token === 'string' || typeof token === 'number') {
        tokens.add(String(token));
        if (!clearing) {
          clearing = true;
          setImmediate(() => {
            tokens.clear();
            clearing = false;
          });
        }
      }
    } else if (tokens.size > 0 && !('method' in message) && 'id' in message && tokens.has(String(message.id))) {
      setImmediate(() => inner.call(transport, message, extra));
      return;
    }
    inner.call(transport, message, extra);
  };
  transport.onmessage = ordered as Transport['onmessage'];
  installed.set(transport, ordered);
}
