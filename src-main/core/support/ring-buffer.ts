/**
 * A bounded buffer of text lines: the newest `capacity` lines, each cut to `maxLineLength` characters. `transform`
 * (redaction) is applied to each complete line as it is kept, and to the unfinished last line when it is read, so
 * nothing read from the ring has skipped it.
 */
export class LineRing {
  private readonly lines: string[] = [];
  private partial = '';
  /** Lines pushed since the ring was made (a mark for {@link since}). */
  private pushed = 0;

  constructor(
    private readonly capacity = 200,
    private readonly maxLineLength = 2000,
    private readonly transform: (line: string) => string = (line) => line,
  ) {}

  /** Appends a chunk of text; returns the complete lines it produced, as kept (transformed, then cut). */
  write(chunk: string): string[] {
    const text = this.partial + chunk;
    const parts = text.split(/\r?\n/);
    // The unfinished line is held uncut up to a bound well past the kept length: a cut before the transform could
    // split a secret, leaving a tail the redaction no longer recognises. What is past the bound is never shown.
    this.partial = (parts.pop() ?? '').slice(0, this.maxLineLength * 4);
    return parts.map((line) => this.push(line));
  }

  /** Keeps the unfinished last line as a line (its writer ended: a process exited); returns it as kept, if any. */
  flush(): string | undefined {
    if (this.partial === '') return undefined;
    const line = this.partial;
    this.partial = '';
    return this.push(line);
  }

  /** The unfinished line as it may be shown: transformed whole, then cut. */
  private shownPartial(): string {
    const whole = this.transform(this.partial);
    return whole.length > this.maxLineLength ? `${whole.slice(0, this.maxLineLength)}…` : whole;
  }

  /** Keeps one complete line; returns it as kept. */
  push(line: string): string {
    this.pushed++;
    // Transformed whole, then cut: a secret across the cut is still found.
    const whole = this.transform(line);
    const kept = whole.length > this.maxLineLength ? `${whole.slice(0, this.maxLineLength)}…` : whole;
    this.lines.push(kept);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
    return kept;
  }

  /** A mark: the lines pushed so far. */
  get written(): number {
    return this.pushed;
  }

  /** The lines pushed after `mark` (from {@link written}) that the ring still holds, and the partial line. */
  since(mark: number): string[] {
    const held = Math.min(this.pushed - mark, this.lines.length);
    const lines = held > 0 ? this.lines.slice(-held) : [];
    return this.partial === '' ? lines : [...lines, this.shownPartial()];
  }

  tail(count = this.capacity): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.shownPartial()];
    return all.slice(-count);
  }
}
