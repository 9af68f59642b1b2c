import { describe, expect, it } from 'vitest';
import { serverLineCount } from './StderrTail';

describe('the stderr summary counts what the server wrote', () => {
  it("leaves the host's own notes out of the count", () => {
    const tail = [
      'boom',
      '[switchboard] the server exited while the server/discover probe was unanswered (some legacy servers quit on it); starting it again with the legacy handshake',
      'boom',
    ];
    expect(serverLineCount(tail)).toBe(2);
    expect(serverLineCount(['one line'])).toBe(1);
    expect(serverLineCount(['[switchboard] note only'])).toBe(0);
  });
});
