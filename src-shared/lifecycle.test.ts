import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, toDisposable } from './lifecycle';

describe('toDisposable', () => {
  it('runs its function once', () => {
    let runs = 0;
    const d = toDisposable(() => runs++);
    d.dispose();
    d.dispose();
    expect(runs).toBe(1);
  });
});

describe('DisposableStore', () => {
  it('disposes in reverse order of registration, once', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.addFn(() => order.push('process'));
    store.add(toDisposable(() => order.push('session')));
    store.dispose();
    store.dispose();
    expect(order).toEqual(['session', 'process']);
    expect(store.isDisposed).toBe(true);
  });

  it('disposes at once what is added after disposal', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.addFn(() => (disposed = true));
    expect(disposed).toBe(true);
  });

  it('runs every item even when one throws, then rethrows the first error', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.addFn(() => order.push('a'));
    store.addFn(() => {
      throw new Error('b failed');
    });
    store.addFn(() => order.push('c'));
    expect(() => store.dispose()).toThrow('b failed');
    expect(order).toEqual(['c', 'a']);
  });

  it('clear() empties it and keeps it usable', () => {
    const store = new DisposableStore();
    let runs = 0;
    store.addFn(() => runs++);
    store.clear();
    store.addFn(() => runs++);
    expect(runs).toBe(1);
    store.dispose();
    expect(runs).toBe(2);
  });
});

describe('Emitter', () => {
  it('delivers to each listener until it unsubscribes', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const sub = emitter.event((n) => seen.push(n));
    const twice = emitter.event((n) => seen.push(n * 10));
    emitter.fire(1);
    sub.dispose();
    emitter.fire(2);
    twice.dispose();
    emitter.fire(3);
    expect(seen).toEqual([1, 10, 20]);
    expect(emitter.hasListeners).toBe(false);
  });

  it('reports a throwing listener and still calls the others', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<string>((error) => errors.push(error));
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('bad listener');
    });
    emitter.event((s) => seen.push(s));
    emitter.fire('x');
    expect(seen).toEqual(['x']);
    expect(errors).toHaveLength(1);
  });

  it('drops listeners on dispose and ignores later subscriptions', () => {
    const emitter = new Emitter<void>();
    let calls = 0;
    emitter.event(() => calls++);
    emitter.dispose();
    emitter.event(() => calls++).dispose();
    emitter.fire();
    expect(calls).toBe(0);
  });
});
