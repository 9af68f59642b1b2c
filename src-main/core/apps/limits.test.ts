import { describe, expect, it } from 'vitest';
import { jsonBytes, Strikes, TokenBucket } from './limits';

describe('app limits', () => {
  it('a token bucket allows a burst, then the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(20, 40, () => now);
    for (let i = 0; i < 40; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now += 100; // 2 tokens refilled
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    now += 60_000; // never more than the burst
    let taken = 0;
    while (bucket.take()) taken += 1;
    expect(taken).toBe(40);
  });

  it('strikes count within their window only', () => {
    let now = 0;
    const strikes = new Strikes(3, 10_000, () => now);
    expect([strikes.add(), strikes.add()]).toEqual([false, false]);
    now += 10_000;
    expect([strikes.add(), strikes.add(), strikes.add()]).toEqual([false, false, true]);
  });

  it('measures JSON in UTF-8 bytes, and says when a value is not JSON', () => {
    expect(jsonBytes({ a: 'é' })).toBe(10);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonBytes(cycle)).toBeUndefined();
  });
});
