import { describe, expect, it, vi } from 'vitest';
import type { PendingRequestView } from '../../src-shared/host-api';
import { bindHost } from './bind-host';
import { fakeHost } from './fake-host';
import { createAppStore } from './index';
import { MAX_SETTLED, shownByChat } from './requests-slice';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 8; i++) await Promise.resolve();
};

const sampling = (id: string, callId?: string): PendingRequestView => ({
  id,
  server: 'asker',
  title: 'asker asks to run a model',
  createdAt: 1000,
  deadline: 61_000,
  origin: callId ? { callId } : {},
  kind: 'sampling',
  payload: { messages: [{ role: 'user', text: 'Say hi', content: { type: 'text', text: 'Say hi' } }], maxTokens: 100, models: ['openai:fake'] },
});
const urlRequest = (id: string): PendingRequestView => ({
  id,
  server: 'asker',
  title: 'asker asks you to open a page',
  createdAt: 1000,
  origin: {},
  kind: 'elicitation-url',
  payload: { message: 'Sign in', url: 'https://auth.example.com/consent?x=1', host: 'auth.example.com' },
});

function boundStore(overrides: Parameters<typeof fakeHost>[0] = {}) {
  const host = fakeHost({ 'servers:list': vi.fn(async () => []), ...overrides });
  const store = createAppStore(host.client);
  bindHost(store, host.client);
  return { store, ...host };
}

