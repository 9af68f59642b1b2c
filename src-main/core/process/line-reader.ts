/** The longest the reader works in one turn of the event loop before it lets other work run. */
const readSliceMs = 10;

/** What a {@link LineReader} reads from: the child's stdout, paused while the reader yields. */
export interface PausableStream {
  pause(): unknown;
  resume(): unknown;
}

export interface LineReaderOptions {
  /** The largest line accepted, in UTF-8 bytes. */
  maxBytes: number;
  /** Paused while reading yields to the event loop. */
  stream?: PausableStream;
  /** Once this says true, what is left unread is dropped. */
  closed: () => boolean;
  /** A whole line (without its newline or a trailing CR). */
  line: (text: string) => void;
  /** A line that grew past `maxBytes`: its first characters (at most 300); the rest is dropped up to its newline. */
  oversized: (head: string) => void;
}

/**
 * Splits a child's stdout into lines, linear in the bytes read: only the new chunk is searched for newlines, an
 * unfinished line is kept as a list of chunks and joined once when its newline arrives, and a line that grows past
 * `maxBytes` is dropped as it streams instead of accumulating.
 */
export class LineReader {
  /** The unfinished line, as the chunks that brought it: each chunk is scanned once, joined once. */
  private partial: string[] = [];
  private partialBytes = 0;
  /** An oversized line is streaming past: dropped up to its newline. */
  private discarding = false;
  /** Reading yields to the event loop after `readSliceMs` of work in one turn (see pump()). */
  private sliceStart: number | undefined;
  private readPaused = false;
  /** Chunks read but not yet worked through (the first from `backlogAt`), while reading yields. */
  private backlog: string[] = [];
  private backlogAt = 0;

  constructor(private readonly options: LineReaderOptions) {}

  push(chunk: string): void {
    this.backlog.push(chunk);
    if (this.backlog.length === 1 && !this.readPaused) this.pump();
  }

  /**
   * libuv hands over up to 32 pipe reads (2 MB, ~20,000 small messages) in one go. The reader works through them
   * for at most `readSliceMs` per turn of the event loop; then it pauses stdout, keeps the rest of the chunk, and
   * carries on in the next turn, so a flood of notifications never stalls the bridge or the UI (and while it is
   * paused the server waits on its pipe instead of our memory growing).
   */
  private pump(): void {
    if (this.sliceStart === undefined) {
      this.sliceStart = performance.now();
      setImmediate(() => {
        this.sliceStart = undefined;
      });
    }
    const sliceStart = this.sliceStart;
    while (this.backlog.length > 0 && !this.options.closed()) {
      const chunk = this.backlog[0] ?? '';
      const stop = this.scan(chunk, this.backlogAt, sliceStart);
      if (stop !== -1) {
        this.backlogAt = stop;
        break;
      }
      this.backlog.shift();
      this.backlogAt = 0;
    }
    if (this.options.closed()) this.backlog = [];
    else if (this.backlog.length > 0 || performance.now() - sliceStart > readSliceMs) this.yieldReading();
  }

  private yieldReading(): void {
    if (this.readPaused) return;
    const stream = this.options.stream;
    this.readPaused = true;
    stream?.pause();
    setImmediate(() => {
      this.readPaused = false;
      if (this.options.closed()) return;
      if (this.backlog.length > 0) this.pump();
      if (!this.readPaused) stream?.resume();
    });
  }

  /**
   * Reads the lines of `chunk` from `from`. Returns -1 when the chunk is done (its unfinished last line held), or
   * the offset to go on from when this turn's time slice ran out first.
   */
  private scan(chunk: string, from: number, sliceStart: number): number {
    let start = from;
    let lines = 0;
    let newline: number;
    while ((newline = chunk.indexOf('\n', start)) !== -1) {
      if (this.discarding) {
        this.discarding = false; // the oversized line ends here
      } else if (this.partial.length === 0) {
        // (The quick bound first: no closure per line for the common short one.)
        if ((newline - start) * 3 <= this.options.maxBytes || this.fits(newline - start, () => chunk.slice(start, newline)))
          this.options.line(trimCr(chunk.slice(start, newline)));
        else this.oversized(chunk.slice(start, Math.min(newline, start + 300)));
      } else {
        const last = chunk.slice(start, newline);
        if (this.fits(last.length, () => last, this.partialBytes)) {
          this.partial.push(last);
          const text = this.partial.join('');
          this.partial = [];
          this.partialBytes = 0;
          this.options.line(trimCr(text));
        } else {
          this.oversized(this.head(last));
        }
      }
      start = newline + 1;
      if (++lines % 16 === 0 && start < chunk.length && performance.now() - sliceStart > readSliceMs) return start;
    }
    if (start >= chunk.length || this.discarding) return -1;
    const rest = start === 0 ? chunk : chunk.slice(start);
    const bytes = Buffer.byteLength(rest);
    if (this.partialBytes + bytes > this.options.maxBytes) {
      this.oversized(this.head(rest));
      this.discarding = true;
      return -1;
    }
    this.partial.push(rest);
    this.partialBytes += bytes;
    return -1;
  }

  /** Whether `held` bytes plus a piece of `length` UTF-16 units fit the limit (bytes counted only when they might not). */
  private fits(length: number, piece: () => string, held = 0): boolean {
    const room = this.options.maxBytes - held;
    return length * 3 <= room || Buffer.byteLength(piece()) <= room;
  }

  /** The first characters of the held line, followed by `next`. */
  private head(next: string): string {
    let head = '';
    for (const piece of [...this.partial, next]) {
      head += piece.slice(0, 300 - head.length);
      if (head.length >= 300) break;
    }
    return head;
  }

  /** Forgets the held line and hands on the head of the one dropped. */
  private oversized(first: string): void {
    this.partial = [];
    this.partialBytes = 0;
    this.options.oversized(first.slice(0, 300));
  }
}

function trimCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
