import { parsePartialJson } from 'ai';

/**
 * Follows the arguments of tool calls while the model streams them, for the tools that have an app: each call's
 * text so far, parsed as partial JSON (completed to valid JSON), goes to `emit` at most once per `intervalMs` (the
 * last one always, when the call's input ends). An app gets them as `ui/notifications/tool-input-partial`.
 */

export interface PartialInput {
  modelCallId: string;
  args: Record<string, unknown>;
}

/** Past this much argument text a call's partial input is no longer sent: the full input follows anyway. */
export const maxPartialInputChars = 256 * 1024;

interface Pending {
  text: string;
  lastEmit: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  dirty: boolean;
  /** Emitted args in order: a parse that finishes late never overtakes a newer one. */
  seq: number;
}

export class PartialInputs {
  private readonly calls = new Map<string, Pending>();

  constructor(
    private readonly emit: (input: PartialInput) => void,
    private readonly intervalMs = 100,
  ) {}

  start(modelCallId: string): void {
    this.calls.set(modelCallId, { text: '', lastEmit: 0, timer: undefined, dirty: false, seq: 0 });
  }

  delta(modelCallId: string, delta: string): void {
    const call = this.calls.get(modelCallId);
    if (!call) return;
    call.text += delta;
    if (call.text.length > maxPartialInputChars) {
      this.drop(modelCallId);
      return;
    }
    call.dirty = true;
    const wait = call.lastEmit + this.intervalMs - Date.now();
    if (wait <= 0) void this.flush(modelCallId, call);
    else call.timer ??= setTimeout(() => void this.flush(modelCallId, call), wait);
  }

  /** The call's input is complete: sends what was held back, then forgets the call. */
  async end(modelCallId: string): Promise<void> {
    const call = this.calls.get(modelCallId);
    if (!call) return;
    this.calls.delete(modelCallId);
    if (call.dirty) await this.flush(modelCallId, call);
    if (call.timer) clearTimeout(call.timer);
  }

  /** Stops every timer (the turn is over). */
  dispose(): void {
    for (const id of [...this.calls.keys()]) this.drop(id);
  }

  private drop(modelCallId: string): void {
    const call = this.calls.get(modelCallId);
    if (call?.timer) clearTimeout(call.timer);
    this.calls.delete(modelCallId);
  }

  private async flush(modelCallId: string, call: Pending): Promise<void> {
    if (call.timer) clearTimeout(call.timer);
    call.timer = undefined;
    call.dirty = false;
    call.lastEmit = Date.now();
    const seq = ++call.seq;
    const { value } = await parsePartialJson(call.text);
    if (seq !== call.seq) return;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    this.emit({ modelCallId, args: value });
  }
}
