import type { Client } from '@modelcontextprotocol/client';
import type { OpenedTransport } from './transports';

/**
 * What a connect path (connect-stdio.ts, connect-remote.ts) is lent by its session. Each attempt — a transport and
 * the SDK client over it — is handed to the session as soon as it exists, so that a stop or quit during the connect
 * closes it (and with it a stdio child's tree); a path that tries again closes the attempt first.
 */
export interface AttemptSlot {
  /** A new SDK client for one attempt, the feature modules attached. */
  newClient(timeout: number): Client;
  /** Makes this the session's current attempt. */
  hold(opened: OpenedTransport, client: Client): void;
  /** Whether `opened` is still the current attempt's. */
  holds(opened: OpenedTransport): boolean;
  /** Closes the current attempt's client and transport; the session stays usable for another. */
  closeCurrent(): Promise<void>;
  /** The session is closing: give up. */
  isClosing(): boolean;
  /** The current attempt's client. */
  currentClient(): Client | undefined;
}
