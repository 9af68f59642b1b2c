import type { FSWatcher } from 'chokidar';
import { basename, dirname } from 'node:path';

export interface FileWatch {
  /** Resolves once the watcher is listening, could not start, or was disposed first. */
  readonly ready: Promise<void>;
  /** Stops watching; idempotent. */
  dispose(): Promise<void>;
}

export interface WatchFileOptions {
  /** Quiet time after the last event before `changed` runs (default 150 ms). */
  debounceMs?: number;
  /** What `changed` threw (it runs from a timer: nothing else would catch it). Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Calls `changed` (debounced) when `file` is written, created, renamed over or removed — by this process or any
 * other. The folder is watched, not the file, so editors and atomic writers that save by rename are seen. Once the
 * watcher listens, `changed` runs once more: a change made after the caller's first read but before the watcher was
 * ready would otherwise be missed until the next one (callers compare what they read, so an extra call costs a read).
 * chokidar is loaded here, by what watches (the app, `serve`), not by every one-shot CLI command.
 */
export function watchFile(file: string, changed: () => void, options: WatchFileOptions = {}): FileWatch {
  let disposed = false;
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let settle: () => void = () => undefined;
  const name = basename(file);
  const folder = dirname(file);
  const run = (): void => {
    if (disposed) return;
    try {
      changed();
    } catch (error) {
      options.onError?.(error);
    }
  };
  const ready = new Promise<void>((resolve) => {
    settle = resolve;
    import('chokidar')
      .then(({ watch }) => {
        if (disposed) return resolve();
        const w = watch(folder, { depth: 0, ignoreInitial: true, ignored: (path: string) => path !== folder && basename(path) !== name });
        watcher = w;
        w.on('all', () => {
          if (debounce) clearTimeout(debounce);
          debounce = setTimeout(() => {
            debounce = undefined;
            run();
          }, options.debounceMs ?? 150);
        });
        w.on('error', () => undefined);
        w.once('ready', () => {
          run();
          resolve();
        });
      })
      .catch(() => resolve());
  });
  return {
    ready,
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (debounce) clearTimeout(debounce);
      settle();
      await watcher?.close();
    },
  };
}
