// A call's timeout while its server waits on the person: a legacy server that sends `elicitation/create` or
// `sampling/createMessage` from inside a `tools/call` cannot answer the call before the person has answered, so the
// call's timeout (here 1.5 s) is held while the request is open (the request queue's own deadline bounds that wait);
// a call whose server just stays silent still times out. On 2026-07-28 no request is in flight while a round is
// answered, so the rounds are not cut short either (checked here too).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingRequestView, RequestAnswer } from '../../../src-shared/contract/requests';
import { askingHosts, askingServer, textOf, type AskingHost } from '../../test-support/asking-host';

const start = askingHosts();
const asking = { command: process.execPath, args: [askingServer] };
const tiny = { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'tiny-server.mjs'), '--name=tiny'] };
const requestTimeoutMs = 1500;
/** The person takes longer than the call's timeout to answer. */
const answerAfterMs = 3500;

/** A person who answers each request only after `answerAfterMs`. */
function slowPerson(answer: (r: PendingRequestView) => RequestAnswer): { person: () => undefined; attach: (h: AskingHost) => void } {
  return {
    person: () => undefined,
    attach: ({ host }) => {
      host.requests.onDidChange((change) => {
        const added = change.added;
        if (added) setTimeout(() => host.requests.answer(added.id, answer(added)), answerAfterMs);
      });
    },
  };
}

const form = (r: PendingRequestView): RequestAnswer =>
  r.kind === 'elicitation-form' ? { action: 'accept', content: { content: { name: 'Slow Sam' } } } : { action: 'accept' };

describe('a call waiting on the person', () => {
  it('legacy: the call that caused an elicitation waits for the answer past its own timeout', async () => {
    const slow = slowPerson(form);
    const h = await start({ servers: { asking }, versionMode: 'legacy', requestTimeoutMs, person: slow.person });
    slow.attach(h);
    const result = await h.host.api['tools:call']({ server: 'asking', tool: 'ask-form', args: {}, callId: 'slow-form' });
    expect(textOf(result)).toMatch(/^form accepted: .*"name":"Slow Sam"/);
    expect(h.seen.map((r) => [r.kind, r.origin.callId])).toEqual([['elicitation-form', 'slow-form']]);
  });

  it('legacy: the same for a sampling request with the model run (both the request and its result reviewed slowly)', async () => {
    const slow = slowPerson(() => ({ action: 'accept' }));
    const h = await start({ servers: { asking }, versionMode: 'legacy', requestTimeoutMs, person: slow.person });
    slow.attach(h);
    const result = await h.host.api['tools:call']({ server: 'asking', tool: 'ask-model', args: { topic: 'patience' } });
    expect(textOf(result)).toBe('model said: A fine answer from the fake model.');
    expect(h.seen.map((r) => r.kind)).toEqual(['sampling', 'sampling-result']);
  });

  it('a call whose server stays silent still times out at its timeout', async () => {
    const h = await start({ servers: { tiny }, versionMode: 'legacy', requestTimeoutMs });
    await expect(h.host.api['tools:call']({ server: 'tiny', tool: 'sleep', args: { ms: answerAfterMs, silent: true }, callId: 'silent' })).rejects.toThrow(
      /time/i,
    );
    expect(h.seen).toEqual([]);
  });

  it('2026-07-28: an input_required round answered slowly is not cut short', async () => {
    const slow = slowPerson(form);
    const h = await start({ servers: { asking }, versionMode: 'auto', requestTimeoutMs, person: slow.person });
    slow.attach(h);
    expect((await h.host.api['servers:list']())[0]).toMatchObject({ status: 'ready', era: 'modern' });
    const result = await h.host.api['tools:call']({ server: 'asking', tool: 'ask-form', args: {}, callId: 'slow-mrtr' });
    expect(textOf(result)).toMatch(/^form accepted: .*"name":"Slow Sam"/);
    expect(h.seen.map((r) => [r.kind, r.origin.callId])).toEqual([['elicitation-form', 'slow-mrtr']]);
  });
});
