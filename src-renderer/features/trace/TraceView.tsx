import { useMemo, useState } from 'react';
import { JsonTree } from '../../ui/JsonTree';
import type { TraceState } from '../../store/feature-types';
import { formatBytes, formatClock, formatMs, previewValue } from '../../ui/search';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { traceRows, type TraceKind, type TraceRow } from './trace-model';
import { useT } from '../../i18n';
import './trace.css';

type KindFilter = 'all' | 'requests' | 'notifications' | 'errors';
const kindMatches: Record<KindFilter, (k: TraceKind) => boolean> = {
  all: () => true,
  requests: (k) => k === 'request' || k === 'response' || k === 'error',
  notifications: (k) => k === 'notification',
  errors: (k) => k === 'error',
};
const rowFields = (r: TraceRow): Array<string | undefined> => [
  r.method,
  r.entry.traceId,
  r.id === undefined ? undefined : String(r.id),
  r.kind,
  previewValue(r.entry.message, 1000),
];
/** The first 8 hex digits: enough to tell a turn's messages from the next one's at a glance. */
const shortTrace = (id: string): string => id.slice(0, 8);
const arrow = (r: TraceRow): string => (r.entry.direction === 'send' ? '→' : '←');

export interface TraceViewProps {
  server: string;
  state: TraceState | undefined;
  onClear(): void;
  onReload(): void;
}

/**
 * The protocol trace: every JSON-RPC message in order, direction, size, and for request/response pairs the round
 * trip (a bar scaled to the slowest in view), and the W3C trace id a request carried (shared by every request of a
 * chat turn or direct call; "Same trace" shows only those). Secrets are redacted by the host before anything
 * reaches here.
 */
