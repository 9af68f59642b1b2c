// When a failed server starts again: doubling delays, the crash loop, reconnects after missed pings, a manual
// restart forgetting the history. (The real-process side is in scenarios/supervision.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RestartSchedule, type RestartPolicy } from './restart-schedule';

const policy: RestartPolicy = { autoRestart: true, restartBaseDelayMs: 100, restartMaxDelayMs: 350, crashLoopCount: 3, stableMs: 1000 };

function scheduleWith(overrides: Partial<RestartPolicy> = {}): { schedule: RestartSchedule; restarted: () => number; changes: () => number } {
  let restarted = 0;
  let changes = 0;
  const schedule = new RestartSchedule(
    { ...policy, ...overrides },
    () => restarted++,
    () => changes++,
  );
  return { schedule, restarted: () => restarted, changes: () => changes };
}

describe('RestartSchedule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('restarts after a death with doubling delays while the deaths come soon after ready, and stops at a crash loop', () => {
    const { schedule, restarted, changes } = scheduleWith();
    schedule.ready();
    expect(schedule.died()).toBe(1);
    expect(schedule.isCrashLoop(1)).toBe(false);
    schedule.restartAfterDeath();
    expect(changes()).toBe(1);
    expect(schedule.nextRestartAt).toBe(Date.now() + 100);
    vi.advanceTimersByTime(99);
    expect(restarted()).toBe(0);
    vi.advanceTimersByTime(1);
    expect([restarted(), schedule.restarts, schedule.nextRestartAt]).toEqual([1, 1, undefined]);

    schedule.ready();
    expect(schedule.died()).toBe(2);
    schedule.restartAfterDeath();
    expect(schedule.nextRestartAt).toBe(Date.now() + 200);
    vi.advanceTimersByTime(200);
    schedule.ready();
    expect(schedule.isCrashLoop(schedule.died())).toBe(true);
    expect(restarted()).toBe(2);
  });

  it('a death long after ready starts the count again; the delay never passes the maximum', () => {
    const { schedule } = scheduleWith({ crashLoopCount: 10 });
    schedule.ready();
    for (let death = 1; death <= 4; death++) {
      expect(schedule.died()).toBe(death);
      schedule.restartAfterDeath();
      vi.advanceTimersByTime(350);
      schedule.ready();
    }
    expect(schedule.died()).toBe(5);
    schedule.restartAfterDeath();
    expect(schedule.nextRestartAt).toBe(Date.now() + 350);
    vi.advanceTimersByTime(350);
    schedule.ready();
    vi.advanceTimersByTime(1000);
    expect(schedule.died()).toBe(1);
  });

  it('after a missed ping it reconnects, retrying failed starts a little later each time until one is ready', () => {
    const { schedule, restarted } = scheduleWith();
    schedule.ready();
    schedule.healthLost();
    schedule.reconnect();
    expect(schedule.nextRestartAt).toBe(Date.now() + 100);
    vi.advanceTimersByTime(100);
    schedule.startFailed();
    expect(schedule.nextRestartAt).toBe(Date.now() + 200);
    vi.advanceTimersByTime(200);
    schedule.ready();
    schedule.startFailed(); // not reconnecting any more: nothing scheduled
    expect([restarted(), schedule.nextRestartAt]).toEqual([2, undefined]);
  });

  it('without automatic restarts nothing is scheduled; a failed start outside a reconnect is left as it is', () => {
    const { schedule, changes } = scheduleWith({ autoRestart: false });
    schedule.ready();
    schedule.died();
    schedule.restartAfterDeath();
    schedule.healthLost();
    schedule.reconnect();
    schedule.startFailed();
    expect([changes(), schedule.nextRestartAt]).toEqual([0, undefined]);
  });

  it('a manual restart cancels what is due and forgets the history; cancel leaves the counts', () => {
    const { schedule, restarted } = scheduleWith();
    schedule.ready();
    schedule.died();
    schedule.restartAfterDeath();
    vi.advanceTimersByTime(100);
    schedule.ready();
    schedule.died();
    schedule.restartAfterDeath();
    schedule.cancel();
    vi.advanceTimersByTime(1000);
    expect([restarted(), schedule.restarts, schedule.nextRestartAt]).toEqual([1, 1, undefined]);
    schedule.reset();
    expect(schedule.restarts).toBe(0);
    schedule.ready();
    expect(schedule.died()).toBe(1);
  });
});
