import { useState } from 'react';
import { useApp } from '../../store/useApp';
import { useNow } from '../../ui/useNow';
import { useT } from '../../i18n';
import './call-progress.css';

/**
 * A running call's progress (`calls:progress` by callId): a bar (exact when the server gives a total), its
 * message, the task status for a task-augmented call, and a timer since `startedAt` (epoch ms; else since shown).
 */
export function CallProgress({ callId, startedAt, idle }: { callId: string; startedAt?: number | undefined; idle?: string | undefined }) {
  const progress = useApp((s) => s.progress[callId]);
  const t = useT();
  const [shownAt] = useState(() => Date.now());
  const now = useNow(true, 250);
  const elapsed = Math.max(0, now - (startedAt ?? progress?.firstAt ?? shownAt));
  const value = progress?.progress;
  const total = progress?.total;
  const determinate = value !== undefined && total !== undefined && total > 0;
  const percent = determinate ? Math.min(100, Math.max(0, (value / total) * 100)) : undefined;
  const task = progress?.task;
  if (progress === undefined && idle !== undefined) {
    return (
      <div className="progress-line progress-idle">
        <span>{idle}</span>
        <span className="progress-timer mono muted" data-testid="call-timer" aria-label={t('call.elapsed')}>
          {formatElapsed(elapsed)}
        </span>
      </div>
    );
  }
  return (
    <div className="call-progress" data-testid="call-progress" data-progress={value} data-total={total}>
      <div className="progress-line">
        <div
          className={`progress-track${determinate ? '' : ' is-indeterminate'}`}
          role="progressbar"
          aria-label={t('call.progress')}
          aria-valuemin={determinate ? 0 : undefined}
          aria-valuemax={determinate ? total : undefined}
          aria-valuenow={determinate ? value : undefined}
          aria-valuetext={determinate ? t('call.valueOf', { value, total }) : value !== undefined ? `${value}` : t('call.working')}
        >
          <div className="progress-fill" style={percent !== undefined ? { width: `${percent}%` } : undefined} />
        </div>
        <span className="progress-count mono" data-testid="progress-count">
          {determinate ? `${value}/${total}` : value !== undefined ? String(value) : ''}
        </span>
        <span className="progress-timer mono muted" data-testid="call-timer" aria-label={t('call.elapsed')}>
          {formatElapsed(elapsed)}
        </span>
      </div>
      {(progress?.message || task) && (
        <div className="progress-message" data-testid="progress-message">
          {task && (
            <span className="tag tag-task" title={t('call.taskTitle', { taskId: task.taskId })} data-testid="task-status" data-status={task.status}>
              {t('call.taskTag', { status: t(`call.taskStatus.${task.status}`) })}
            </span>
          )}
          {task?.statusMessage ?? progress?.message}
          {task?.statusMessage && progress?.message && progress.message !== task.statusMessage && <span className="muted"> · {progress.message}</span>}
        </div>
      )}
    </div>
  );
}

function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
