import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { isHttps, ownReasons, settledText, timeLeft } from './request-text';

describe('request text', () => {
  it('counts down in seconds, then minutes, then hours', () => {
    expect(timeLeft(10_500, 0)).toBe('11 s left');
    expect(timeLeft(299_000, 0)).toBe('4:59 left');
    expect(timeLeft(60_000, 0)).toBe('1:00 left');
    expect(timeLeft(2 * 3600_000 + 5 * 60_000, 0)).toBe('2 h 5 min left');
    expect(timeLeft(0, 5000)).toBe('0 s left');
  });

  it('says how a request ended', () => {
    expect(settledText({ id: 'a', server: 's', kind: 'sampling', outcome: 'timed-out', message: 'timed out after 300 s with no answer' })).toBe(
      'timed out after 300 s with no answer',
    );
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'declined', message: 'not now' })).toBe('declined: not now');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'declined' })).toBe('Declined.');
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'cancelled', message: 'the server stopped' })).toBe(
      'cancelled: the server stopped',
    );
    expect(settledText({ id: 'a', server: 's', kind: 'elicitation-form', outcome: 'accepted' })).toBe('Sent.');
  });

  it('says what became of an approved sampling request, to the end', () => {
    const approved = { id: 'a', server: 'asker', kind: 'sampling' as const, outcome: 'accepted' as const };
    const follow = (stage: 'model-answered' | 'done' | 'failed' | 'declined' | 'cancelled', message?: string) =>
      settledText(approved, { id: 'a', server: 'asker', kind: 'sampling', stage, ...(message !== undefined ? { message } : {}) });
    expect(settledText(approved)).toBe('Approved: the model is running.');
    expect(follow('model-answered')).toBe('Approved: the model answered; check its answer before it goes to asker.');
    expect(follow('done')).toBe("Done: the model's answer went to asker.");
    expect(follow('failed', 'HTTP 500')).toBe('Approved, but the model failed: HTTP 500');
    expect(follow('declined', 'declined by the user')).toBe("Approved; then the model's answer was declined.");
    expect(follow('cancelled', 'the request was withdrawn')).toBe('Approved; then cancelled: the request was withdrawn');
  });

  it('links only https', () => {
    expect(isHttps('https://example.com')).toBe(true);
    expect(isHttps('http://example.com')).toBe(false);
    expect(isHttps('javascript:alert(1)')).toBe(false);
  });
});

describe("how a request ended, in Chinese (from the queue's codes and the app's own reasons, not the English text)", () => {
  afterEach(() => {
    void i18n.changeLanguage('en');
  });

  it("words the queue's reasons from their code and data, and the app's own answers from their constants", () => {
    const base = { id: 'a', server: 's', kind: 'elicitation-form' } as const;
    expect(
      settledText({ ...base, outcome: 'timed-out', message: 'timed out after 300 s with no answer', reason: { code: 'timed-out', data: { seconds: 300 } } }),
    ).toBe('timed out after 300 s with no answer');
    void i18n.changeLanguage('zh-CN');
    expect(
      settledText({ ...base, outcome: 'timed-out', message: 'timed out after 300 s with no answer', reason: { code: 'timed-out', data: { seconds: 300 } } }),
    ).toBe('300 秒内无人回答，已超时');
    expect(
      settledText({ ...base, outcome: 'timed-out', message: 'timed out after 500 ms with no answer', reason: { code: 'timed-out', data: { ms: 500 } } }),
    ).toBe('500 毫秒内无人回答，已超时');
    expect(settledText({ ...base, outcome: 'cancelled', message: 'withdrawn by the asker', reason: { code: 'withdrawn' } })).toBe('已取消：请求方已撤回');
    expect(settledText({ ...base, outcome: 'cancelled', message: 'Switchboard is shutting down', reason: { code: 'shutting-down' } })).toBe(
      '已取消：Switchboard 正在退出',
    );
    expect(settledText({ ...base, outcome: 'declined', message: 'no one is there to answer', reason: { code: 'no-answerer' } })).toBe('已拒绝：没有人可以回答');
    expect(settledText({ ...base, outcome: 'cancelled', message: 's stopped or went away', reason: { code: 'server-gone', data: { server: 's' } } })).toBe(
      '已取消：s 已停止或断开连接',
    );
    expect(settledText({ ...base, outcome: 'declined', message: ownReasons.declined })).toBe('已拒绝：由你拒绝');
    expect(settledText({ ...base, outcome: 'cancelled', message: ownReasons.dismissed })).toBe('已取消：由你关闭');
    // Someone else's text (a server's, the CLI's) is shown as it is.
    expect(settledText({ ...base, outcome: 'declined', message: 'not now' })).toBe('已拒绝：not now');
  });
});
