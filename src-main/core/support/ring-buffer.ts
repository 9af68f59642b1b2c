/** A bounded buffer of text lines: the newest `capacity` lines, each cut to `maxLineLength` characters. */
export class LineRing {
  private readonly lines: string[] = [];
  private partial = '';
  /** Lines pushed since the ring was made (a mark for {@link since}). */
  private pushed = 0;

  constructor(
    private readonly capacity = 200,
    private readonly maxLineLength = 2000,
  ) {}

  /** Appends a chunk of text; returns the complete lines it produced. */
  write(chunk: string): string[] {
    const text = this.partial + chunk;
    const parts = text.split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-this.maxLineLength);
    for (const line of parts) this.push(line);
    return parts;
  }

  push(line: string): void {
    this.pushed++;
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  /** A mark: the lines pushed so far. */
  get written(): number {
    return this.pushed;
  }

  /** The lines pushed after `mark` (from {@link written}) that the ring still holds, and the partial line. */
  since(mark: number): string[] {
    const held = Math.min(this.pushed - mark, this.lines.length);
    const lines = held > 0 ? this.lines.slice(-held) : [];
    return this.partial === '' ? lines : [...lines, this.partial];
  }

  tail(count = this.capacity): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial];
    return all.slice(-count);
  }
}
