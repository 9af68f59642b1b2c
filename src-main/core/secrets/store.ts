import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/data-files';
import { withFileLockSync } from '../support/file-lock';

/**
 * Where `${secret:NAME}` values live. The desktop app encrypts them with the OS keychain (Electron
 * safeStorage); the CLI and headless mode keep them in a 0600 file, and say so.
 */
export interface SecretStore {
  readonly backing: 'keychain' | 'file' | 'memory';
  /** Shown to the user where it matters (e.g. "stored in a 0600 file, not in the OS keychain"). */
  readonly warning?: string;
  /** The file the secrets are kept in (backing `file`): the UI and CLI word `warning` in their language with it. */
  readonly location?: string;
  list(): string[];
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): boolean;
  /**
   * Moves whenever the values this store returns change: its own writes, and (a file-backed store) another process's
   * writes it has read. A store that counts nothing (the desktop's keychain store) leaves it out; the host's
   * ObservedSecretStore counts what is changed through it either way.
   */
  readonly generation?: number;
  /** A file-backed store: moves only when a read finds the file changed by another process (see followSecretsFile). */
  readonly changesRead?: number;
}

/** A store that passes everything on to another; subclasses change what they must. */
export class DelegatingSecretStore implements SecretStore {
  constructor(protected readonly inner: SecretStore) {}

  get backing(): SecretStore['backing'] {
    return this.inner.backing;
  }
  get warning(): string | undefined {
    return this.inner.warning;
  }
  get location(): string | undefined {
    return this.inner.location;
  }
  get generation(): number | undefined {
    return this.inner.generation;
  }
  get changesRead(): number | undefined {
    return this.inner.changesRead;
  }
  list(): string[] {
    return this.inner.list();
  }
  get(name: string): string | undefined {
    return this.inner.get(name);
  }
  set(name: string, value: string): void {
    this.inner.set(name, value);
  }
  delete(name: string): boolean {
    return this.inner.delete(name);
  }
}

/**
 * The host's view of its store: each change made through it (the settings panel, an import, an install, a sign-in)
 * is announced to `changed` once made, and `generation` counts those and what the store itself counts (a file-backed
 * store reading another process's change), so that whoever reads values (the trace) can tell it must read again.
 */
export class ObservedSecretStore extends DelegatingSecretStore {
  private writes = 0;

  constructor(
    inner: SecretStore,
    private readonly changed: () => void,
  ) {
    super(inner);
  }

  override get generation(): number {
    return this.writes + (this.inner.generation ?? 0);
  }
  override set(name: string, value: string): void {
    super.set(name, value);
    this.writes++;
    this.changed();
  }
  override delete(name: string): boolean {
    const had = super.delete(name);
    if (had) {
      this.writes++;
      this.changed();
    }
    return had;
  }
}

export const secretNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export function assertSecretName(name: string): void {
  if (!secretNamePattern.test(name)) {
    throw new Error(`"${name}" is not a usable secret name: use letters, digits, _ . - (starting with a letter or _), at most 128 characters.`);
  }
}

export class MemorySecretStore implements SecretStore {
  readonly backing = 'memory' as const;
  private readonly values = new Map<string, string>();
  list(): string[] {
    return [...this.values.keys()].sort();
  }
  get(name: string): string | undefined {
    return this.values.get(name);
  }
  set(name: string, value: string): void {
    assertSecretName(name);
    this.values.set(name, value);
  }
  delete(name: string): boolean {
    return this.values.delete(name);
  }
}

/** A change refused because the secrets file cannot be read (`why`: the reader's own words), so it is not written over. */
export class SecretsFileUnreadableError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
    /** What kind of problem `why` is: not JSON, JSON but not an object of names to values, or the read failed. */
    readonly whyKind: 'not-json' | 'not-object' | 'read-failed',
  ) {
    super(
      `${file} cannot be read (${why}), so Switchboard does not write over it. Fix the file (a JSON object of secret names to values) or move it away, then try again.`,
    );
    this.name = 'SecretsFileUnreadableError';
  }
}

