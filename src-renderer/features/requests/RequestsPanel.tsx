import { useId, useMemo, useState } from 'react';
import type { PendingRequestView } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import type { ChatEntry } from '../../store/chat-slice';
import { shownByChat, type SettledRequest } from '../../store/requests-slice';
import { RequestCard, SettledCard } from './RequestCard';
import './requests.css';

const originOf = (item: PendingRequestView | SettledRequest): PendingRequestView['origin'] => ('settled' in item ? item.view.origin : item.origin);

/** The requests (pending, then settled) whose card goes on the call card with this id. */
export function CallRequests({ callId }: { callId: string }) {
  const pending = useApp((s) => s.pendingRequests);
  const settled = useApp((s) => s.settledRequests);
  const own = useMemo(() => pending.filter((r) => r.origin.callId === callId && !shownByChat(r)), [pending, callId]);
  const ended = useMemo(() => settled.filter((r) => r.view.origin.callId === callId), [settled, callId]);
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

/** The call ids whose cards the conversation shows now (direct calls and the chat's tool calls). */
function callIdsOf(entries: readonly ChatEntry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'call') ids.add(entry.callId);
    else if (entry.kind === 'message' && entry.message.role === 'assistant') for (const part of entry.message.parts) if (part.type === 'tool') ids.add(part.callId);
  }
  return ids;
}

/**
 * Requests with no card to go on: no call they arose from, a call the conversation does not show, or any while the
 * conversation is hidden (a server's page, the servers or settings screen). The chat's own tool approvals are left
 * to the chat.
 */
export function RequestsPanel() {
  const pending = useApp((s) => s.pendingRequests);
  const settled = useApp((s) => s.settledRequests);
  const entries = useApp((s) => s.entries);
  const chatVisible = useApp((s) => s.screen === 'chat' && s.serverPage === undefined);
  const listError = useApp((s) => s.requestsError);
  const onScreen = useMemo(() => (chatVisible ? callIdsOf(entries) : new Set<string>()), [chatVisible, entries]);
  // Folded, the panel is only its title bar (it floats over the screen's corner).
  const [folded, setFolded] = useState(false);
  const bodyId = useId();
  const homeless = (item: PendingRequestView | SettledRequest): boolean => {
    const origin = originOf(item);
    return origin.callId === undefined || !onScreen.has(origin.callId);
  };
  const own = pending.filter((r) => !shownByChat(r) && homeless(r));
  const ended = settled.filter(homeless);
  if (own.length === 0 && ended.length === 0 && !listError) return null;
  return (
    <aside className="requests-panel" aria-label="Requests waiting for you" data-testid="requests-panel">
      <div className="requests-panel-head">
        <h2 className="requests-panel-title">
          Waiting for you{own.length > 0 && <span className="count"> ({own.length})</span>}
        </h2>
        <button type="button" className="btn btn-ghost btn-small" aria-expanded={!folded} aria-controls={bodyId} onClick={() => setFolded((f) => !f)}>
          {folded ? 'Show' : 'Hide'}
        </button>
      </div>
      {listError && (
        <p className="call-error" role="alert">
          Could not list the pending requests: {listError}
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
