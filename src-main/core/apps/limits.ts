/*
 * What one app frame may ask of the host per unit of time and per request. An app is a server's code running in the
 * person's window: it must not be able to flood its server, the host or the Logs. Requests over the rate or the size
 * are refused with a clear error; an app that keeps going past that is closed (the renderer shows the reason).
 */

export interface AppLimits {
  /** Requests per second a frame may make on average. */
  ratePerSecond: number;
  /** Requests a frame may make at once after a quiet spell. */
  burst: number;
  /** Bytes (JSON, UTF-8) of a call's arguments or a log message's data. */
  maxRequestBytes: number;
  /** Refused requests within `strikeWindowMs` after which the frame is closed. */
  maxStrikes: number;
  strikeWindowMs: number;
  /** Tool calls of one frame running at once. */
  maxConcurrentCalls: number;
  /** Frames registered at once per host (the oldest is closed first). */
  maxFrames: number;
}

export const defaultAppLimits: AppLimits = {
  ratePerSecond: 20,
  burst: 40,
  maxRequestBytes: 1024 * 1024,
  maxStrikes: 20,
  strikeWindowMs: 10_000,
  maxConcurrentCalls: 16,
  maxFrames: 64,
};

/** A token bucket: `burst` tokens, refilled at `ratePerSecond`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Refusals within a sliding window; `add` says whether the frame has now gone too far. */
export class Strikes {
  private times: number[] = [];

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(): boolean {
    const now = this.now();
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    return this.times.length >= this.max;
  }
}

/** Bytes of `value` as JSON (UTF-8), or undefined when it cannot be written as JSON (a cycle cannot come over IPC, but be sure). */
export function jsonBytes(value: unknown): number | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  } catch {
    return undefined;
  }
}
