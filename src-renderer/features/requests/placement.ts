import type { PendingRequestView } from '../../../src-shared/host-api';
import type { ChatEntry } from '../../store/transcript-entries';
import { shownByChat, type SettledRequest } from '../../store/requests-slice';

/*
 * Where a request's card goes: on the call card (or the chat's tool card) whose callId the request names, when the
 * conversation shows it; otherwise in the requests panel. A chat run's tool approvals are the chat's own cards.
 */

/** The call ids whose cards the conversation shows now (direct calls and the chat's tool calls). */
export function callIdsOf(entries: readonly ChatEntry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'call') ids.add(entry.callId);
    else if (entry.kind === 'message' && entry.message.role === 'assistant')
      for (const part of entry.message.parts) if (part.type === 'tool') ids.add(part.callId);
  }
  return ids;
}

const viewOf = (item: PendingRequestView | SettledRequest): PendingRequestView => ('settled' in item ? item.view : item);

/** The pending and settled requests of one call's card. */
export function onCall<T extends PendingRequestView | SettledRequest>(items: readonly T[], callId: string): T[] {
  return items.filter((item) => {
    const view = viewOf(item);
    return view.origin.callId === callId && !shownByChat(view);
  });
}

/** The requests the panel shows: those with no card on screen (`onScreen`: the call ids the conversation shows now). */
export function inPanel<T extends PendingRequestView | SettledRequest>(items: readonly T[], onScreen: ReadonlySet<string>): T[] {
  return items.filter((item) => {
    const view = viewOf(item);
    if (shownByChat(view)) return false;
    const { callId } = view.origin;
    return callId === undefined || !onScreen.has(callId);
  });
}
