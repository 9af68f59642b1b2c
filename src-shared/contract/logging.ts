/** Server log messages (`notifications/message`), as the UI and the CLI see them. Zod-free. */

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
  /** Sent by the server's app (MCP Apps `ui/log`) from the frame of this tool, not by the server itself. */
  fromApp?: { tool: string };
}

/** One line a stdio server wrote to stderr (or a `[switchboard]` note about it), with known secrets redacted. */
export interface StderrLine {
  /** Increasing per server, in its own sequence (not the log messages'). */
  seq: number;
  time: number;
  server: string;
  text: string;
}

export interface LogsAppendedEvent {
  server: string;
  entries: LogEntry[];
  /** The stderr lines since the last event (the Logs tab shows them among the log messages). */
  stderr?: StderrLine[];
}

export interface LoggingResults {
  /** Oldest first; the entries with `seq` > `after`. */
  'logs:list': LogEntry[];
  'logs:set-level': void;
  /** Oldest first: the server's kept stderr lines with `seq` > `after` (bounded; the newest kept). */
  'logs:stderr': StderrLine[];
}

export interface LoggingEvents {
  /** Batched: at most one per server per 100 ms. */
  'logs:appended': LogsAppendedEvent;
}

/** Each logging channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const loggingChannelNames = { 'logs:list': true, 'logs:set-level': true, 'logs:stderr': true } as const satisfies Record<keyof LoggingResults, true>;
export const loggingEventNames = { 'logs:appended': true } as const satisfies Record<keyof LoggingEvents, true>;
