/** The protocol trace (every JSON-RPC message of a server, secrets redacted) and debug bundles. Zod-free. */

/** One JSON-RPC message as recorded by the trace (secrets redacted). */
export interface TraceEntry {
  seq: number;
  time: number;
  server: string;
  direction: 'send' | 'receive';
  /** Serialized size in bytes. */
  size: number;
  /** The JSON-RPC message, redacted. */
  message: unknown;
  /** For a response: the seq of its request and the round trip in ms. */
  pairedWith?: number;
  durationMs?: number;
  /**
   * The W3C trace id (32 hex digits) of a request the host sent (its `_meta.traceparent`), of that request's response
   * and of its cancellation: every request of one chat turn or one direct call shares it.
   */
  traceId?: string;
  /** For remote servers: the HTTP status and `Mcp-*` headers of the exchange, when known. */
  http?: { status?: number; headers?: Record<string, string> };
}

export interface DebugBundleView {
  /** Where the bundle (JSON) was written. */
  path: string;
  bytes: number;
}

export interface TraceAppendedEvent {
  server: string;
  lastSeq: number;
}

export interface TraceResults {
  'trace:list': TraceEntry[];
  'trace:clear': void;
  /** A JSON file written under `<dataDir>/debug/`. */
  'debug:bundle': DebugBundleView;
}

export interface TraceEvents {
  /** Coalesced: at most one per server per 200 ms. */
  'trace:appended': TraceAppendedEvent;
}

/** Each trace channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const traceChannelNames = { 'trace:list': true, 'trace:clear': true, 'debug:bundle': true } as const satisfies Record<keyof TraceResults, true>;
export const traceEventNames = { 'trace:appended': true } as const satisfies Record<keyof TraceEvents, true>;
