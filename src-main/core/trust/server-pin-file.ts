import { readFileSync, renameSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/data-files';
import { withFileLockSync } from '../support/file-lock';

/*
 * One 0600 JSON file of pins keyed by server (`{"version": 1, "servers": {NAME: …}}`), shared by the tool pins and
 * the skill pins. It is read before each use and, under its lock, before each write, so the app and a CLI sharing the
 * data folder keep each other's decisions. Without a file (tests) the pins live in memory.
 */

interface PinFile<T> {
  version: 1;
  servers: Record<string, T>;
}

const emptyFile = <T>(): PinFile<T> => ({ version: 1, servers: {} });

function isPinFile<T>(value: unknown): value is PinFile<T> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { version?: unknown; servers?: unknown };
  return v.version === 1 && typeof v.servers === 'object' && v.servers !== null;
}

export class ServerPinFile<T> {
  private memory: PinFile<T> = emptyFile();

  /** `what`: how the warning about a damaged file names its contents ("pinned skills"). */
  constructor(
    readonly file: string | undefined,
    private readonly what: string,
    protected readonly warn: (line: string) => void = () => undefined,
  ) {}

  private read(): PinFile<T> {
    if (this.file === undefined) return this.memory;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return emptyFile();
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isPinFile<T>(parsed)) return parsed;
    } catch {
      // handled below
    }
    // A damaged file is kept aside (not silently lost); every server is pinned again on its next listing.
    const aside = `${this.file}.damaged`;
    try {
      renameSync(this.file, aside);
      this.warn(`[switchboard] ${this.file} could not be read as ${this.what}; moved it to ${aside} and starting over`);
    } catch {
      // someone else moved it
    }
    return emptyFile();
  }

  /** The server's entry as stored (unchecked: callers check its shape). */
  protected stored(name: string): unknown {
    return this.read().servers[name];
  }

  /** Read, change one server's pins, write (atomically, 0600) — under the file's lock, so another process's pins stay. */
  update(name: string, change: (pins: T | undefined) => T): T {
    const path = this.file;
    const apply = (): { file: PinFile<T>; next: T } => {
      const file = this.read();
      const next = change(file.servers[name]);
      file.servers[name] = next;
      return { file, next };
    };
    if (path === undefined) {
      const { file, next } = apply();
      this.memory = file;
      return next;
    }
    return withFileLockSync(path, () => {
      const { file, next } = apply();
      writeFileAtomicSync(path, `${JSON.stringify(file, null, 1)}\n`);
      return next;
    });
  }
}
