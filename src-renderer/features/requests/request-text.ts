import type { PendingRequestKind, RequestSettledView } from '../../../src-shared/host-api';

/** "4:59 left", "12 s left"; "0 s left" once the deadline passed (the host cancels it then). */
export function timeLeft(deadline: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  if (seconds < 60) return `${seconds} s left`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${String(seconds % 60).padStart(2, '0')} left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

const kindNoun: Record<PendingRequestKind, string> = {
  'tool-approval': 'Tool approval',
  sampling: 'Model request',
  'sampling-result': 'Model answer',
  'elicitation-form': 'Form',
  'elicitation-url': 'Link',
};

export const requestNoun = (kind: PendingRequestKind): string => kindNoun[kind];

/** How a request ended, as one line: "Sent.", "declined: not now", "timed out after 300 s with no answer". */
export function settledText(settled: RequestSettledView): string {
  const why = settled.message;
  switch (settled.outcome) {
    case 'accepted':
      return settled.kind === 'sampling' ? 'Approved: the model is running.' : settled.kind === 'elicitation-url' ? 'You agreed to open the link.' : 'Sent.';
    case 'declined':
      return why ? `declined: ${why}` : 'Declined.';
    case 'cancelled':
      return why ? `cancelled: ${why}` : 'Cancelled.';
    case 'timed-out':
      return why && /^timed out/.test(why) ? why : `timed out${why ? `: ${why}` : ''}`;
  }
}

/** Whether a URL is one the app would open or link to (https only). */
export function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
