import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useApp } from '../../store/useApp';
import { callIdsOf, inPanel, onCall } from './placement';
import { RequestCard, SettledCard } from './RequestCard';
import './requests.css';
import { useT } from '../../i18n';

/** The requests (pending, then settled) whose card goes on the call card with this id. */
export function CallRequests({ callId }: { callId: string }) {
  const pending = useApp((s) => s.pendingRequests);
  const settled = useApp((s) => s.settledRequests);
  const own = useMemo(() => onCall(pending, callId), [pending, callId]);
  const ended = useMemo(() => onCall(settled, callId), [settled, callId]);
  if (own.length === 0 && ended.length === 0) return null;
  return (
    <div className="request-stack" data-testid="call-requests">
      {own.map((r) => (
        <RequestCard key={r.id} request={r} />
      ))}
      {ended.map((r) => (
        <SettledCard key={r.settled.id} entry={r} />
      ))}
    </div>
  );
}

/**
 * Requests with no card to go on: no call they arose from, a call the conversation does not show, or any while the
 * conversation is hidden (a server's page, the servers or settings screen). The chat's own tool approvals are left
 * to the chat.
 */
export function RequestsPanel() {
  const t = useT();
  const pending = useApp((s) => s.pendingRequests);
  const settled = useApp((s) => s.settledRequests);
  const entries = useApp((s) => s.entries);
  const chatVisible = useApp((s) => s.screen === 'chat' && s.serverPage === undefined);
  const listError = useApp((s) => s.requestsError);
  const onScreen = useMemo(() => (chatVisible ? callIdsOf(entries) : new Set<string>()), [chatVisible, entries]);
  // Folded, the panel is only its title bar (it floats over the screen's corner).
  const [folded, setFolded] = useState(false);
  const bodyId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  // While the chat is being resumed (a reload), a request naming a call waits for its card rather than showing here first.
  const resuming = useApp((s) => chatVisible && !s.chatResumed);
  const own = inPanel(pending, onScreen).filter((r) => !resuming || r.origin.callId === undefined);
  const ended = inPanel(settled, onScreen);
  if (own.length === 0 && ended.length === 0 && !listError) return null;
  // Esc from inside the panel folds it (the requests stay; Show brings them back), unless a field with text or a
  // list inside used it first.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key !== 'Escape' || event.defaultPrevented || folded) return;
    const target = event.target as HTMLInputElement;
    if ('value' in target && typeof target.value === 'string' && target.value !== '' && target !== toggle.current) return;
    event.preventDefault();
    setFolded(true);
    toggle.current?.focus();
  };
  return (
    <aside className="requests-panel" aria-label={t('requestCards.panelLabel')} data-testid="requests-panel" onKeyDown={onKeyDown}>
      <div className="requests-panel-head">
        <h2 className="requests-panel-title">
          {t('sampling.waiting')}
          {own.length > 0 && <span className="count"> ({own.length})</span>}
        </h2>
        <button
          ref={toggle}
          type="button"
          className="btn btn-ghost btn-small"
          aria-expanded={!folded}
          aria-controls={bodyId}
          onClick={() => setFolded((f) => !f)}
        >
          {folded ? t('requestCards.show') : t('requestCards.hide')}
        </button>
      </div>
      {listError && (
        <p className="call-error" role="alert">
          {t('sampling.listFailed', { error: listError })}
        </p>
      )}
      {/* New requests are announced (politely) wherever the person is. */}
      <div className="request-stack" id={bodyId} aria-live="polite" hidden={folded}>
        {own.map((r) => (
          <RequestCard key={r.id} request={r} />
        ))}
        {ended.map((r) => (
          <SettledCard key={r.settled.id} entry={r} />
        ))}
      </div>
    </aside>
  );
}
