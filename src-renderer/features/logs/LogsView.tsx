import { useMemo, useState } from 'react';
import { logLevels, type LogEntry, type LogLevel } from '../../../src-shared/host-api';
import { JsonTree } from '../../ui/JsonTree';
import type { LogsState } from '../../store/feature-types';
import { formatClock, previewValue } from '../../ui/search';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { formatWhen, useT } from '../../i18n';
import './logs.css';

const rank = (level: LogLevel): number => logLevels.indexOf(level);
const logFields = (e: LogEntry): Array<string | undefined> => [e.level, e.logger, previewValue(e.data, 2000)];

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

/** The server's log messages (`notifications/message`): level, logger, data; filtered by level and searched. */
export function LogsView({ server, state, serverLevel, canSetLevel, levelError, onSetLevel, onReload }: LogsViewProps) {
  const [minLevel, setMinLevel] = useState<LogLevel>('debug');
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const t = useT();
  const entries = state?.entries;
  const shown = useMemo(() => (entries ?? []).filter((e) => rank(e.level) >= rank(minLevel)), [entries, minLevel]);
  const open = selected === undefined ? undefined : shown.find((e) => e.seq === selected);

  return (
    <div className="feature-stack">
      {state?.error && <ErrorNote testId="logs-error">{t('logs.loadFailed', { error: state.error })}</ErrorNote>}
      {levelError && <ErrorNote testId="log-level-error">{levelError}</ErrorNote>}
      <VirtualList
        items={shown}
        getKey={(e) => String(e.seq)}
        label={t('logs.label', { server })}
        searchLabel={t('logs.search')}
        searchFields={logFields}
        noun={[t('logs.message'), t('logs.messages')]}
        selectedKey={selected === undefined ? undefined : String(selected)}
        onSelect={(e) => setSelected(e.seq === selected ? undefined : e.seq)}
        follow
        testId="log-list"
        itemTestId="log-entry"
        estimateSize={28}
        className="vlist-dense"
        empty={state === undefined || state.loading ? t('common.loading') : t('logs.empty')}
        toolbar={
          <>
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
        renderItem={(e) => (
          <div className="log-row" data-level={e.level}>
            <time className="log-time mono" dateTime={new Date(e.time).toISOString()}>
              {formatClock(e.time)}
            </time>
            <span className={`log-level level-${e.level}`}>{e.level}</span>
            {e.logger && <span className="log-logger mono">{e.logger}</span>}
            <span className="log-data mono">{previewValue(e.data)}</span>
          </div>
        )}
      />
      {open && (
        <section className="log-detail" aria-label={t('logs.detail')} data-testid="log-detail">
          <header className="detail-head">
            <div className="detail-title">
              <span className={`log-level level-${open.level}`}>{open.level}</span>
              {open.logger && <code>{open.logger}</code>}
              <span className="muted">{formatWhen(open.time)}</span>
            </div>
            <button type="button" className="btn btn-small btn-ghost" aria-label={t('logs.closeMessage')} onClick={() => setSelected(undefined)}>
              ✕
            </button>
          </header>
          {typeof open.data === 'string' ? <pre className="block-text">{open.data}</pre> : <JsonTree value={open.data} openDepth={2} />}
        </section>
      )}
    </div>
  );
}