describe('requests slice', () => {
  it('lists the queue on bind, then follows requests:changed: the whole queue each time, settled ones kept with their view', async () => {
    const a = sampling('a', 'call-1');
    const { store, fire } = boundStore({ 'requests:list': vi.fn(async () => [a]) });
    await settle();
    expect(store.getState().pendingRequests).toEqual([a]);

    const b = urlRequest('b');
    fire('requests:changed', { pending: [a, b], added: b });
    expect(store.getState().pendingRequests.map((r) => r.id)).toEqual(['a', 'b']);

    fire('requests:changed', {
      pending: [b],
      settled: { id: 'a', server: 'asker', kind: 'sampling', outcome: 'timed-out', message: 'timed out after 60 s with no answer' },
    });
    const s = store.getState();
    expect(s.pendingRequests).toEqual([b]);
    expect(s.settledRequests).toHaveLength(1);
    expect(s.settledRequests[0]).toMatchObject({ view: a, settled: { outcome: 'timed-out', message: 'timed out after 60 s with no answer' } });

    s.dismissSettled('a');
    expect(store.getState().settledRequests).toEqual([]);
  });

  it('a list reply older than an event is dropped; only requests this window showed get a settled notice', async () => {
    let resolveList: (v: PendingRequestView[]) => void = () => undefined;
    const { store, fire } = boundStore({ 'requests:list': vi.fn(() => new Promise<PendingRequestView[]>((r) => (resolveList = r))) });
    const b = urlRequest('b');
    fire('requests:changed', { pending: [b], added: b });
    resolveList([]);
    await settle();
    expect(store.getState().pendingRequests).toEqual([b]);

    fire('requests:changed', {
      pending: [b],
      settled: { id: 'never-seen', server: 'asker', kind: 'sampling', outcome: 'declined', message: 'no one is there' },
    });
    expect(store.getState().settledRequests).toEqual([]);
    // A chat run's tool approval ends on the chat's own card.
    const approval: PendingRequestView = {
      id: 't',
      server: 's',
      title: 't',
      createdAt: 0,
      origin: { runId: 'run-1' },
      kind: 'tool-approval',
      payload: { tool: 'x', args: {}, readOnly: false },
    };
    fire('requests:changed', { pending: [b, approval], added: approval });
    fire('requests:changed', { pending: [b], settled: { id: 't', server: 's', kind: 'tool-approval', outcome: 'accepted' } });
    expect(store.getState().settledRequests).toEqual([]);
  });

  it('answers through requests:answer; says so when the host no longer had the request', async () => {
    const answer = vi.fn(async (id: string) => id === 'a');
    const { store } = boundStore({ 'requests:list': vi.fn(async () => [sampling('a'), sampling('gone')]), 'requests:answer': answer });
    await settle();
    await expect(store.getState().answerRequest('a', { action: 'accept', content: { model: 'openai:fake' } })).resolves.toBe(true);
    expect(answer).toHaveBeenCalledWith('a', { action: 'accept', content: { model: 'openai:fake' } });
    expect(store.getState().requestErrors.a).toBeUndefined();
    expect(store.getState().answering).toEqual({});

    await expect(store.getState().answerRequest('gone', { action: 'decline' })).resolves.toBe(false);
    expect(store.getState().requestErrors.gone).toMatch(/no longer waiting/);
  });

  it('a failed answer keeps the card and says why', async () => {
    const { store } = boundStore({
      'requests:list': vi.fn(async () => [sampling('a')]),
      'requests:answer': vi.fn(async () => {
        throw new Error('bridge closed');
      }),
    });
    await settle();
    await expect(store.getState().answerRequest('a', { action: 'decline' })).resolves.toBe(false);
    expect(store.getState().requestErrors.a).toMatch(/Could not send the answer: bridge closed/);
    expect(store.getState().pendingRequests).toHaveLength(1);
  });

  it('URL consent: opens through shell:open-url, then accepts; headless (not opened) keeps the link on the settled card', async () => {
    const b = urlRequest('b');
    const open = vi.fn(async (url: string) => ({ opened: false, url }));
    const answer = vi.fn(async () => true);
    const { store, fire } = boundStore({ 'requests:list': vi.fn(async () => [b]), 'shell:open-url': open, 'requests:answer': answer });
    await settle();
    await store.getState().consentToUrl('b');
    expect(open).toHaveBeenCalledWith('https://auth.example.com/consent?x=1');
    expect(answer).toHaveBeenCalledWith('b', { action: 'accept', content: {} });
    fire('requests:changed', { pending: [], settled: { id: 'b', server: 'asker', kind: 'elicitation-url', outcome: 'accepted' } });
    expect(store.getState().settledRequests[0]).toMatchObject({ link: 'https://auth.example.com/consent?x=1', settled: { outcome: 'accepted' } });
  });

  it('desktop (opened): no link is kept; a URL that failed to open is not accepted', async () => {
    const b = urlRequest('b');
    const answer = vi.fn(async () => true);
    const { store, fire } = boundStore({
      'requests:list': vi.fn(async () => [b]),
      'shell:open-url': vi.fn(async (url: string) => ({ opened: true, url })),
      'requests:answer': answer,
    });
    await settle();
    await store.getState().consentToUrl('b');
    fire('requests:changed', { pending: [], settled: { id: 'b', server: 'asker', kind: 'elicitation-url', outcome: 'accepted' } });
    expect(store.getState().settledRequests[0]?.link).toBeUndefined();

    const c = urlRequest('c');
    const failing = boundStore({
      'requests:list': vi.fn(async () => [c]),
      'shell:open-url': vi.fn(async () => {
        throw new Error('refused');
      }),
      'requests:answer': answer,
    });
    await settle();
    answer.mockClear();
    await failing.store.getState().consentToUrl('c');
    expect(answer).not.toHaveBeenCalled();
    expect(failing.store.getState().requestErrors.c).toMatch(/Could not open the link: refused/);
  });

  it(`keeps at most ${MAX_SETTLED} settled notices, the newest`, async () => {
    const { store, fire } = boundStore({ 'requests:list': vi.fn(async () => []) });
    await settle();
    for (let i = 0; i < MAX_SETTLED + 5; i++) {
      const r = sampling(`r${i}`);
      fire('requests:changed', { pending: [r], added: r });
      fire('requests:changed', { pending: [], settled: { id: `r${i}`, server: 'asker', kind: 'sampling', outcome: 'declined' } });
    }
    const ids = store.getState().settledRequests.map((r) => r.settled.id);
    expect(ids).toHaveLength(MAX_SETTLED);
    expect(ids[ids.length - 1]).toBe(`r${MAX_SETTLED + 4}`);
    expect(ids[0]).toBe('r5');
  });

  it('tool approvals of a chat run are the chat’s own UI, not request cards', () => {
    const approval: PendingRequestView = {
      id: 't',
      server: 's',
      title: 't',
      createdAt: 0,
      origin: { runId: 'run-1', callId: 'c' },
      kind: 'tool-approval',
      payload: { tool: 'x', args: {}, readOnly: false },
    };
    expect(shownByChat(approval)).toBe(true);
    expect(shownByChat({ ...approval, origin: {} })).toBe(false);
    expect(shownByChat(sampling('a'))).toBe(false);
  });
});