export function TraceView({ server, state, onClear, onReload }: TraceViewProps) {
  const [kind, setKind] = useState<KindFilter>('all');
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [trace, setTrace] = useState<string | undefined>(undefined);
  const t = useT();
  const entries = state?.entries;
  const rows = useMemo(() => traceRows(entries ?? []), [entries]);
  const shown = useMemo(() => rows.filter((r) => kindMatches[kind](r.kind) && (trace === undefined || r.entry.traceId === trace)), [rows, kind, trace]);
  const slowest = useMemo(() => shown.reduce((max, r) => Math.max(max, r.durationMs ?? 0), 1), [shown]);
  const start = rows[0]?.entry.time ?? 0;
  const open = selected === undefined ? undefined : rows.find((r) => r.entry.seq === selected);
  const pair = open?.pairSeq === undefined ? undefined : rows.find((r) => r.entry.seq === open.pairSeq);

  return (
    <div className="feature-stack">
      {state?.error && <ErrorNote testId="trace-error">{t('trace.loadFailed', { error: state.error })}</ErrorNote>}
      <VirtualList
        items={shown}
        getKey={(r) => String(r.entry.seq)}
        label={t('trace.label', { server })}
        searchLabel={t('trace.search')}
        searchFields={rowFields}
        noun={[t('logs.message'), t('logs.messages')]}
        selectedKey={selected === undefined ? undefined : String(selected)}
        onSelect={(r) => setSelected(r.entry.seq)}
        follow
        testId="trace-list"
        itemTestId="trace-entry"
        estimateSize={28}
        className="vlist-dense"
        empty={state === undefined || state.loading ? t('common.loading') : t('trace.empty')}
        toolbar={
          <>
            <select aria-label={t('trace.which')} data-testid="trace-filter" value={kind} onChange={(e) => setKind(e.target.value as KindFilter)}>
              <option value="all">{t('trace.all')}</option>
              <option value="requests">{t('trace.requests')}</option>
              <option value="notifications">{t('trace.notifications')}</option>
              <option value="errors">{t('trace.errors')}</option>
            </select>
            {trace !== undefined && (
              <button
                type="button"
                className="btn btn-small trace-filter-chip"
                data-testid="trace-trace-filter"
                title={t('trace.clearTraceFilter')}
                aria-label={t('trace.clearTraceFilter')}
                onClick={() => setTrace(undefined)}
              >
                <span className="mono">{t('trace.traceFilter', { id: shortTrace(trace) })}</span> ✕
              </button>
            )}
            <ReloadButton label={t('trace.reload')} title={t('logs.reloadTitle')} onClick={onReload} />
            <button type="button" className="btn btn-small" data-testid="trace-clear" onClick={onClear}>
              {t('trace.clear')}
            </button>
          </>
        }
        renderItem={(r) => (
          <div className={`trace-row trace-${r.kind}`} data-direction={r.entry.direction} data-kind={r.kind}>
            <span className="trace-time mono" title={formatClock(r.entry.time)}>
              +{((r.entry.time - start) / 1000).toFixed(3)}s
            </span>
            <span
              className={`trace-dir dir-${r.entry.direction}`}
              aria-label={r.entry.direction === 'send' ? t('trace.sent') : t('trace.received')}
              title={r.entry.direction === 'send' ? t('trace.sentTitle') : t('trace.receivedTitle')}
            >
              {arrow(r)}
            </span>
            <span className="trace-method mono">
              {r.kind === 'response' || r.kind === 'error' ? <span className="muted">{r.kind === 'error' ? t('trace.errorPrefix') : '↳ '}</span> : null}
              {r.method ?? (r.kind === 'other' ? t('trace.message') : t('trace.response'))}
            </span>
            {r.id !== undefined && <span className="trace-id muted mono">#{String(r.id)}</span>}
            {r.entry.traceId !== undefined && (
              <span className="trace-traceid muted mono" data-testid="trace-traceid" title={t('trace.traceIdTitle', { id: r.entry.traceId })}>
                {shortTrace(r.entry.traceId)}
              </span>
            )}
            <span className="trace-size muted">{formatBytes(r.entry.size)}</span>
            <span className="trace-duration">
              {r.durationMs !== undefined ? (
                <>
                  <span
                    className="trace-bar"
                    style={{ width: `${Math.max(2, Math.round((Math.log1p(r.durationMs) / Math.log1p(slowest)) * 48))}px` }}
                    aria-hidden="true"
                  />
                  <span className="mono">{formatMs(r.durationMs)}</span>
                </>
              ) : r.pending ? (
                <span className="muted">{t('trace.pending')}</span>
              ) : null}
            </span>
          </div>
        )}
      />
      {open && (
        <section className="trace-detail" aria-label={t('trace.detail')} data-testid="trace-detail">
          <header className="detail-head">
            <div className="detail-title">
              <strong>
                {arrow(open)} {open.method ?? open.kind}
              </strong>
              <span className="muted">
                {open.entry.direction === 'send'
                  ? t('trace.sentAt', { time: formatClock(open.entry.time) })
                  : t('trace.receivedAt', { time: formatClock(open.entry.time) })}{' '}
                · {formatBytes(open.entry.size)}
                {open.durationMs !== undefined && t('trace.roundTrip', { time: formatMs(open.durationMs) })}
                {open.entry.http?.status !== undefined && ` · HTTP ${open.entry.http.status}`}
              </span>
            </div>
            <div className="detail-actions">
              {pair && (
                <button type="button" className="btn btn-small" data-testid="trace-goto-pair" onClick={() => setSelected(pair.entry.seq)}>
                  {pair.kind === 'request' ? t('trace.showRequest') : t('trace.showResponse')}
                </button>
              )}
              <button type="button" className="btn btn-small btn-ghost" aria-label={t('logs.closeMessage')} onClick={() => setSelected(undefined)}>
                ✕
              </button>
            </div>
          </header>
          {open.entry.traceId !== undefined && (
            <dl className="trace-headers" data-testid="trace-detail-traceid">
              <div>
                <dt>{t('trace.traceId')}</dt>
                <dd className="mono">
                  {open.entry.traceId}{' '}
                  <button
                    type="button"
                    className="btn btn-small"
                    data-testid="trace-same-trace"
                    title={t('trace.sameTraceTitle')}
                    onClick={() => setTrace(open.entry.traceId)}
                  >
                    {t('trace.sameTrace')}
                  </button>
                </dd>
              </div>
            </dl>
          )}
          {open.entry.http?.headers && Object.keys(open.entry.http.headers).length > 0 && (
            <dl className="trace-headers">
              {Object.entries(open.entry.http.headers).map(([k, v]) => (
                <div key={k}>
                  <dt className="mono">{k}</dt>
                  <dd className="mono">{v}</dd>
                </div>
              ))}
            </dl>
          )}
          <JsonTree value={open.entry.message} openDepth={5} />
        </section>
      )}
    </div>
  );
}
