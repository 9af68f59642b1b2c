import type { HostApi, LogEntry, LogsAppendedEvent, StderrLine, TraceAppendedEvent, TraceEntry } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { LogsState, TraceState } from './feature-types';
import type { SliceCreator } from './types';

/** How many entries a view keeps per server (the host keeps its own ring; the oldest fall off here). */
export const MAX_LOG_ENTRIES = 5000;
export const MAX_TRACE_ENTRIES = 5000;

/** Appends entries newer than the last one held, keeping at most `max`. */
export function appendNewer<T extends { seq: number }>(held: readonly T[], incoming: readonly T[], max: number): T[] {
  const last = held[held.length - 1]?.seq ?? -1;
  const fresh = incoming.filter((e) => e.seq > last);
  if (fresh.length === 0) return held as T[];
  fresh.sort((a, b) => a.seq - b.seq);
  const all = held.concat(fresh);
  return all.length > max ? all.slice(all.length - max) : all;
}

/**
 * A server's log messages (`notifications/message`) with its stderr lines, and its protocol trace, as views that load when their tab first
 * opens and then follow the host's `logs:appended` / `trace:appended` events.
 */
export interface LogsSlice {
  logs: Record<string, LogsState>;
  trace: Record<string, TraceState>;
  loadLogs(server: string): Promise<void>;
  applyLogsAppended(event: LogsAppendedEvent): void;
  loadTrace(server: string): Promise<void>;
  /** Fetches the trace entries after the last one held (coalesced: one fetch in flight per server). */
  applyTraceAppended(event: TraceAppendedEvent): void;
  clearTrace(server: string): Promise<void>;
}

export const createLogsSlice =
  (api: HostApi): SliceCreator<LogsSlice> =>
  (set, get) => {
    const traceFetching = new Set<string>();
    const traceAgain = new Set<string>();
    const setLogs = (server: string, patch: Partial<LogsState>): void =>
      set((s) => ({ logs: { ...s.logs, [server]: { entries: [], stderr: [], loaded: false, loading: false, ...s.logs[server], ...patch } } }));
    const setTrace = (server: string, patch: Partial<TraceState>): void =>
      set((s) => ({ trace: { ...s.trace, [server]: { entries: [], loaded: false, loading: false, ...s.trace[server], ...patch } } }));

    const fetchTrace = async (server: string): Promise<void> => {
      if (traceFetching.has(server)) {
        traceAgain.add(server);
        return;
      }
      traceFetching.add(server);
      try {
        do {
          traceAgain.delete(server);
          const held = get().trace[server]?.entries ?? [];
          const after = held[held.length - 1]?.seq;
          const page: TraceEntry[] = await api['trace:list']({ server, ...(after !== undefined ? { after } : {}), limit: MAX_TRACE_ENTRIES });
          setTrace(server, {
            entries: appendNewer(get().trace[server]?.entries ?? [], page, MAX_TRACE_ENTRIES),
            loaded: true,
            loading: false,
            error: undefined,
          });
        } while (traceAgain.has(server));
      } catch (error) {
        setTrace(server, { loading: false, error: describeError(error).message });
      } finally {
        traceFetching.delete(server);
      }
    };

    return {
      logs: {},
      trace: {},

      async loadLogs(server) {
        setLogs(server, { loading: true });
        try {
          const held = get().logs[server];
          const after = held?.entries[held.entries.length - 1]?.seq;
          const afterLine = held?.stderr[held.stderr.length - 1]?.seq;
          const [page, lines]: [LogEntry[], StderrLine[]] = await Promise.all([
            api['logs:list']({ server, ...(after !== undefined ? { after } : {}), limit: MAX_LOG_ENTRIES }),
            api['logs:stderr']({ server, ...(afterLine !== undefined ? { after: afterLine } : {}), limit: MAX_LOG_ENTRIES }),
          ]);
          const now = get().logs[server];
          setLogs(server, {
            entries: appendNewer(now?.entries ?? [], page, MAX_LOG_ENTRIES),
            // A host without stderr in its logs answers nothing here.
            stderr: Array.isArray(lines) ? appendNewer(now?.stderr ?? [], lines, MAX_LOG_ENTRIES) : (now?.stderr ?? []),
            loaded: true,
            loading: false,
            error: undefined,
          });
        } catch (error) {
          setLogs(server, { loading: false, error: describeError(error).message });
        }
      },

      applyLogsAppended({ server, entries, stderr }) {
        const held = get().logs[server];
        // Not on screen yet: the first load gets them all.
        if (held?.loaded !== true || !Array.isArray(entries)) return;
        const next = appendNewer(held.entries, entries, MAX_LOG_ENTRIES);
        const lines = Array.isArray(stderr) ? appendNewer(held.stderr, stderr, MAX_LOG_ENTRIES) : held.stderr;
        if (next !== held.entries || lines !== held.stderr) setLogs(server, { entries: next, stderr: lines });
      },

      async loadTrace(server) {
        setTrace(server, { loading: true });
        await fetchTrace(server);
      },

      applyTraceAppended({ server, lastSeq }) {
        const held = get().trace[server];
        if (held?.loaded !== true) return;
        const last = held.entries[held.entries.length - 1]?.seq ?? -1;
        if (lastSeq > last) void fetchTrace(server);
      },

      async clearTrace(server) {
        try {
          await api['trace:clear'](server);
          setTrace(server, { entries: [], error: undefined });
        } catch (error) {
          setTrace(server, { error: describeError(error).message });
        }
      },
    };
  };
