import { useId, type ReactNode } from 'react';
import { Trans } from 'react-i18next';
import type { PendingRequestView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { useNow } from '../../ui/useNow';
import type { AppState } from '../../store/types';
import { ownReasons, requestNoun, timeLeft } from './request-text';
import { formatWhen, useT } from '../../i18n';

/*
 * What every request card shares (the cards of each kind build on these): the frame, the title, the countdown, the
 * answer hook and the buttons.
 */

/** The frame every request card shares: who asks, what, the deadline countdown, and an answer's error. */
export function RequestFrame({ request, children }: { request: PendingRequestView; children: ReactNode }) {
  const titleId = useId();
  const error = useApp((s) => s.requestErrors[request.id]);
  return (
    <article
      className={`card request-card request-${request.kind}`}
      data-testid="request-card"
      data-kind={request.kind}
      data-server={request.server}
      data-request-id={request.id}
      aria-labelledby={titleId}
    >
      <header className="card-head">
        <span className="card-title" id={titleId}>
          <span className="tag">{requestNoun(request.kind)}</span> <TitleText view={request} />
        </span>
        {request.deadline !== undefined && <Countdown deadline={request.deadline} />}
      </header>
      {children}
      {error && (
        <div className="card-body call-error" role="alert" data-testid="request-error">
          {error}
        </div>
      )}
    </article>
  );
}

const titleParts = { strong: <strong />, muted: <span className="muted" /> };

/** "**asker** asks to run a model", in the UI's language from the request's kind (the host's title is English): the server in bold. */
export function TitleText({ view }: { view: PendingRequestView }) {
  const server = view.server;
  switch (view.kind) {
    case 'sampling':
      return <Trans i18nKey="forms.title.sampling" values={{ server }} components={titleParts} />;
    case 'sampling-result':
      return <Trans i18nKey="forms.title.samplingResult" values={{ server }} components={titleParts} />;
    case 'elicitation-form':
      return <Trans i18nKey="forms.title.form" values={{ server }} components={titleParts} />;
    case 'elicitation-url':
      return <Trans i18nKey="forms.title.link" values={{ server, host: view.payload.host }} components={titleParts} />;
    case 'tool-approval':
      return <Trans i18nKey="forms.title.toolApproval" values={{ server, tool: view.payload.tool }} components={titleParts} />;
  }
}

function Countdown({ deadline }: { deadline: number }) {
  const t = useT();
  const now = useNow(true);
  const text = timeLeft(deadline, now);
  return (
    <span
      className="pill pill-pending request-deadline"
      data-testid="request-deadline"
      title={t('requestCards.cancelledAt', { time: formatWhen(deadline, { timeStyle: 'medium' }) })}
    >
      <span className="request-sr-only">{t('requestCards.answerWithin')}</span>
      {text}
    </span>
  );
}

/** A card's way to answer its request, and whether an answer is on its way (its buttons are then disabled). */
export function useAnswering(id: string): { answer: AppState['answerRequest']; busy: boolean } {
  const answer = useApp((s) => s.answerRequest);
  const busy = useApp((s) => s.answering[id] === true);
  return { answer, busy };
}

/** Decline, the same on every card that asks something of the person. */
export function DeclineButton({ id, busy }: { id: string; busy: boolean }) {
  const t = useT();
  const answer = useApp((s) => s.answerRequest);
  return (
    <button
      type="button"
      className="btn btn-small btn-danger"
      data-testid="request-decline"
      disabled={busy}
      onClick={() => void answer(id, { action: 'decline', reason: ownReasons.declined })}
    >
      {t('requestCards.decline')}
    </button>
  );
}

/** The request buttons' row. */
export function RequestButtons({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="approval-buttons request-buttons" role="group" aria-label={label}>
      {children}
    </div>
  );
}
