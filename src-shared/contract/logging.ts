/** Server log messages (`notifications/message`), health (`ping` / `server/discover`) and the protocol trace. Zod-free. */

export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface LogEntry {
  /** Increasing per server; the UI asks for entries after the last one it has. */
  seq: number;
  time: number;
  server: string;
  level: LogLevel;
  logger?: string;
  data: unknown;
}

export interface LogsAppendedEvent {
  server: string;
  entries: LogEntry[];
}

export interface PingView {
  server: string;
  /** `ping` on legacy-era servers, `server/discover` on 2026-07-28 ones. */
  method: 'ping' | 'server/discover';
  ms: number;
}

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
  /** For remote servers: the HTTP status and `Mcp-*` headers of the exchange, when known. */
  http?: { status?: number; headers?: Record<string, string> };
}

export interface DebugBundleView {
  /** Where the bundle (JSON) was written. */
  path: string;
  bytes: number;
}
