/*
 * Ownership of resources, after VS Code's base/common/lifecycle.ts in small: whatever holds a resource hands back
 * a Disposable, owners collect them in a DisposableStore, and a store disposes in reverse order of registration
 * (a session before its process tree). Zod-free, no node: or DOM: main, preload and renderer all use it.
 */

export interface Disposable {
  dispose(): void;
}

/** A Disposable that runs `fn` once, however often it is disposed. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * Owns Disposables; `dispose()` disposes them newest first, once (idempotent). One that throws does not stop the
 * rest; the first error is rethrown after all ran. Added after disposal, a Disposable is disposed at once.
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposedFlag = false;

  get isDisposed(): boolean {
    return this.disposedFlag;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposedFlag) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Shorthand for `add(toDisposable(fn))`. */
  addFn(fn: () => void): Disposable {
    return this.add(toDisposable(fn));
  }

  /** Disposes what it holds now and stays usable (for a session that is replaced). */
  clear(): void {
    const items = this.items.reverse();
    this.items = [];
    runAll(items);
  }

  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    this.clear();
  }
}

function runAll(items: readonly Disposable[]): void {
  let first: { error: unknown } | undefined;
  for (const item of items) {
    try {
      item.dispose();
    } catch (error) {
      first ??= { error };
    }
  }
  if (first) throw first.error;
}

export type Listener<T> = (event: T) => void;
/** Subscribe to an Emitter; the Disposable unsubscribes. */
export type Event<T> = (listener: Listener<T>) => Disposable;

/** Typed event source: `event(listener)` subscribes, `fire(value)` calls each listener (a throwing one is reported, not fatal). */
export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();
  private disposedFlag = false;

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposedFlag) return toDisposable(() => undefined);
    // A wrapper, so the same function subscribed twice is two subscriptions.
    const entry: Listener<T> = (value) => listener(value);
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.disposedFlag = true;
    this.listeners.clear();
  }
}
