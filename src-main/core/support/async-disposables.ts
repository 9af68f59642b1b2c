import { DisposableStore } from '../../../src-shared/lifecycle';

/** A resource whose disposal may take time: a session that closes, a process tree that ends, a file that flushes. */
export interface AsyncDisposable {
  dispose(): void | Promise<void>;
}

/**
 * A DisposableStore for resources that end asynchronously: `dispose()` disposes them newest first, each one awaited
 * before the next (what was made from another ends before it), once. One that fails does not stop the rest; the
 * first error is the rejection, after all ran. Added after disposal, a resource is disposed at once.
 */
export class AsyncDisposableStore {
  private readonly store = new DisposableStore();
  /** While `dispose()` collects what the store holds: newest first. */
  private collecting: AsyncDisposable[] | undefined;
  private disposing: Promise<void> | undefined;

  add<T extends AsyncDisposable>(item: T): T {
    this.store.addFn(() => {
      if (this.collecting) this.collecting.push(item);
      else disposeNow(item);
    });
    return item;
  }

  /** Shorthand for `add({ dispose: fn })`. */
  addFn(fn: () => void | Promise<void>): void {
    this.add({ dispose: fn });
  }

  get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  /** The newest is disposed before the first await, i.e. before the caller of `dispose()` goes on. */
  private async disposeAll(): Promise<void> {
    const items: AsyncDisposable[] = [];
    this.collecting = items;
    try {
      this.store.dispose();
    } finally {
      this.collecting = undefined;
    }
    let failure: { error: unknown } | undefined;
    for (const item of items) {
      try {
        await item.dispose();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** One added after disposal: disposed at once; nobody awaits it, so a failure is dropped, not left unhandled. */
function disposeNow(item: AsyncDisposable): void {
  try {
    void Promise.resolve(item.dispose()).catch(() => undefined);
  } catch {
    // nothing to report to
  }
}
