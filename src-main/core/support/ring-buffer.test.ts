import { describe, expect, it } from 'vitest';
import { LineRing } from './ring-buffer';

const secret = 'sk-0123456789abcdef0123456789';
const redact = (line: string): string => line.replaceAll(secret, '[redacted]');

describe('LineRing', () => {
  it('redacts a secret that arrives split across chunks past the kept length, wherever it is read', () => {
    const ring = new LineRing(10, 20, redact);
    // The unfinished line is longer than the kept 20 characters, and the secret straddles that length.
    ring.write(`${'x'.repeat(10)}${secret.slice(0, 12)}`);
    ring.write(secret.slice(12));
    for (const shown of [ring.tail(), ring.since(0)]) expect(shown.join('\n')).not.toMatch(/6789|abcdef/);
    const [line] = ring.write(' done\n');
    expect(line).toBe(`${'x'.repeat(10)}[redacted]…`);
    expect(ring.tail()).toEqual([line]);
  });

  it('flush keeps an unfinished last line as a line, once', () => {
    const ring = new LineRing(10, 100, redact);
    expect(ring.flush()).toBeUndefined();
    ring.write(`boom ${secret}`);
    expect(ring.written).toBe(0);
    expect(ring.flush()).toBe('boom [redacted]');
    expect(ring.written).toBe(1);
    expect(ring.flush()).toBeUndefined();
    expect(ring.tail()).toEqual(['boom [redacted]']);
  });
});
