import { useMemo, useState } from 'react';
import { logLevels, type LogEntry, type LogLevel, type StderrLine } from '../../../src-shared/host-api';
import { JsonTree } from '../../ui/JsonTree';
import type { LogsState } from '../../store/feature-types';
import { formatClock, previewValue } from '../../ui/search';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { formatWhen, useT } from '../../i18n';
import './logs.css';

const rank = (level: LogLevel): number => logLevels.indexOf(level);

/** One row of the Logs tab: an MCP log message or a stderr line. */
export type LogRow = { kind: 'log'; key: string; time: number; entry: LogEntry } | { kind: 'stderr'; key: string; time: number; line: StderrLine };
export type LogSourceFilter = 'all' | 'log' | 'stderr';

const rowFields = (r: LogRow): Array<string | undefined> =>
  r.kind === 'log' ? [r.entry.level, r.entry.logger, previewValue(r.entry.data, 2000)] : ['stderr', r.line.text];

/**
 * The log messages and the stderr lines as one list in time order (each list is in order already: a merge, stable,
 * a log message first on a tie), then filtered by source and, for log messages, by level.
 */
export function logRows(entries: readonly LogEntry[], stderr: readonly StderrLine[], source: LogSourceFilter, minLevel: LogLevel): LogRow[] {
  const logs: LogRow[] =
    source === 'stderr'
      ? []
      : entries.filter((e) => rank(e.level) >= rank(minLevel)).map((entry) => ({ kind: 'log', key: `m${entry.seq}`, time: entry.time, entry }));
  const lines: LogRow[] = source === 'log' ? [] : stderr.map((line) => ({ kind: 'stderr', key: `e${line.seq}`, time: line.time, line }));
  const out: LogRow[] = [];
  let i = 0;
  let j = 0;
  while (i < logs.length || j < lines.length) {
    const a = logs[i];
    const b = lines[j];
    if (a && (!b || a.time <= b.time)) {
      out.push(a);
      i++;
    } else if (b) {
      out.push(b);
      j++;
    }
  }
  return out;
}

export interface LogsViewProps {
  server: string;
  state: LogsState | undefined;
  /** The level the server was asked for (legacy servers with `logging`). */
  serverLevel: LogLevel | undefined;
  canSetLevel: boolean;
  levelError: string | undefined;
  onSetLevel(level: LogLevel): void;
  onReload(): void;
}

/**
 * The server's log messages (`notifications/message`: level, logger, data) and the lines it wrote to stderr, in time
 * order with their source marked; filtered by source and level, and searched.
 */
export function LogsView({ server, state, serverLevel, canSetLevel, levelError, onSetLevel, onReload }: LogsViewProps) {
  const [minLevel, setMinLevel] = useState<LogLevel>('debug');
  const [source, setSource] = useState<LogSourceFilter>('all');
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const t = useT();
  const entries = state?.entries;
  const stderr = state?.stderr;
  const shown = useMemo(() => logRows(entries ?? [], stderr ?? [], source, minLevel), [entries, stderr, source, minLevel]);
  const open = selected === undefined ? undefined : shown.find((r) => r.key === selected);
  const anything = (entries?.length ?? 0) + (stderr?.length ?? 0) > 0;

  return (
    <div className="feature-stack">
      {state?.error && <ErrorNote testId="logs-error">{t('logs.loadFailed', { error: state.error })}</ErrorNote>}
      {levelError && <ErrorNote testId="log-level-error">{levelError}</ErrorNote>}
      <VirtualList
        items={shown}
        getKey={(r) => r.key}
        label={t('logs.label', { server })}
        searchLabel={t('logs.search')}
        searchFields={rowFields}
        noun={[t('logs.line'), t('logs.lines')]}
        selectedKey={selected}
        onSelect={(r) => setSelected(r.key === selected ? undefined : r.key)}
        follow
        testId="log-list"
        itemTestId="log-entry"
        estimateSize={28}
        className="vlist-dense"
        empty={state === undefined || state.loading ? t('common.loading') : anything ? t('logs.emptyFiltered') : t('logs.empty')}
        toolbar={
          <>
            <label className="inline-select">
              <span className="muted">{t('logs.source')}</span>
              <select
                aria-label={t('logs.sourceLabel')}
                data-testid="log-filter-source"
                value={source}
                onChange={(e) => setSource(e.target.value as LogSourceFilter)}
              >
                <option value="all">{t('logs.allSources')}</option>
                <option value="log">{t('logs.mcpOnly')}</option>
                <option value="stderr">{t('logs.stderrOnly')}</option>
              </select>
            </label>
            <label className="inline-select">
              <span className="muted">{t('logs.show')}</span>
              <select aria-label={t('logs.minLevel')} data-testid="log-filter-level" value={minLevel} onChange={(e) => setMinLevel(e.target.value as LogLevel)}>
                {logLevels.map((l) => (
                  <option key={l} value={l}>
                    {l === 'debug' ? t('logs.allLevels') : t('logs.andUp', { level: l })}
                  </option>
                ))}
              </select>
            </label>
            {canSetLevel && (
              <label className="inline-select" title={t('logs.serverSendsTitle')}>
                <span className="muted">{t('logs.serverSends')}</span>
                <select
                  aria-label={t('logs.serverLevel')}
                  data-testid="log-set-level"
                  value={serverLevel ?? 'info'}
                  onChange={(e) => onSetLevel(e.target.value as LogLevel)}
                >
                  {logLevels.map((l) => (
                    <option key={l} value={l}>
                      {l}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ReloadButton label={t('logs.reload')} title={t('logs.reloadTitle')} onClick={onReload} />
          </>
        }
        renderItem={(r) =>
          r.kind === 'log' ? (
            <div className="log-row" data-source="log" data-level={r.entry.level}>
              <time className="log-time mono" dateTime={new Date(r.time).toISOString()}>
                {formatClock(r.time)}
              </time>
              <span className={`log-level level-${r.entry.level}`} title={t('logs.mcpTitle')}>
                {r.entry.level}
              </span>
              {r.entry.logger && <span className="log-logger mono">{r.entry.logger}</span>}
              <span className="log-data mono">{previewValue(r.entry.data)}</span>
            </div>
          ) : (
            <div className="log-row" data-source="stderr">
              <time className="log-time mono" dateTime={new Date(r.time).toISOString()}>
                {formatClock(r.time)}
              </time>
              <span className="log-level log-source-stderr" title={t('logs.stderrTitle')}>
                {t('logs.stderr')}
              </span>
              <span className="log-data mono">{r.line.text}</span>
            </div>
          )
        }
      />
      {open && (
        <section className="log-detail" aria-label={t('logs.detail')} data-testid="log-detail">
          <header className="detail-head">
            <div className="detail-title">
              {open.kind === 'log' ? (
                <>
                  <span className={`log-level level-${open.entry.level}`}>{open.entry.level}</span>
                  {open.entry.logger && <code>{open.entry.logger}</code>}
                </>
              ) : (
                <span className="log-level log-source-stderr">{t('logs.stderr')}</span>
              )}
              <span className="muted">{formatWhen(open.time)}</span>
            </div>
            <button type="button" className="btn btn-small btn-ghost" aria-label={t('logs.closeMessage')} onClick={() => setSelected(undefined)}>
              ✕
            </button>
          </header>
          {open.kind === 'stderr' ? (
            <pre className="block-text">{open.line.text}</pre>
          ) : typeof open.entry.data === 'string' ? (
            <pre className="block-text">{open.entry.data}</pre>
          ) : (
            <JsonTree value={open.entry.data} openDepth={2} />
          )}
        </section>
      )}
    </div>
  );
}