/**
 * CLI / headless: a JSON file readable only by the user (0600). Not keychain-backed, and it says so.
 *
 * Several processes share the file (a `serve` running while `switchboard login` or `secret set` runs in a terminal),
 * so the file, not this object, is the truth: every read sees the file as it is now (re-parsed only when its
 * modification time or size changed), and every change is applied to the file's current values, read under the
 * file's lock (file-lock.ts), and written back atomically — one process's change never drops another's, and a token
 * stored by `login` is seen by a running `serve` at once.
 */
export class FileSecretStore implements SecretStore {
  readonly backing = 'file' as const;
  readonly warning: string;
  readonly location: string;
  private values: Record<string, string> = {};
  private changes = 0;
  private read = 0;
  /** The file's mtime and size when `values` were read from it (undefined: not read yet, or no file). */
  private seen: string | undefined;
  /** Why the file could not be read last time (then no change is written over it). */
  private unreadable: { why: string; kind: SecretsFileUnreadableError['whyKind'] } | undefined;

  constructor(private readonly file: string) {
    this.location = file;
    this.warning = `Secrets are kept in ${file} (readable only by you, mode 0600), not in the OS keychain. The desktop app encrypts them with the keychain instead.`;
    this.refresh();
  }

  list(): string[] {
    this.refresh();
    return Object.keys(this.values).sort();
  }
  get(name: string): string | undefined {
    this.refresh();
    return Object.hasOwn(this.values, name) ? this.values[name] : undefined;
  }
  set(name: string, value: string): void {
    assertSecretName(name);
    this.change((values) => {
      values[name] = value;
      return true;
    });
  }
  delete(name: string): boolean {
    return this.change((values) => {
      if (!Object.hasOwn(values, name)) return false;
      delete values[name];
      return true;
    });
  }

  /**
   * Applies `edit` to the file's current values, read under the file's lock (another process's `secret set` waits,
   * and is not written over); writes them back when it changed something.
   */
  private change(edit: (values: Record<string, string>) => boolean): boolean {
    return withFileLockSync(this.file, () => {
      this.seen = undefined; // read afresh, whatever the stat says: another process may have written in the same tick
      this.refresh();
      if (this.unreadable !== undefined) {
        throw new SecretsFileUnreadableError(this.file, this.unreadable.why, this.unreadable.kind);
      }
      const values = { ...this.values };
      if (!edit(values)) return false;
      writeFileAtomicSync(this.file, JSON.stringify(values, null, 2));
      this.keep(values, false);
      this.seen = this.stamp();
      return true;
    });
  }

  private stamp(): string | undefined {
    try {
      const stat = statSync(this.file);
      return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      return undefined;
    }
  }

  private refresh(): void {
    const stamp = this.stamp();
    if (stamp !== undefined && stamp === this.seen) return;
    this.seen = stamp;
    this.unreadable = undefined;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.keep({}, true);
      else this.unreadable = { why: (error as Error).message, kind: 'read-failed' };
      return;
    }
    // Someone's hand edit went wrong: keep what was read last, and refuse to write over the file (see change()).
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.unreadable = { why: (error as Error).message, kind: 'not-json' };
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      this.unreadable = { why: 'it is not a JSON object of names to values', kind: 'not-object' };
      return;
    }
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') values[k] = v;
    this.keep(values, true);
  }

  /** Moves when this process writes, and when a read (list, get) finds the file changed by another process. */
  get generation(): number {
    return this.changes;
  }

  /** Moves when a read (list, get, or the read before a write) finds values this process did not write. */
  get changesRead(): number {
    return this.read;
  }

  private keep(values: Record<string, string>, fromFile: boolean): void {
    const before = this.values;
    this.values = values;
    const keys = Object.keys(values);
    if (keys.length === Object.keys(before).length && keys.every((k) => before[k] === values[k])) return;
    this.changes++;
    if (fromFile) this.read++;
  }
}
