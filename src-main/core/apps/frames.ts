import { randomBytes } from 'node:crypto';
import type { AppFrame, AppFrameClosedReason } from '../../../src-shared/host-api';
import { CoreError } from '../errors';
import { Strikes, TokenBucket, type AppLimits } from './limits';
import type { ProxyFrame } from './proxy-page';

/** Why a frame is gone; a request that names it afterwards is refused with this reason. */
export type FrameClosedReason = 'closed' | AppFrameClosedReason;

const closedText: Record<FrameClosedReason, string> = {
  closed: 'it was closed',
  'server-stopped': 'its server stopped; open the app again once the server is ready',
  'too-many-frames': 'too many apps were open at once, and it was the oldest',
  'app-flood': 'the app sent too many requests (or too large ones) and was stopped; reopen it to try again',
  'host-stopped': 'Switchboard is shutting down',
};

/** One registered frame: what the host knows of it, and its budget. */
export interface FrameEntry {
  frame: AppFrame;
  proxy: ProxyFrame;
  bucket: TokenBucket;
  strikes: Strikes;
  /** Aborts every call the frame's app started when the frame closes. */
  controller: AbortController;
  calls: number;
}

/** How many closed frames are remembered (so that a late request learns why), oldest dropped first. */
const closedMemory = 256;

/**
 * The app frames the renderer registered (`apps:open`), by a random id (lowercase hex: it is also a host name on the
 * Electron scheme, where host names are not case-sensitive). Bounded: opening one more than `maxFrames` closes the
 * oldest. Held in memory only: a frame does not outlive the host process.
 */
export class FrameRegistry {
  private readonly frames = new Map<string, FrameEntry>();
  private readonly closed = new Map<string, FrameClosedReason>();

  constructor(
    private readonly limits: AppLimits,
    private readonly onClosed: (entry: FrameEntry, reason: FrameClosedReason) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  static newId(): string {
    return randomBytes(16).toString('hex');
  }

  add(frame: AppFrame, proxy: ProxyFrame): FrameEntry {
    while (this.frames.size >= this.limits.maxFrames) {
      const oldest = this.frames.keys().next().value;
      if (oldest === undefined) break;
      this.close(oldest, 'too-many-frames');
    }
    const entry: FrameEntry = {
      frame,
      proxy,
      bucket: new TokenBucket(this.limits.ratePerSecond, this.limits.burst, this.now),
      strikes: new Strikes(this.limits.maxStrikes, this.limits.strikeWindowMs, this.now),
      controller: new AbortController(),
      calls: 0,
    };
    this.frames.set(frame.frameId, entry);
    return entry;
  }

  get(frameId: string): FrameEntry | undefined {
    return this.frames.get(frameId);
  }

  /** The frame, or an error that says why it is not there (closed, and why; or never opened by this host). */
  require(frameId: string): FrameEntry {
    const entry = this.frames.get(frameId);
    if (entry) return entry;
    const reason = this.closed.get(frameId);
    throw new CoreError(
      'invalid-argument',
      reason !== undefined
        ? `This app's frame is closed: ${closedText[reason]}.`
        : `No app frame "${frameId}" is open in this Switchboard (it was never opened, or Switchboard restarted): open the app again.`,
      { data: { frameId, reason: reason ?? 'unknown-frame' } },
    );
  }

  close(frameId: string, reason: FrameClosedReason): boolean {
    const entry = this.frames.get(frameId);
    if (!entry) return false;
    this.frames.delete(frameId);
    this.closed.set(frameId, reason);
    if (this.closed.size > closedMemory) {
      const oldest = this.closed.keys().next().value;
      if (oldest !== undefined) this.closed.delete(oldest);
    }
    entry.controller.abort(new CoreError('cancelled', `The app's frame closed: ${closedText[reason]}.`, { data: { frameId, reason } }));
    this.onClosed(entry, reason);
    return true;
  }

  /** Closes every frame of `server` (it stopped or was removed). */
  closeServer(server: string, reason: FrameClosedReason): number {
    let count = 0;
    for (const [id, entry] of [...this.frames]) if (entry.frame.server === server && this.close(id, reason)) count += 1;
    return count;
  }

  servers(): Set<string> {
    return new Set([...this.frames.values()].map((e) => e.frame.server));
  }

  closeAll(reason: FrameClosedReason): void {
    for (const id of [...this.frames.keys()]) this.close(id, reason);
  }

  get size(): number {
    return this.frames.size;
  }

  static reasonText(reason: FrameClosedReason): string {
    return closedText[reason];
  }
}
