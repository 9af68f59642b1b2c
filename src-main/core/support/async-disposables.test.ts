import { describe, expect, it } from 'vitest';
import { AsyncDisposableStore } from './async-disposables';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('AsyncDisposableStore', () => {
  it('disposes newest first, each awaited before the next, once', async () => {
    const store = new AsyncDisposableStore();
    const seen: string[] = [];
    store.addFn(() => void seen.push('first made'));
    store.add({
      dispose: async () => {
        seen.push('second starts');
        await tick(20);
        seen.push('second ended');
      },
    });
    store.addFn(() => void seen.push('third made'));
    const once = store.dispose();
    expect(seen).toEqual(['third made']); // the newest, before dispose() returns
    expect(store.dispose()).toBe(once);
    await once;
    expect(seen).toEqual(['third made', 'second starts', 'second ended', 'first made']);
    await store.dispose();
    expect(seen).toHaveLength(4);
  });

  it('one that fails does not stop the rest; the first failure is the rejection', async () => {
    const store = new AsyncDisposableStore();
    const seen: string[] = [];
    store.addFn(() => void seen.push('oldest'));
    store.addFn(() => {
      throw new Error('second');
    });
    store.addFn(async () => {
      await tick(5);
      throw new Error('newest');
    });
    await expect(store.dispose()).rejects.toThrow('newest');
    expect(seen).toEqual(['oldest']);
  });

  it('one added after disposal is disposed at once', async () => {
    const store = new AsyncDisposableStore();
    await store.dispose();
    let disposed = false;
    store.addFn(() => {
      disposed = true;
    });
    expect(store.isDisposed).toBe(true);
    await tick(0);
    expect(disposed).toBe(true);
  });
});
