import type { SupervisionPolicy } from './policy';

export type RestartPolicy = Pick<SupervisionPolicy, 'autoRestart' | 'restartBaseDelayMs' | 'restartMaxDelayMs' | 'crashLoopCount' | 'stableMs'>;

/**
 * When a server that failed on its own is started again: after a delay that doubles with each failure that came
 * soon after the last ready (up to `restartMaxDelayMs`), and not at all once a child died `crashLoopCount` times in
 * a row within `stableMs` of being ready (a crash loop waits for a person). Counts apart the child's deaths and the
 * missed pings of a ready session (with the failed starts of the reconnect that follows). The Supervisor tells it
 * what happened and shows `restarts` and `nextRestartAt` in the server's view.
 */
export class RestartSchedule {
  private readyAt = 0;
  private quickDeaths = 0;
  private healthFailures = 0;
  private timer: NodeJS.Timeout | undefined;
  private restartAt: number | undefined;
  private automaticRestarts = 0;
  /** Reconnecting after a missed ping: a failed start is retried too (with growing delays) until one succeeds. */
  private reconnecting = false;

  constructor(
    private readonly policy: RestartPolicy,
    /** Runs when a scheduled restart is due. */
    private readonly restart: () => void,
    /** Runs when `nextRestartAt` was set (the view changed). */
    private readonly changed: () => void,
  ) {}

  /** Restarts made by the schedule since the last manual restart. */
  get restarts(): number {
    return this.automaticRestarts;
  }

  /** When the scheduled restart is due (epoch ms), if one is. */
  get nextRestartAt(): number | undefined {
    return this.restartAt;
  }

  /** A start succeeded: the clock for "soon after ready" starts now, and a reconnect is over. */
  ready(): void {
    this.readyAt = Date.now();
    this.reconnecting = false;
  }

  /** The child of a ready session ended on its own: counts it; the deaths in a row soon after ready, this one included. */
  died(): number {
    this.quickDeaths = this.soonAfterReady() ? this.quickDeaths + 1 : 1;
    return this.quickDeaths;
  }

  /** Whether `deaths` (from `died`) make a crash loop: then nothing restarts it. */
  isCrashLoop(deaths: number): boolean {
    return deaths >= this.policy.crashLoopCount;
  }

  /** After a death that is no crash loop: the restart, delayed by the deaths in a row (when restarts are automatic). */
  restartAfterDeath(): void {
    if (this.policy.autoRestart) this.schedule(this.quickDeaths);
  }

  /** A ready session stopped answering: counts it (missed pings soon after ready, in a row). */
  healthLost(): void {
    this.healthFailures = this.soonAfterReady() ? this.healthFailures + 1 : 1;
  }

  /** After `healthLost`: reconnect (when restarts are automatic), retrying failed starts until one is ready. */
  reconnect(): void {
    if (!this.policy.autoRestart) return;
    this.reconnecting = true;
    this.schedule(this.healthFailures);
  }

  /** A start failed: during a reconnect it is tried again, a little later each time. */
  startFailed(): void {
    if (!this.reconnecting || !this.policy.autoRestart) return;
    this.healthFailures++;
    this.schedule(this.healthFailures);
  }

  /** A person restarted the server: the history of failures is forgotten. */
  reset(): void {
    this.cancel();
    this.quickDeaths = 0;
    this.healthFailures = 0;
    this.automaticRestarts = 0;
  }

  /** No restart is due any more (stopped, restarted by hand, disposed), and a reconnect is over. */
  cancel(): void {
    this.reconnecting = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.restartAt = undefined;
  }

  private soonAfterReady(): boolean {
    return Date.now() - this.readyAt < this.policy.stableMs;
  }

  private schedule(failures: number): void {
    const delay = Math.min(this.policy.restartMaxDelayMs, this.policy.restartBaseDelayMs * 2 ** Math.max(0, failures - 1));
    this.restartAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restartAt = undefined;
      this.automaticRestarts++;
      this.restart();
    }, delay);
    this.timer.unref?.();
    this.changed();
  }
}
