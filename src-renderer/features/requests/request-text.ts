import type { PendingRequestKind, RequestFollowUpView, RequestSettledView } from '../../../src-shared/host-api';
import { requestReasonText } from '../../../src-shared/i18n/forms.words';
import { i18n } from '../../i18n';

/**
 * The app's own reasons for a person's decline or cancel: sent to the server as they are (English: protocol data),
 * and worded from these very constants when the settled notice comes back.
 */
export const ownReasons = {
  declined: 'declined by the user',
  dismissed: 'dismissed by the user',
  denied: 'denied by the user',
} as const;

/** Why a request ended, in the UI's language: the queue's own reason from its code, ours from its constant; else the text as it is. */
function whyText(settled: RequestSettledView): string | undefined {
  if (settled.reason !== undefined) return requestReasonText(i18n.t, settled.reason);
  switch (settled.message) {
    case ownReasons.declined:
      return i18n.t('forms.reason.declinedByUser');
    case ownReasons.dismissed:
      return i18n.t('forms.reason.dismissedByUser');
    case ownReasons.denied:
      return i18n.t('forms.reason.deniedByUser');
    default:
      return settled.message;
  }
}

/** "4:59 left", "12 s left"; "0 s left" once the deadline passed (the host cancels it then). */
export function timeLeft(deadline: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  if (seconds < 60) return i18n.t('requests.secondsLeft', { seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return i18n.t('requests.minutesLeft', { minutes, seconds: String(seconds % 60).padStart(2, '0') });
  return i18n.t('requests.hoursLeft', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The kind's name in the UI's language. */
export const requestNoun = (kind: PendingRequestKind): string => i18n.t(`requests.kind.${kind}`);

/**
 * How a request ended, as one line: "Sent.", "declined: not now", "timed out after 300 s with no answer"; for an
 * approved sampling request, what became of it since (`followUp`): the model answered, then done, failed, ….
 */
export function settledText(settled: RequestSettledView, followUp?: RequestFollowUpView): string {
  const why = whyText(settled);
  if (settled.outcome === 'accepted' && followUp !== undefined) {
    const followWhy = followUp.message !== undefined ? (whyText({ ...settled, message: followUp.message, reason: undefined }) ?? followUp.message) : '';
    switch (followUp.stage) {
      case 'model-answered':
        return i18n.t('requests.modelAnswered', { server: settled.server });
      case 'done':
        return i18n.t('requests.samplingDone', { server: settled.server });
      case 'failed':
        return i18n.t('requests.samplingFailed', { why: followWhy });
      case 'declined':
        return i18n.t('requests.samplingDeclined');
      case 'cancelled':
        return i18n.t('requests.samplingCancelled', { why: followWhy });
    }
  }
  switch (settled.outcome) {
    case 'accepted':
      return settled.kind === 'sampling'
        ? i18n.t('requests.approvedRunning')
        : settled.kind === 'elicitation-url'
          ? i18n.t('requests.agreedLink')
          : i18n.t('requests.sent');
    case 'declined':
      return why ? i18n.t('requests.declinedWhy', { why }) : i18n.t('requests.declined');
    case 'cancelled':
      return why ? i18n.t('requests.cancelledWhy', { why }) : i18n.t('requests.cancelled');
    case 'timed-out':
      // The queue's own reason already says it timed out (and after how long).
      if (settled.reason?.code === 'timed-out' && why !== undefined) return why;
      return why !== undefined && /^timed out/.test(why) ? why : why ? i18n.t('requests.timedOutWhy', { why }) : i18n.t('requests.timedOut');
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
