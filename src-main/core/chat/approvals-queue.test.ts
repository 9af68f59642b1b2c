import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingRequestView, RequestsChangedEvent } from '../../../src-shared/contract/requests';
import { disposeHarnesses, harness, type Harness } from '../../test-support/chat-harness';
import { calculatorModel, callTool, say, sequence } from '../../test-support/fake-providers';
import { tempDir, waitFor } from '../../test-support/processes';
import { AuditLog } from './audit-log';

/*
 * The chat's tool approvals are entries of the host's one request queue: `requests:answer` and `chat:approve`
 * answer the same entry; without a person they are denied at once; Stop withdraws them.
 */

afterEach(disposeHarnesses);

type Approval = Extract<PendingRequestView, { kind: 'tool-approval' }>;

async function waiting(h: Harness): Promise<Approval> {
  let found: Approval | undefined;
  await waitFor(
    async () => {
      found = (await h.host.api['requests:list']()).find((r): r is Approval => r.kind === 'tool-approval');
      return found !== undefined;
    },
    20_000,
    'the approval to wait in the queue',
  );
  return found as Approval;
}

async function finished(h: Harness, runId: string): Promise<void> {
  await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === runId), 30_000, 'the turn to finish');
}

describe('tool approvals in the request queue', () => {
  it('a waiting approval is a tool-approval entry with its origin; requests:answer accept runs the call once', async () => {
    const h = await harness('openai', calculatorModel(), { answerApprovals: false });
    const changes: RequestsChangedEvent[] = [];
    h.host.api.on('requests:changed', (e) => changes.push(e));
    const started = await h.host.api['chat:send']({ text: 'what is 2+3' });
    const entry = await waiting(h);
    expect(entry).toMatchObject({
      kind: 'tool-approval',
      server: 'calculator',
      title: 'The model asks to run calculator › add',
      payload: { tool: 'add', title: 'Add', args: { a: 2, b: 3 }, readOnly: true },
      origin: { runId: started.runId, conversationId: started.conversationId },
    });
    // The origin's callId is the chat's tool card, so the UI can put the card where it arose.
    expect(entry.origin.callId).toBe(h.approvalsAsked[0]?.callId);
    expect(entry.deadline).toBeUndefined();

    expect(await h.host.api['requests:answer'](entry.id, { action: 'accept' })).toBe(true);
    await finished(h, started.runId);
    expect(h.tools(started.runId).map((t) => [t.tool, t.status, t.decision])).toEqual([['add', 'done', 'allow-once']]);
    expect(h.text(started.runId)).toBe('The answer is 5');
    // Answered already: the chat's own channel finds nothing left to answer.
    expect(await h.host.api['chat:approve'](entry.origin.callId!, 'once')).toBe(false);
    expect(changes.map((c) => [c.added?.kind ?? null, c.settled?.outcome ?? null])).toEqual([
      ['tool-approval', null],
      [null, 'accepted'],
    ]);
  });

  it('requests:answer accept {always: true} is "Always allow"; decline is Deny', async () => {
    const h = await harness('openai', calculatorModel(), { answerApprovals: false });
    const first = await h.host.api['chat:send']({ text: 'what is 2+3' });
    await h.host.api['requests:answer']((await waiting(h)).id, { action: 'accept', content: { always: true } });
    await finished(h, first.runId);
    expect(h.tools(first.runId)[0]).toMatchObject({ status: 'done', decision: 'always-allow' });
    expect((await h.host.api['chat:settings']()).alwaysAllow).toEqual(['calculator/add']);

    const second = await h.host.api['chat:send']({ text: 'what is 6*7' });
    await h.host.api['requests:answer']((await waiting(h)).id, { action: 'decline' });
    await finished(h, second.runId);
    expect(h.tools(second.runId)[0]).toMatchObject({ tool: 'multiply', status: 'denied', decision: 'deny' });
    expect(h.text(second.runId)).toBe('You denied the calculator, so I cannot compute that.');
  });

  it('chat:approve answers the queue entry (the UI and the CLI are unchanged)', async () => {
    const h = await harness('openai', calculatorModel(), { answerApprovals: false });
    const changes: RequestsChangedEvent[] = [];
    h.host.api.on('requests:changed', (e) => changes.push(e));
    const started = await h.host.api['chat:send']({ text: 'what is 2+3' });
    const entry = await waiting(h);
    expect(await h.host.api['chat:approve']('no-such-call', 'once')).toBe(false);
    expect(await h.host.api['chat:approve'](entry.origin.callId!, 'deny')).toBe(true);
    await finished(h, started.runId);
    expect(h.tools(started.runId)[0]).toMatchObject({ status: 'denied', decision: 'deny' });
    expect(changes.at(-1)).toMatchObject({ pending: [], settled: { id: entry.id, kind: 'tool-approval', outcome: 'declined' } });
  });

  it('with no one to answer, an approval is denied at once and the audit says why', async () => {
    const h = await harness('openai', calculatorModel(), {
      answerApprovals: false,
      interactive: false,
      noAnswererReason: 'not a terminal: run it in one, or pass --approve all',
    });
    const { runId, finished: end } = await h.send('what is 2+3');
    expect(end.status).toBe('done');
    expect(h.tools(runId).map((t) => [t.status, t.decision])).toEqual([['denied', 'deny']]);
    expect(h.text(runId)).toBe('You denied the calculator, so I cannot compute that.');
    expect((await h.host.api['audit:list']({}))[0]).toMatchObject({
      kind: 'decision',
      tool: 'add',
      decision: 'deny',
      detail: 'not a terminal: run it in one, or pass --approve all',
    });
    expect(await h.host.api['requests:list']()).toEqual([]);
  });

  it('Stop withdraws a waiting approval from the queue', async () => {
    const h = await harness('openai', sequence(callTool('calculator__add', { a: 1, b: 1 }), say('never')), { answerApprovals: false });
    const changes: RequestsChangedEvent[] = [];
    h.host.api.on('requests:changed', (e) => changes.push(e));
    const started = await h.host.api['chat:send']({ text: 'add' });
    const entry = await waiting(h);
    await h.host.api['chat:stop'](started.runId);
    await finished(h, started.runId);
    expect(await h.host.api['requests:list']()).toEqual([]);
    expect(changes.at(-1)?.settled).toMatchObject({ id: entry.id, outcome: 'cancelled' });
    expect(h.tools(started.runId)[0]).toMatchObject({ status: 'cancelled' });
    expect((await h.host.api['audit:list']({}))[0]).toMatchObject({ kind: 'decision', outcome: 'cancelled', detail: 'stopped while waiting for approval' });
  });
});

