import { randomUUID } from 'node:crypto';
import type {
  PendingRequestKind,
  PendingRequestOrigin,
  PendingRequestView,
  RequestAnswer,
  RequestOutcome,
  RequestFollowUpView,
  RequestReason,
  RequestsChangedEvent,
} from '../../../src-shared/contract/requests';
import { Emitter, type Disposable, type Event } from '../../../src-shared/lifecycle';

/** A request as it is asked: the view without what the queue fills in. */
export type AskRequest = PendingRequestView extends infer V
  ? V extends PendingRequestView
    ? Omit<V, 'id' | 'createdAt' | 'deadline' | 'origin'> & { origin?: PendingRequestOrigin }
    : never
  : never;

export interface AskOptions {
  /** Cancel (and say so) after this long; default the queue's `defaultTimeoutMs`; 0: no deadline. */
  timeoutMs?: number;
  /** The asker gave up (the server cancelled its request, the chat turn stopped): the request is cancelled. */
  signal?: AbortSignal;
  /** Told the request's id as it becomes pending (to report what became of it with `followUp`). */
  onPending?(id: string): void;
}

/** Who can answer. `interactive`: a person is there (the app's UI, a CLI on a terminal); otherwise every request is declined at once. */
export interface RequestQueueOptions {
  interactive: boolean;
  /** Why no one can answer, in the decline message ("not a terminal: run it in one, or pass --approve all"). */
  noAnswererReason?: string;
  defaultTimeoutMs?: number;
  now?: () => number;
}

interface Pending {
  view: PendingRequestView;
  settle(answer: RequestAnswer, outcome: RequestOutcome, message?: string, reason?: RequestReason): void;
}

const fiveMinutes = 5 * 60 * 1000;
const defaultNoAnswerer = 'no one is there to answer';
const shuttingDown = 'Switchboard is shutting down';
const shuttingDownReason: RequestReason = { code: 'shutting-down' };
/** setTimeout's largest delay (about 24.8 days); a longer deadline is cut to it. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The one queue of things a person must answer. `ask()` never rejects and never hangs: it resolves with the
 * person's answer, with `decline` when no one can answer, or with `cancel` when the deadline passes or the asker
 * gives up (each says why in the settled event). Chat approvals, sampling, elicitation and URL consent all go here.
 */
