import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { applyEdits, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import type { ServersConfig } from '../../../src-shared/schemas/config';
import { Emitter, type Event } from '../../../src-shared/lifecycle';
import { ConfigError, parseServersConfig, unreadableInfo } from './parse';
import { writeFileAtomicSync } from '../support/data-files';
import { CoreError, messageOf } from '../errors';
import { withFileLock, withFileLockSync } from '../support/file-lock';
import { watchFile, type FileWatch } from '../support/watch-file';

export interface ConfigSnapshot {
  /** The file's text as last read (what is on disk). */
  text: string;
  /** sha256 of `text`: the editor's base for "changed on disk since you opened it". */
  hash: string;
  /** The last config that parsed and validated: what the app runs. */
  config: ServersConfig;
  /** The file's current problem, if it does not parse or validate. */
  error?: ConfigError;
}

export interface ConfigStoreOptions {
  /** How long the watcher waits for a burst of writes to end (ms). */
  debounceMs?: number;
  /** Told when an `onChanged` listener throws (the other listeners still run). */
  onListenerError?: (error: unknown) => void;
}

export const hashText = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The file's own indentation, so our edits look like the user's. */
export function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** A path-based edit to the JSONC text: re-applicable to a newer text, which is how racing edits both survive. */
export type TextEdit = (text: string) => string;

export function setAt(path: JSONPath, value: unknown): TextEdit {
  return (text) => applyEdits(text, modify(text, path, value, { formattingOptions: formattingOf(text) }));
}

/**
 * The servers config file, owned: reads it (JSONC), keeps the last good config when it breaks, watches it
 * (editors that save by rename included), and writes the app's own edits without losing the user's
 * formatting, comments or key order — atomically, with one backup, and never over a file it cannot read.
 */
export class ConfigStore {
  private current: ConfigSnapshot;
  private watcher: FileWatch | undefined;
  private writing: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private readonly debounceMs: number;
  private readonly changed: Emitter<ConfigSnapshot>;
  /** The file changed (externally or by us) and was re-read. */
  readonly onChanged: Event<ConfigSnapshot>;

  constructor(
    readonly file: string,
    options: ConfigStoreOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 150;
    this.changed = new Emitter<ConfigSnapshot>(options.onListenerError);
    this.onChanged = this.changed.event;
    this.current = { text: '', hash: hashText(''), config: { mcpServers: {} } };
    this.current = this.read();
  }

  get backupFile(): string {
    return `${this.file}.bak`;
  }

  snapshot(): ConfigSnapshot {
    return this.current;
  }

  /** Reads the file; a broken file keeps the last good config and records the error. */
  private read(): ConfigSnapshot {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const detail = code === 'ENOENT' ? 'the file does not exist' : `cannot read the file (${code ?? messageOf(error)})`;
      return { text: '', hash: hashText(''), config: this.current.config, error: new ConfigError(this.file, 1, 1, detail, unreadableInfo(code)) };
    }
    const hash = hashText(text);
    try {
      return { text, hash, config: parseServersConfig(text, this.file) };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return { text, hash, config: this.current.config, error };
    }
  }

  /** Re-reads the file now; fires `onChanged` when its text differs from what we knew. */
  refresh(): ConfigSnapshot {
    const next = this.read();
    if (next.hash !== this.current.hash || (next.error === undefined) !== (this.current.error === undefined)) {
      this.current = next;
      this.changed.fire(next);
    }
    return this.current;
  }

  /** Watches the file's folder (so saves by rename are seen), debounced; see watchFile. */
  watch(): void {
    if (this.watcher !== undefined || this.disposed) return;
    this.watcher = watchFile(
      this.file,
      () => {
        if (!this.disposed) this.refresh();
      },
      { debounceMs: this.debounceMs },
    );
  }

  /** Resolves once the watcher is listening (tests). */
  ready(): Promise<void> {
    return this.watcher?.ready ?? Promise.resolve();
  }

  /**
   * Applies an app edit to the file as it is on disk now: an external change made since our last read is
   * re-read first and the edit re-applied on top of it, so neither is lost. Refuses (and writes nothing) when
   * the file on disk does not parse or validate, or when the edit would make it invalid. The read, the edit and the
   * write happen under the file's lock (file-lock.ts): another Switchboard process's edit waits for this one and is
   * applied on top of it, never over it.
   */
  update(edit: TextEdit, what: string): Promise<ConfigSnapshot> {
    const run = this.writing.then(() => withFileLock(this.file, () => this.updateNow(edit, what)));
    this.writing = run.catch(() => undefined);
    return run;
  }

  /**
   * The same, synchronously, for a caller that holds the file's lock around more than the edit (a bundle install:
   * its folder and its entry appear together, or neither does; see Installer).
   */
  updateSync(edit: TextEdit, what: string): ConfigSnapshot {
    return withFileLockSync(this.file, () => this.updateNow(edit, what));
  }

  /** Runs `fn` holding the file's lock (edits made inside it through this store nest in the same hold). */
  locked<T>(fn: () => T): Promise<T> {
    return withFileLock(this.file, fn);
  }

  private updateNow(edit: TextEdit, what: string): ConfigSnapshot {
    for (let attempt = 0; attempt < 5; attempt++) {
      const base = this.refresh();
      if (base.error) {
        throw new CoreError(
          'config-invalid',
          `Cannot ${what}: the config file has a problem (${base.error.message}). Fix it first — Switchboard never writes over a file it cannot read.`,
          { data: { ...locationOf(base.error), ...aroundDetail(base.error, 'fix-first') } },
        );
      }
      const text = edit(base.text);
      try {
        parseServersConfig(text, this.file);
      } catch (error) {
        const detail = error instanceof ConfigError ? error.detail : messageOf(error);
        throw new CoreError(
          'invalid-argument',
          `Cannot ${what}: the result would not be a valid config (${detail}). Nothing was written.`,
          error instanceof ConfigError ? { data: { ...locationOf(error), ...aroundDetail(error, 'would-be-invalid') } } : undefined,
        );
      }
      // One last look: an editor's save (which takes no lock) that landed while we computed means we start over.
      if (hashText(readTextOrEmpty(this.file)) !== base.hash) continue;
      this.write(text, base.text);
      return this.refresh();
    }
    throw new CoreError('internal', `Cannot ${what}: the config file keeps changing on disk. Try again in a moment.`, {
      data: { reason: 'config-keeps-changing', file: this.file },
    });
  }

  /** Saves text from the raw editor, which was opened on `baseHash`. */
  saveText(text: string, baseHash: string): Promise<ConfigSnapshot> {
    const run = this.writing.then(() =>
      withFileLock(this.file, () => {
        const base = this.refresh();
        if (base.hash !== baseHash) {
          throw new CoreError(
            'config-invalid',
            'The config file changed on disk since the editor loaded it. Reload to see that change (copy your text first), then save again.',
            { data: { reason: 'changed-on-disk', file: this.file } },
          );
        }
        try {
          parseServersConfig(text, this.file);
        } catch (error) {
          if (error instanceof ConfigError) throw new CoreError('config-invalid', error.message, { data: configErrorData(error) });
          throw error;
        }
        this.write(text, base.text);
        return this.refresh();
      }),
    );
    this.writing = run.catch(() => undefined);
    return run;
  }

  private write(text: string, previous: string): void {
    // Sync and by hand (temp file of this pid, rename): no signal hooks, so a SIGTERM arriving now still ends the
    // host through its clean shutdown; a temp left by a SIGKILL is removed at the next start. These files are small.
    // The file keeps its own permissions (0600 when we created it) and the backup gets them too (a 0600 config must
    // not leave a world-readable copy).
    const mode = (statSync(this.file, { throwIfNoEntry: false })?.mode ?? 0o600) & 0o777;
    if (previous !== '') writeFileAtomicSync(this.backupFile, previous, { mode });
    writeFileAtomicSync(this.file, text, { mode });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.watcher?.dispose();
    this.changed.dispose();
  }
}

function readTextOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** HostError.data for a located config problem: `{ file, line, column, detail }`. */
function locationOf(error: ConfigError): Record<string, unknown> {
  return { file: error.file, line: error.line, column: error.column, detail: error.detail, ...(error.info ? { detailInfo: error.info } : {}) };
}

/**
 * For an error that says something around the config's problem (`Cannot save …: …`): `reason` is what it says
 * (`errors.<code>.<reason>`), and the problem's own reason and data come along as `detailReason` and the rest
 * (worded as `configDetail.reason.<detailReason>`). Nothing when the problem has no reason of its own (`schema`).
 */
function aroundDetail(error: ConfigError, reason: string): Record<string, unknown> {
  if (error.info === undefined || error.info.reason === 'schema') return {};
  const { reason: detailReason, ...rest } = error.info;
  return { ...rest, reason, detailReason };
}

/**
 * A HostError's data for a config-invalid error that is the config's own problem (nothing else said around it):
 * where it is, and what it is as a reason code with its data (ConfigDetailInfo, also flat, so the UI and CLI word
 * it as `errors.config-invalid.<reason>`).
 */
export function configErrorData(error: ConfigError): Record<string, unknown> {
  return { ...(error.info ?? {}), ...locationOf(error) };
}
