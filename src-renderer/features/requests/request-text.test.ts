import { describe, expect, it } from 'vitest';
import { isHttps, settledText, timeLeft } from './request-text';

describe('request text', () => {
  it('counts down in seconds, then minutes, then hours', () => {
    expect(timeLeft(10_500, 0)).toBe('11 s left');
    expect(timeLeft(299_000, 0)).toBe('4:59 left');
    expect(timeLeft(60_000, 0)).toBe('1:00 left');
    expect(timeLeft(2 * 3600_000 + 5 * 60_000, 0)).toBe('2 h 5 min left');
    expect(timeLeft(0, 5000)).toBe('0 s left');
  });

  it('says how a request ended', () => {
    expect(settledText({ id: 'a', server: 's', kind: 'sampling', outcome: 'timed-out', message: 'timed out after 300 s with no answer' })).toBe('timed out after 300 s with no answer');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'declined', message: 'not now' })).toBe('declined: not now');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'declined' })).toBe('Declined.');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'cancelled', message: 'the server stopped' })).toBe('cancelled: the server stopped');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'accepted' })).toBe('Sent.');
  });

  it('links only https', () => {
    expect(isHttps('https://example.com')).toBe(true);
    expect(isHttps('http://example.com')).toBe(false);
    expect(isHttps('javascript:alert(1)')).toBe(false);
  });
});