export class RequestQueue implements Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly changed = new Emitter<RequestsChangedEvent>();
  private interactive: boolean;
  private noAnswererReason: string;
  private disposed = false;
  /** Changes not yet delivered: a listener that answers inside `added` must not have its `settled` overtake it. */
  private readonly outbox: RequestsChangedEvent[] = [];
  private delivering = false;
  readonly onDidChange: Event<RequestsChangedEvent> = this.changed.event;

  constructor(private readonly options: RequestQueueOptions) {
    this.interactive = options.interactive;
    this.noAnswererReason = options.noAnswererReason ?? defaultNoAnswerer;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** A person became able (or unable) to answer; when unable, what is pending is declined. */
  setInteractive(interactive: boolean, noAnswererReason?: string): void {
    this.interactive = interactive;
    if (noAnswererReason !== undefined) this.noAnswererReason = noAnswererReason;
    if (!interactive)
      for (const p of [...this.pending.values()])
        p.settle({ action: 'decline', reason: this.noAnswererReason }, 'declined', this.noAnswererReason, this.noAnswererCode());
  }

  /** The code of the decline when no one can answer: only for the queue's own text (a host's own reason is its to word). */
  private noAnswererCode(): RequestReason | undefined {
    return this.noAnswererReason === defaultNoAnswerer ? { code: 'no-answerer' } : undefined;
  }

  get isInteractive(): boolean {
    return this.interactive;
  }

  list(): PendingRequestView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  get(id: string): PendingRequestView | undefined {
    return this.pending.get(id)?.view;
  }

  ask(request: AskRequest, options: AskOptions = {}): Promise<RequestAnswer> {
    const { kind, server } = request;
    if (this.disposed) return Promise.resolve({ action: 'cancel', reason: shuttingDown });
    if (!this.interactive) {
      const message = this.noAnswererReason;
      const reason = this.noAnswererCode();
      this.fire({ settled: { id: randomUUID(), server, kind, outcome: 'declined', message, ...(reason !== undefined ? { reason } : {}) } });
      return Promise.resolve({ action: 'decline', reason: message });
    }
    if (options.signal?.aborted) return Promise.resolve({ action: 'cancel', reason: 'the request was withdrawn' });
    const asked = options.timeoutMs ?? this.options.defaultTimeoutMs ?? fiveMinutes;
    // NaN, negative or Infinity: no deadline (setTimeout would fire an overflowing delay at once).
    const timeoutMs = Number.isFinite(asked) && asked > 0 ? asked : 0;
    const createdAt = this.now();
    const id = randomUUID();
    const view = {
      ...request,
      id,
      createdAt,
      origin: request.origin ?? {},
      ...(timeoutMs > 0 ? { deadline: createdAt + timeoutMs } : {}),
    } as PendingRequestView;
    return new Promise<RequestAnswer>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void =>
        settle({ action: 'cancel', reason: 'the request was withdrawn' }, 'cancelled', 'withdrawn by the asker', { code: 'withdrawn' });
      const settle = (answer: RequestAnswer, outcome: RequestOutcome, message?: string, reason?: RequestReason): void => {
        if (!this.pending.delete(id)) return;
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(answer);
        this.fire({ settled: { id, server, kind, outcome, ...(message !== undefined ? { message } : {}), ...(reason !== undefined ? { reason } : {}) } });
      };
      if (timeoutMs > 0) {
        timer = setTimeout(
          () => {
            // The answer's reason goes to the server (English, protocol data); the settled event's code is for people.
            const short = timeoutMs < 1000;
            const message = `timed out after ${short ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`} with no answer`;
            settle({ action: 'cancel', reason: message }, 'timed-out', message, {
              code: 'timed-out',
              data: short ? { ms: timeoutMs } : { seconds: Math.round(timeoutMs / 1000) },
            });
          },
          Math.min(timeoutMs, maxTimerMs),
        );
        timer.unref();
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { view, settle });
      options.onPending?.(id);
      this.fire({ added: view });
    });
  }

  /** A person's answer. False when no request with that id is pending (answered, timed out or withdrawn). */
  answer(id: string, answer: RequestAnswer): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    const outcome: RequestOutcome = answer.action === 'accept' ? 'accepted' : answer.action === 'decline' ? 'declined' : 'cancelled';
    const reason = answer.action === 'accept' ? undefined : answer.reason;
    pending.settle(answer, outcome, reason);
    return true;
  }

  /** What became of an accepted request afterwards (the model it approved answered, failed, …): told to every window. */
  followUp(view: RequestFollowUpView): void {
    if (this.disposed || this.pending.has(view.id)) return;
    this.fire({ followUp: view });
  }

  /** Cancels every pending request of a server (it stopped or disconnected); `reason` defaults to saying so. */
  cancelServer(server: string, reason?: string): void {
    const text = reason ?? `${server} stopped or went away`;
    const code: RequestReason | undefined = reason === undefined ? { code: 'server-gone', data: { server } } : undefined;
    for (const p of [...this.pending.values()]) if (p.view.server === server) p.settle({ action: 'cancel', reason: text }, 'cancelled', text, code);
  }

  /** Delivered in the order the changes happened, each with the queue as it was right after its change. */
  private fire(change: Omit<RequestsChangedEvent, 'pending'>): void {
    this.outbox.push({ pending: this.list(), ...change });
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.outbox.shift(); next !== undefined; next = this.outbox.shift()) this.changed.fire(next);
    } finally {
      this.delivering = false;
    }
  }

  /** Cancels what is pending (each asker gets `cancel`). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const p of [...this.pending.values()]) p.settle({ action: 'cancel', reason: shuttingDown }, 'cancelled', shuttingDown, shuttingDownReason);
    this.changed.dispose();
  }
}

export type { PendingRequestKind };
