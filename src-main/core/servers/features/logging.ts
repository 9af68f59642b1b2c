import type { Client } from '@modelcontextprotocol/client';
import { logLevels, type LogEntry, type LogLevel, type StderrLine } from '../../../../src-shared/host-api';
import { CoreError, messageOf } from '../../errors';
import { McpClient } from '../mcp-client';
import type { ConnectedInfo, FeatureContext, SessionFeature } from './feature';

/** How many log entries a server keeps (the oldest go first). */
export const logRingCapacity = 5000;
/** How many stderr lines a server keeps for the Logs tab (the sidebar shows the last few of them). */
export const stderrRingCapacity = 2000;
/** `logs:appended` is sent at most this often per server (a burst is one event). */
export const logsAppendedIntervalMs = 100;
/** A message's data longer than this (as JSON text) is kept cut, as text. */
const maxDataChars = 64 * 1024;

/** Whether `level` is at least as severe as `floor`. */
export function atLeast(level: LogLevel, floor: LogLevel): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(floor);
}

/**
 * Server log messages (`notifications/message`): kept in a bounded ring per server (seq increasing), announced as
 * `logs:appended` (batched), and written to the server's rotating log file as `[log LEVEL logger] data`. The level
 * asked for: legacy servers get `logging/setLevel` on every connect; on 2026-07-28 (no setLevel there) it travels in
 * every request's `_meta` (see McpClient). Asked of every server, whether it declares `logging` or not: servers
 * that log without declaring it (Python `mcp`'s `ctx.info()`) send their messages only when asked, and a refusal
 * from one that declares nothing is only noted in its log file. Lives as long as the server's supervisor, so a
 * crash's messages survive the restart.
 */