describe('audit entries for sampling', () => {
  it('recordSampling writes sizes (never content) beside old entries, which read unchanged', () => {
    const dir = tempDir('switchboard-audit-');
    const file = join(dir, 'audit.jsonl');
    // A line written before sampling entries existed.
    const old = {
      at: '2026-11-01T10:00:00.000Z',
      kind: 'decision',
      source: 'app',
      callId: 'c1',
      server: 'calculator',
      tool: 'add',
      args: '{"a":1}',
      decision: 'allow-once',
    };
    writeFileSync(file, `${JSON.stringify(old)}\n`);
    const audit = new AuditLog(file);
    const messages = [{ text: 'What is the capital of France?' }, { text: 'Paris.' }];
    audit.recordSampling({
      server: 'everything',
      callId: 'c9',
      tool: 'sampleLLM',
      decision: 'approved',
      model: 'openai:gpt-test',
      ...AuditLog.samplingSize(messages, 'Be brief.'),
      maxTokens: 100,
      resultChars: 5,
      stopReason: 'endTurn',
      edited: true,
      durationMs: 12,
    });
    audit.recordSampling({ server: 'everything', source: 'cli', decision: 'auto-declined', messages: 1, promptChars: 3, detail: 'no provider is configured' });
    const [declined, approved, first] = audit.list();
    expect(first).toEqual(old);
    expect(approved).toMatchObject({
      kind: 'sampling',
      source: 'app',
      server: 'everything',
      callId: 'c9',
      tool: 'sampleLLM',
      sampling: {
        decision: 'approved',
        model: 'openai:gpt-test',
        messages: 2,
        promptChars: 45,
        maxTokens: 100,
        resultChars: 5,
        stopReason: 'endTurn',
        edited: true,
        durationMs: 12,
      },
    });
    expect(declined).toMatchObject({
      kind: 'sampling',
      source: 'cli',
      server: 'everything',
      sampling: { decision: 'auto-declined', messages: 1, promptChars: 3 },
      detail: 'no provider is configured',
    });
    expect(declined?.callId).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain('capital of France');
  });
});
