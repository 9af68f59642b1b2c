import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** Told of each message a transport sends and receives (synchronously: keep it small). */
export interface TransportObserver {
  /** A message about to be sent, before `sent` is told: what it returns is sent instead (and told). */
  outgoing?(message: JSONRPCMessage): JSONRPCMessage;
  /** A message about to be sent. */
  sent?(message: JSONRPCMessage): void;
  /** A message received, before it is handed on. */
  received?(message: JSONRPCMessage): void;
}

/**
 * A decorator over an SDK transport: every message sent and received is told to `observer`, and otherwise it is the
 * transport it wraps. The callbacks set on it (`onmessage`, `onclose`, `onerror`) are the ones the inner transport
 * calls; handlers set on the inner transport before wrapping are kept (and observed). `sessionId`,
 * `hasPerRequestStream` and the protocol-version setters are the inner transport's. SDK 2.4.0 tells a stdio
 * transport from an HTTP one by its shape (`'stderr' in`, `'pid' in`), so those two exist here exactly when they do
 * on the inner transport. What only the concrete transport knows (its exit, `terminateSession()`, …) is read from
 * `inner`. An observer that throws never breaks the connection.
 */
export class ObservedTransport<T extends Transport = Transport> implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<M extends JSONRPCMessage>(message: M, extra?: MessageExtraInfo) => void) | undefined;
  /** The inner transport's, when it has one (defined in the constructor, see above). */
  declare readonly pid?: number | null | undefined;
  declare readonly stderr?: unknown;

  constructor(
    readonly inner: T,
    private readonly observer: TransportObserver,
  ) {
    this.onclose = inner.onclose;
    this.onerror = inner.onerror;
    this.onmessage = inner.onmessage;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      this.tell('received', message);
      this.onmessage?.(message, extra);
    };
    for (const name of ['pid', 'stderr'] as const) {
      if (name in inner) Object.defineProperty(this, name, { get: () => (inner as unknown as Record<string, unknown>)[name], enumerable: true });
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const outgoing = this.observer.outgoing;
    const sent = outgoing === undefined ? message : outgoing(message);
    this.tell('sent', sent);
    return this.inner.send(sent, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  private tell(what: 'sent' | 'received', message: JSONRPCMessage): void {
    try {
      this.observer[what]?.(message);
    } catch {
      // an observer must never break the connection
    }
  }
}
