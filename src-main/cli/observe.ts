import type { CallProgressEvent, LogEntry, LogLevel } from '../../src-shared/host-api';
import type { Host } from '../core/host';
import { readHostDotenv } from '../core/secrets/host-dotenv';
import { atLeast } from '../core/servers/features/logging';
import type { SecretStore } from '../core/secrets/store';
import { followSecretValues } from '../core/services/trace';
import { createRedactor, JsonlTraceWriter } from '../core/trace/index';
import { dataText, err } from './output';

/*
 * What the CLI shows besides a command's result, for every command that connects: `--log-level LEVEL` (server log
 * messages at or above it on stderr), `--trace FILE` (every JSON-RPC message as JSON Lines) and `call --progress`.
 */

/** `[server] level logger: data` — one line per message (newlines in the data shown as \n). */
export function logLine(entry: LogEntry): string {
  return `[${entry.server}] ${entry.level}${entry.logger !== undefined ? ` ${entry.logger}` : ''}: ${dataText(entry.data).replace(/\r?\n/g, '\\n')}`;
}

/**
 * Prints server log messages at or above `level` on stderr as they arrive. `drain()` prints what arrived but was not
 * announced yet (`logs:appended` is batched), so that nothing logged before a command's answer is lost at exit.
 */
export function printLogs(host: Host, level: LogLevel): { drain(): Promise<void>; dispose(): void } {
  const last = new Map<string, number>();
  const print = (entries: LogEntry[]): void => {
    for (const entry of entries) {
      if (entry.seq <= (last.get(entry.server) ?? 0)) continue;
      last.set(entry.server, entry.seq);
      if (atLeast(entry.level, level)) err(logLine(entry));
    }
  };
  const off = host.api.on('logs:appended', (event) => print(event.entries));
  return {
    async drain() {
      for (const view of await host.api['servers:list']()) {
        const after = last.get(view.name);
        print(await host.api['logs:list']({ server: view.name, ...(after !== undefined ? { after } : {}) }));
      }
    },
    dispose: off,
  };
}

/**
 * The `--trace FILE` sink, redacting what the trace ring redacts: the secret store's values and the host's `.env`
 * values (so the store is made here and handed to the host). Throws when FILE cannot be opened.
 */
export function traceSink(file: string, dataDir: string, secrets: SecretStore): JsonlTraceWriter {
  // The host's .env is read once, as the host reads it; the store's values again when it has changed (this process's
  // writes, or another's it has read: see followSecretValues).
  const followed = followSecretValues(secrets, () => readHostDotenv(dataDir, process.cwd()));
  return new JsonlTraceWriter(file, { redactor: createRedactor({ secretValues: () => followed.values() }) });
}

/** `progress 2/4 message` (total and message when known), and a task's state as `task ID status message`. */
export function progressLines(event: CallProgressEvent): string[] {
  const lines: string[] = [];
  if (event.task) lines.push(`task ${event.task.taskId} ${event.task.status}${event.task.statusMessage ? ` ${event.task.statusMessage}` : ''}`);
  if (event.progress !== undefined)
    lines.push(`progress ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}${event.message ? ` ${event.message}` : ''}`);
  return lines;
}
