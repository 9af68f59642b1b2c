import { useId } from 'react';
import type { PendingRequestView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { isHttps } from './request-text';
import { DeclineButton, RequestButtons, RequestFrame, useAnswering } from './RequestFrame';
import { useT } from '../../i18n';

type ElicitationUrlRequest = Extract<PendingRequestView, { kind: 'elicitation-url' }>;

/**
 * `elicitation/create` in URL mode: the server asks the person to open a page. The host the page is on and the full
 * URL are shown first; nothing opens until the person agrees (then the system browser opens it, https only; the
 * web page shows the link to click instead). Decline says no.
 */
export function ElicitationUrlCard({ request }: { request: ElicitationUrlRequest }) {
  const { busy } = useAnswering(request.id);
  const consent = useApp((s) => s.consentToUrl);
  const { payload } = request;
  const hostId = useId();
  const urlId = useId();
  const t = useT();
  const https = isHttps(payload.url);
  return (
    <RequestFrame request={request}>
      <div className="card-body request-fields">
        <p className="request-message" data-testid="request-message">
          {payload.message}
        </p>
        <p className="request-url-host">
          <span id={hostId} className="muted">
            {t('requestCards.pageOn')}
          </span>{' '}
          <strong className="request-host" data-testid="request-url-host" aria-labelledby={hostId}>
            {payload.host}
          </strong>
        </p>
        <div className="field">
          <span id={urlId} className="muted">
            {t('requestCards.fullAddress')}
          </span>
          <code className="request-url" data-testid="request-url" aria-labelledby={urlId}>
            {payload.url}
          </code>
        </div>
        <p className="muted">{t('requestCards.trustHint', { host: payload.host, server: request.server })}</p>
        {!https && (
          <p className="call-error" role="alert" data-testid="request-url-refused">
            {t('requestCards.notHttps')}
          </p>
        )}
      </div>
      <RequestButtons label={t('requestCards.openPageQ', { server: request.server })}>
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="request-open-url"
          disabled={busy || !https}
          onClick={() => void consent(request.id)}
        >
          {t('requestCards.open', { host: payload.host })}
        </button>
        <DeclineButton id={request.id} busy={busy} />
      </RequestButtons>
    </RequestFrame>
  );
}
