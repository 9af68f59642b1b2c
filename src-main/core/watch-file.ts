import type { FSWatcher } from 'chokidar';
import { basename, dirname } from 'node:path';

export interface FileWatch {
  /** Resolves once the watcher is listening (or could not start). */
  readonly ready: Promise<void>;
  /** Stops watching; idempotent. */
  dispose(): Promise<void>;
}

/**
 * Calls `changed` (debounced) when `file` is written, created, renamed over or removed — by this process or any
 * other. The folder is watched, not the file, so editors and atomic writers that save by rename are seen. Once the
 * watcher listens, `changed` runs once more: a change made after the caller's first read but before the watcher was
 * ready would otherwise be missed until the next one (callers compare what they read, so an extra call costs a read).
 * chokidar is loaded here, by what watches (the app, `serve`), not by every one-shot CLI command.
 */
export function watchFile(file: string, changed: () => void, debounceMs = 150): FileWatch {
  let disposed = false;
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  const name = basename(file);
  const folder = dirname(file);
  const ready = import('chokidar')
    .then(({ watch }) => {
      if (disposed) return;
      const w = watch(folder, { depth: 0, ignoreInitial: true, ignored: (path: string) => path !== folder && basename(path) !== name });
      watcher = w;
      w.on('all', () => {
        if (debounce) clearTimeout(debounce);
        debounce = setTimeout(() => {
          debounce = undefined;
          if (!disposed) changed();
        }, debounceMs);
      });
      w.on('error', () => undefined);
      return new Promise<void>((resolve) =>
        w.once('ready', () => {
          if (!disposed) changed();
          resolve();
        }),
      );
    })
    .catch(() => undefined);
  return {
    ready,
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (debounce) clearTimeout(debounce);
      await watcher?.close();
    },
  };
}
