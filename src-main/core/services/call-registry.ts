import type { CallProgressEvent, CallView, ToolResult } from '../../../src-shared/host-api';
import type { HostError } from '../../../src-shared/errors';

/** How many finished calls are kept for windows that connect later (the oldest finished is dropped first). */
export const MAX_FINISHED_CALLS = 100;
/**
 * How many bytes of results (as JSON) the kept finished calls hold, newest first: every window that connects lists
 * them all, and a result can be megabytes of base64 images. An older result beyond it is dropped (`resultNotKept`).
 */
export const MAX_KEPT_RESULT_BYTES = 2 * 1024 * 1024;

export interface CallRegistryOptions {
  /** A call started or finished (`calls:changed`). */
  changed(view: CallView): void;
  maxFinished?: number;
  maxResultBytes?: number;
  now?: () => number;
}

/**
 * The tool calls the host runs under a `callId`, running and recently finished, so they belong to the host and not
 * to the window that started them: a window that connects (a reload, a second tab, the desktop window after a
 * renderer crash) lists them, sees a running one as running with its latest progress, then gets its real result.
 * Held in memory: a call the registry does not know was never started by this host process.
 */
export class CallRegistry {
  private readonly calls = new Map<string, CallView>();
  /** The size of each kept result, by callId. */
  private readonly resultBytes = new Map<string, number>();
  private finished = 0;

  constructor(private readonly options: CallRegistryOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  start(callId: string, server: string, tool: string, args: Record<string, unknown>): void {
    // An id used again (a finished call's) starts afresh, at the end of the order.
    const previous = this.calls.get(callId);
    if (previous !== undefined && previous.state !== 'running') this.finished -= 1;
    this.calls.delete(callId);
    this.resultBytes.delete(callId);
    const view: CallView = { callId, server, tool, args, state: 'running', startedAt: this.now() };
    this.calls.set(callId, view);
    this.options.changed(view);
  }

  /** Keeps the latest progress of a running call (a merged view: a message not repeated stays). */
  progress(event: CallProgressEvent): void {
    const view = this.calls.get(event.callId);
    if (view?.state !== 'running') return;
    const { callId: _callId, server: _server, tool: _tool, ...rest } = event;
    const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as CallView['progress'];
    view.progress = { ...view.progress, ...defined };
  }

  /** The tool answered (also with `isError: true`). */
  answered(callId: string, result: ToolResult): void {
    this.finish(callId, { state: result.isError === true ? 'error' : 'ok', result });
  }

  /** The call failed before the tool answered; `cancelled`: it was cancelled (by a person, a Stop, the host's end). */
  failed(callId: string, failure: HostError, cancelled: boolean): void {
    this.finish(callId, { state: cancelled ? 'cancelled' : 'error', failure });
  }

  private finish(callId: string, outcome: Pick<CallView, 'state' | 'result' | 'failure'>): void {
    const view = this.calls.get(callId);
    if (view?.state !== 'running') return;
    const done: CallView = { ...view, ...outcome, finishedAt: this.now() };
    delete done.progress;
    this.calls.set(callId, done);
    this.finished += 1;
    const max = this.options.maxFinished ?? MAX_FINISHED_CALLS;
    if (this.finished > max) {
      for (const [id, v] of this.calls) {
        if (this.finished <= max) break;
        if (v.state === 'running') continue;
        this.calls.delete(id);
        this.resultBytes.delete(id);
        this.finished -= 1;
      }
    }
    if (done.result !== undefined) {
      this.resultBytes.set(callId, Buffer.byteLength(JSON.stringify(done.result)));
      this.trimResults();
    }
    // Windows connected now get the whole result, whatever is kept.
    this.options.changed(done);
  }

  /** Keeps the newest results that fit the byte budget; an older one (or one too big alone) is dropped. */
  private trimResults(): void {
    const budget = this.options.maxResultBytes ?? MAX_KEPT_RESULT_BYTES;
    let used = 0;
    // resultBytes is in the order the calls finished.
    for (const [id, bytes] of [...this.resultBytes].reverse()) {
      if (used + bytes <= budget) {
        used += bytes;
        continue;
      }
      const view = this.calls.get(id);
      this.resultBytes.delete(id);
      if (view === undefined) continue;
      const { result: _dropped, ...rest } = view;
      this.calls.set(id, { ...rest, resultNotKept: true });
    }
  }

  get(callId: string): CallView | undefined {
    return this.calls.get(callId);
  }

  /** Running and kept finished calls, in the order they started. */
  list(): CallView[] {
    return [...this.calls.values()].map((v) => ({ ...v, ...(v.progress ? { progress: { ...v.progress } } : {}) }));
  }
}