export class LoggingFeature implements SessionFeature {
  readonly name = 'logging' as const;
  private readonly entries: LogEntry[] = [];
  private seq = 0;
  private current: LogLevel;
  /** Whether the connected server offers `logging`; undefined while not connected. */
  private offered: boolean | undefined;
  private era: 'modern' | 'legacy' | undefined;
  private pending: LogEntry[] = [];
  private readonly stderrLines: StderrLine[] = [];
  private stderrSeq = 0;
  private pendingStderr: StderrLine[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastEmit = 0;
  private disposed = false;

  constructor(private readonly context: FeatureContext) {
    this.current = context.logLevel;
  }

  attach(client: Client): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      this.append(level, logger, data);
    });
  }

  async connected(info: ConnectedInfo): Promise<void> {
    this.era = info.era;
    this.offered = info.capabilities?.logging !== undefined;
    if (info.era === 'modern') {
      if (info.client instanceof McpClient) info.client.logLevel = this.current;
      this.context.changed('logging');
      return;
    }
    try {
      await info.client.setLoggingLevel(this.current, { timeout: this.context.requestTimeoutMs() });
    } catch (error) {
      const line = `[switchboard] logging/setLevel ${this.current} failed: ${messageOf(error)}`;
      // Asked of a server that declares no logging: its refusal is expected, not news for the stderr tail.
      if (this.offered) this.context.note(line);
      else this.context.log(line);
    }
    this.context.changed('logging');
  }

  disconnected(): void {
    this.offered = undefined;
    this.era = undefined;
  }

  /** Entries oldest first: with `after`, the first `limit` newer than it; without, the newest `limit`. */
  list(after?: number, limit?: number): LogEntry[] {
    return page(this.entries, after, limit);
  }

  /** The kept stderr lines, paged like {@link list}. */
  listStderr(after?: number, limit?: number): StderrLine[] {
    return page(this.stderrLines, after, limit);
  }

  /**
   * A line the server wrote to stderr (already redacted by the supervisor), kept beside the log messages so that the
   * Logs tab shows both in time order; announced in the same batched `logs:appended`.
   */
  stderr(text: string): void {
    if (this.disposed) return;
    const line: StderrLine = { seq: ++this.stderrSeq, time: Date.now(), server: this.context.server, text };
    this.stderrLines.push(line);
    if (this.stderrLines.length > stderrRingCapacity) this.stderrLines.splice(0, this.stderrLines.length - stderrRingCapacity);
    this.pendingStderr.push(line);
    this.schedule();
  }

  /**
   * Changes the level asked for: at once (`logging/setLevel` on a legacy server; the next requests' `_meta` on a
   * 2026-07-28 one) and on every later connect. A refusal is an error only from a server that declares `logging`.
   */
  async setLevel(level: LogLevel): Promise<void> {
    const client = this.context.client();
    const { server } = this.context;
    if (client && this.era === 'legacy') {
      try {
        await client.setLoggingLevel(level, { timeout: this.context.requestTimeoutMs() });
      } catch (error) {
        if (this.offered === false) this.context.log(`[switchboard] logging/setLevel ${level} failed: ${messageOf(error)}`);
        else
          throw new CoreError('tool-call-failed', `Server "${server}" refused logging/setLevel ${level}: ${messageOf(error)}`, {
            cause: error,
            data: { server, level },
          });
      }
    }
    if (client instanceof McpClient && this.era === 'modern') client.logLevel = level;
    this.current = level;
    this.context.changed('logging');
  }

  /** For ServerView.logLevel: the level asked for (of every server, whether it declares logging or not). */
  level(): LogLevel | undefined {
    return this.current;
  }

  /** A line the server's app sent (`ui/log`): kept among the server's messages, marked as the app's (and its tool's). */
  appendFromApp(level: LogLevel, logger: string | undefined, raw: unknown, tool: string): void {
    this.append(level, logger, raw, tool);
  }

  private append(level: LogLevel, logger: string | undefined, raw: unknown, appTool?: string): void {
    if (this.disposed) return;
    const text = typeof raw === 'string' ? raw : safeJson(raw);
    const data = text.length > maxDataChars ? `${text.slice(0, maxDataChars)}… (${text.length - maxDataChars} more characters cut)` : raw;
    const entry: LogEntry = {
      seq: ++this.seq,
      time: Date.now(),
      server: this.context.server,
      level,
      ...(logger !== undefined ? { logger } : {}),
      data,
      ...(appTool !== undefined ? { fromApp: { tool: appTool } } : {}),
    };
    this.entries.push(entry);
    if (this.entries.length > logRingCapacity) this.entries.splice(0, this.entries.length - logRingCapacity);
    const shown = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
    this.context.log(`[${appTool !== undefined ? `app ${appTool} ` : ''}log ${level}${logger !== undefined ? ` ${logger}` : ''}] ${shown.replace(/\r?\n/g, '\\n')}`);
    this.pending.push(entry);
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.emitPending(), Math.max(0, this.lastEmit + logsAppendedIntervalMs - Date.now()));
  }

  /** The batch: every entry since the last `logs:appended` (they are in the ring already; a read does not wait). */
  private emitPending(): void {
    this.timer = undefined;
    const entries = this.pending;
    const stderr = this.pendingStderr;
    this.pending = [];
    this.pendingStderr = [];
    if ((entries.length === 0 && stderr.length === 0) || this.disposed) return;
    this.lastEmit = Date.now();
    this.context.emit('logs:appended', { server: this.context.server, entries, ...(stderr.length > 0 ? { stderr } : {}) });
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.pendingStderr = [];
  }
}

/** Oldest first: with `after`, the first `limit` newer than it; without, the newest `limit`. */
function page<T extends { seq: number }>(items: readonly T[], after: number | undefined, limit: number | undefined): T[] {
  let from = 0;
  if (after !== undefined) {
    from = items.findIndex((e) => e.seq > after);
    if (from === -1) return [];
  }
  let to = items.length;
  if (limit !== undefined) {
    if (after !== undefined) to = Math.min(to, from + limit);
    else from = Math.max(from, to - limit);
  }
  return items.slice(from, to);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
