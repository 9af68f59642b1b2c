import type { HostApi, PendingRequestView, RequestAnswer, RequestFollowUpView, RequestSettledView, RequestsChangedEvent } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { i18n } from '../i18n';
import { trackedCall, without } from './tracked-call';
import type { SliceCreator } from './types';

/** A request that ended while this window watched: its card stays, saying how it ended, until dismissed. */
export interface SettledRequest {
  settled: RequestSettledView;
  /** The request as it was pending. */
  view: PendingRequestView;
  /** When it ended (epoch ms). */
  at: number;
  /** A URL the person consented to that the host could not open itself (headless): shown as a link to click. */
  link?: string;
  /** What became of it after it was accepted (an approved sampling request: the model answered, then how it ended). */
  followUp?: RequestFollowUpView;
}

/** How many settled notices are kept (the oldest is dropped first). */
export const MAX_SETTLED = 50;

/**
 * The queue of things a person must answer (`requests:list`, `requests:changed`, `requests:answer`): what is pending
 * and what ended, by id. Answers go back through `requests:answer`; the host's `requests:changed` is the one truth.
 */
export interface RequestsSlice {
  /** The host's pending queue, in its order. */
  pendingRequests: PendingRequestView[];
  /** Ended requests, newest last. */
  settledRequests: SettledRequest[];
  /** Ids whose answer is on its way. */
  answering: Record<string, true>;
  /** Why sending an answer (or opening a URL) failed, by request id. */
  requestErrors: Record<string, string>;
  /** Why the queue could not be listed. */
  requestsError?: string;
  loadRequests(): Promise<void>;
  applyRequestsChanged(event: RequestsChangedEvent): void;
  /** Sends the person's answer; false when the host no longer had it (answered elsewhere, timed out). */
  answerRequest(id: string, answer: RequestAnswer): Promise<boolean>;
  /**
   * After the person consented: asks the host to open a URL elicitation's URL in the system browser (https only), then
   * accepts it. When the host cannot open it (headless), the settled card shows the link for the person to click.
   */
  consentToUrl(id: string): Promise<void>;
  dismissSettled(id: string): void;
}

export const createRequestsSlice =
  (api: HostApi, now: () => number = Date.now): SliceCreator<RequestsSlice> =>
  (set, get) => {
    // A URL the host could not open, kept until its request's settled event arrives (or already arrived).
    const links = new Map<string, string>();
    // A list reply older than an event that arrived while it was in flight is dropped.
    let epoch = 0;
    const send = async (id: string, answer: RequestAnswer): Promise<boolean> => {
      const message = (error: unknown): string => i18n.t('requests.answerFailed', { error: describeError(error).message });
      const result = await trackedCall(set, { busy: 'answering', mark: true, errors: 'requestErrors', keys: id, message }, () =>
        api['requests:answer'](id, answer),
      );
      if (!result.ok) return false;
      if (!result.value) set((s) => ({ requestErrors: { ...s.requestErrors, [id]: i18n.t('requests.noLongerWaiting') } }));
      return result.value;
    };
    return {
      pendingRequests: [],
      settledRequests: [],
      answering: {},
      requestErrors: {},
      async loadRequests() {
        const at = epoch;
        try {
          const pending = await api['requests:list']();
          if (at === epoch && Array.isArray(pending)) set({ pendingRequests: pending, requestsError: undefined });
        } catch (error) {
          set({ requestsError: describeError(error).message });
        }
      },
      applyRequestsChanged(event) {
        if (!Array.isArray(event?.pending)) return;
        epoch += 1;
        set((s) => {
          const patch: Partial<RequestsSlice> = { pendingRequests: event.pending, requestsError: undefined };
          const followUp = event.followUp;
          if (followUp !== undefined && s.settledRequests.some((r) => r.settled.id === followUp.id))
            patch.settledRequests = s.settledRequests.map((r) => (r.settled.id === followUp.id ? { ...r, followUp } : r));
          const settled = event.settled;
          // Only what this window showed gets a notice: not a request declined at once (it was never pending), nor a
          // chat run's tool approval (the chat's card says how that ended).
          const view = settled ? s.pendingRequests.find((r) => r.id === settled.id) : undefined;
          if (settled && view && !shownByChat(view)) {
            const link = links.get(settled.id);
            links.delete(settled.id);
            const entry: SettledRequest = { settled, at: now(), view, ...(link ? { link } : {}) };
            const kept = s.settledRequests.filter((r) => r.settled.id !== settled.id);
            patch.settledRequests = [...kept, entry].slice(-MAX_SETTLED);
            patch.requestErrors = without(s.requestErrors, settled.id);
          }
          return patch;
        });
      },
      answerRequest: send,
      async consentToUrl(id) {
        const request = get().pendingRequests.find((r) => r.id === id);
        if (request?.kind !== 'elicitation-url') return;
        const { url } = request.payload;
        let opened = false;
        try {
          opened = (await api['shell:open-url'](url)).opened;
        } catch (error) {
          set((s) => ({ requestErrors: { ...s.requestErrors, [id]: i18n.t('requests.openLinkFailed', { error: describeError(error).message }) } }));
          return;
        }
        if (!opened) {
          links.set(id, url);
          // The settled event may already have come (then the card is settled): attach the link to it.
          set((s) => ({ settledRequests: s.settledRequests.map((r) => (r.settled.id === id ? { ...r, link: url } : r)) }));
        }
        await send(id, { action: 'accept', content: {} });
      },
      dismissSettled(id) {
        links.delete(id);
        set((s) => ({ settledRequests: s.settledRequests.filter((r) => r.settled.id !== id) }));
      },
    };
  };

/** Whether a request is shown by the chat's own approval UI (a tool approval of a chat run), not as a request card. */
export const shownByChat = (request: PendingRequestView): boolean => request.kind === 'tool-approval' && request.origin.runId !== undefined;
