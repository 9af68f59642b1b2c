import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader';

function reader(maxBytes: number): { push(chunk: string): void; lines: string[]; dropped: string[] } {
  const lines: string[] = [];
  const dropped: string[] = [];
  const r = new LineReader({ maxBytes, closed: () => false, line: (text) => lines.push(text), oversized: (head) => dropped.push(head) });
  return { push: (chunk) => r.push(chunk), lines, dropped };
}

describe('the stdout line reader', () => {
  it('joins a line split across chunks, trims a trailing CR, and holds an unfinished last line', () => {
    const r = reader(1024);
    r.push('{"a":');
    r.push('1}\r\nsecond\n');
    r.push('third');
    expect(r.lines).toEqual(['{"a":1}', 'second']);
    r.push('\n');
    expect(r.lines).toEqual(['{"a":1}', 'second', 'third']);
  });

  it('drops a line past the limit as it streams, hands on its head, and reads the next line whole', () => {
    const r = reader(16);
    r.push('x'.repeat(10));
    r.push('y'.repeat(10));
    expect(r.dropped).toEqual([`${'x'.repeat(10)}${'y'.repeat(10)}`]);
    r.push('z'.repeat(400));
    r.push('\nok\n');
    expect(r.dropped).toHaveLength(1);
    expect(r.lines).toEqual(['ok']);
    r.push(`${'w'.repeat(500)}\n`);
    expect(r.dropped[1]).toBe('w'.repeat(300));
  });
});
