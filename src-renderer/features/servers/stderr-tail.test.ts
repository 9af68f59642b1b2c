import { describe, expect, it } from 'vitest';
import { serverLineCount, tailAddsToReason } from './StderrTail';

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

describe('the stderr tail is shown only when it tells more than the error quoting it', () => {
  const note = '[switchboard] the server exited while the server/discover probe was unanswered; starting it again with the legacy handshake';
  const reason = 'Server "early" exited with code 3 before it was ready (Connection closed). Last stderr lines:\nbad key in settings';

  it('is left out when the reason quotes every line the server wrote, the retry included', () => {
    expect(tailAddsToReason(['bad key in settings', note, 'bad key in settings'], reason)).toBe(false);
    expect(tailAddsToReason(['bad key in settings'], reason)).toBe(false);
  });

  it('is shown when the server wrote a line the reason does not quote', () => {
    expect(tailAddsToReason(['starting', 'bad key in settings'], reason)).toBe(true);
  });

  it('is shown as it is when there is no reason, and never when empty', () => {
    expect(tailAddsToReason([note], undefined)).toBe(true);
    expect(tailAddsToReason([], undefined)).toBe(false);
  });
});
