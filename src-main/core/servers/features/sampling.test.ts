// Sampling (sampling/createMessage) end to end: server-everything's trigger-sampling-request over stdio (legacy
// server→client requests) and the asking fixture on 2026-07-28 (MRTR input_required rounds), answered through the
// host's request queue by a scripted person, run on a fake OpenAI-compatible vendor on loopback that counts what
// reaches it. Policies: ask / allow / never, perMinute; no provider configured; every request audited.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askingHosts, askingServer, everything, textOf } from '../../../test-support/asking-host';
import { callTool, say } from '../../../test-support/fake-providers';
import { maxInputRounds } from '../session';
import { messageViews, type SamplingRun } from '../../chat/sampler';
import { applyEdits } from './sampling';
import type { RequestFollowUpView } from '../../../../src-shared/contract/requests';

const start = askingHosts();

describe('sampling', () => {
  it('asks the person, runs the chat provider, lets the person edit the answer, and attributes it to the call', async () => {
    const {
      host: h,
      seen,
      fake,
    } = await start({
      servers: { everything },
      person: (r) =>
        r.kind === 'sampling-result' ? { action: 'accept', content: { text: 'edited by the person' } } : { action: 'accept', content: { maxTokens: 64 } },
    });
    const [view] = await h.api['servers:list']();
    expect(view?.status, view?.error).toBe('ready');
    expect(view?.tools.map((t) => t.name)).toContain('trigger-sampling-request');
    const followUps: RequestFollowUpView[] = [];
    h.api.on('requests:changed', (change) => change.followUp && followUps.push(change.followUp));
    const result = await h.api['tools:call']({
      server: 'everything',
      tool: 'trigger-sampling-request',
      args: { prompt: 'hello there', maxTokens: 100 },
      callId: 'call-1',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain('edited by the person');
    expect(textOf(result)).toContain('openai:fake-model');
    expect(seen.map((r) => r.kind)).toEqual(['sampling', 'sampling-result']);
    const [asked, answer] = seen;
    expect(asked).toMatchObject({
      server: 'everything',
      origin: { callId: 'call-1' },
      payload: {
        systemPrompt: 'You are a helpful test server.',
        maxTokens: 100,
        temperature: 0.7,
        model: 'openai:fake-model',
        messages: [{ role: 'user', text: expect.stringContaining('hello there') }],
      },
    });
    expect(asked?.kind === 'sampling' ? asked.payload.models : []).toContain('openai:fake-model');
    // The approved request's card is told what became of it: the model answered, then its answer went to the server.
    expect(followUps).toEqual([
      { id: asked?.id, server: 'everything', kind: 'sampling', stage: 'model-answered' },
      { id: asked?.id, server: 'everything', kind: 'sampling', stage: 'done' },
    ]);
    expect(answer).toMatchObject({
      kind: 'sampling-result',
      origin: { callId: 'call-1' },
      payload: { model: 'openai:fake-model', text: 'A fine answer from the fake model.', stopReason: 'endTurn' },
    });
    // One model request, with the server's system prompt and message, and the person's maxTokens.
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]?.body ?? {};
    expect(JSON.stringify(body.messages)).toContain('You are a helpful test server.');
    expect(fake.requests[0]?.lastUserText).toContain('hello there');
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(64);
    const audit = await h.api['audit:list']({});
    expect(audit.find((e) => e.kind === 'sampling')).toMatchObject({
      server: 'everything',
      callId: 'call-1',
      sampling: { decision: 'approved', model: 'openai:fake-model', edited: true, messages: 1 },
    });
  });

  it('a declined request never reaches the provider', async () => {
    const { host: h, seen, fake } = await start({ servers: { everything }, person: () => ({ action: 'decline', reason: 'not now' }) });
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request', args: { prompt: 'secret plans' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/rejected sampling request: not now/i);
    expect(seen.map((r) => r.kind)).toEqual(['sampling']);
    expect(fake.requests).toHaveLength(0);
    const audit = await h.api['audit:list']({});
    expect(audit.find((e) => e.kind === 'sampling')).toMatchObject({ sampling: { decision: 'declined' }, detail: 'not now' });
  });

  it('policy never declines without asking; allow runs without asking; perMinute declines the excess', async () => {
    const {
      host: h,
      seen,
      fake,
    } = await start({
      servers: {
        off: { ...everything, sampling: { mode: 'never' } },
        open: { ...everything, sampling: { mode: 'allow', perMinute: 1 } },
      },
    });
    const off = await h.api['tools:call']({ server: 'off', tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    expect(textOf(off)).toMatch(/turned off for "off"/);
    expect(fake.requests).toHaveLength(0);
    const first = await h.api['tools:call']({ server: 'open', tool: 'trigger-sampling-request', args: { prompt: 'y' } });
    expect(textOf(first)).toContain('A fine answer from the fake model.');
    expect(fake.requests).toHaveLength(1);
    const second = await h.api['tools:call']({ server: 'open', tool: 'trigger-sampling-request', args: { prompt: 'z' } });
    expect(textOf(second)).toMatch(/more than 1 sampling request\(s\) per minute/);
    expect(fake.requests).toHaveLength(1);
    expect(seen).toHaveLength(0);
    const decisions = (await h.api['audit:list']({})).flatMap((e) => (e.kind === 'sampling' ? [`${e.server}:${e.sampling?.decision ?? ''}`] : []));
    expect(decisions.sort()).toEqual(['off:auto-declined', 'open:auto', 'open:rate-limited']);
  });

  it('with no provider configured it declines at once, saying how to add one', async () => {
    const { host: h, seen, fake } = await start({ servers: { everything }, provider: false });
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    expect(textOf(result)).toMatch(/No LLM provider is configured.*Settings → Model providers/);
    expect(seen).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('without a person (non-interactive) the request is declined and the provider never called', async () => {
    const { host: h, fake } = await start({ servers: { everything }, interactive: false });
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    expect(result.isError).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('2026-07-28: an input_required sampling round goes through the same handler and names the call', async () => {
    const { host: h, seen, fake } = await start({ servers: { asking: { command: process.execPath, args: [askingServer] } }, versionMode: 'auto' });
    const [view] = await h.api['servers:list']();
    expect(view, view?.error).toMatchObject({ status: 'ready', era: 'modern' });
    const result = await h.api['tools:call']({ server: 'asking', tool: 'ask-model', args: { topic: 'rivers' }, callId: 'mrtr-1' });
    expect(textOf(result)).toBe('model said: A fine answer from the fake model.');
    expect(seen.map((r) => [r.kind, r.origin.callId])).toEqual([
      ['sampling', 'mrtr-1'],
      ['sampling-result', 'mrtr-1'],
    ]);
    expect(seen[0]).toMatchObject({ payload: { includeContext: 'thisServer', maxTokens: 200 } });
    // includeContext "thisServer" (sampling.context declared): the server's context follows its own system prompt.
    expect(seen[0]?.kind === 'sampling' && seen[0].payload.systemPrompt).toBe(
      'You are a terse poet.\n\nContext from the MCP server that asked (includeContext "thisServer"):\nServer "asking" (asking-fixture 1.0.0):\n  Tools: ask-model, ask-form, ask-url, list-roots',
    );
    expect(fake.requests).toHaveLength(1);
  });
});

describe('sampling with tools (2025-11-25) and MRTR rounds', () => {
  const toolsServer = { command: process.execPath, args: [join(__dirname, '..', '..', 'fixtures', 'sampling-tools-server.mjs')] };

  for (const versionMode of ['legacy', 'auto'] as const) {
    it(`${versionMode === 'auto' ? '2026-07-28' : 'legacy'}: the model's tool call goes back as tool_use; the server runs its tool and samples again`, async () => {
      const { host: h, seen, fake } = await start({ servers: { agent: toolsServer }, versionMode });
      fake.setScript((request) =>
        request.toolResults.length === 0 ? callTool('get_weather', { city: 'Paris' }, 'call_w1') : say(`It is ${request.toolResults[0]?.content ?? '?'}.`),
      );
      const result = await h.api['tools:call']({ server: 'agent', tool: 'weather-agent', args: { city: 'Paris' }, callId: 'agent-1' });
      expect(textOf(result)).toBe('agent said: It is sunny, 21 °C in Paris. (tools run: get_weather(Paris))');
      // Two model runs: the first offered the server's tool, the second carried its result.
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[0]?.toolNames).toEqual(['get_weather']);
      expect(fake.requests[1]?.toolResults).toEqual([{ callId: 'call_w1', content: 'sunny, 21 °C in Paris', isError: false }]);
      // The person saw both requests (with the offered tool) and both answers (the tool call named).
      expect(seen.map((r) => r.kind)).toEqual(['sampling', 'sampling-result', 'sampling', 'sampling-result']);
      expect(seen[0]).toMatchObject({
        origin: { callId: 'agent-1' },
        payload: { tools: [{ name: 'get_weather', description: 'The current weather in a city' }] },
      });
      expect(seen[1]).toMatchObject({ payload: { text: '[tool call get_weather {"city":"Paris"}]', stopReason: 'toolUse' } });
      expect(seen[2]?.kind === 'sampling' ? seen[2].payload.messages.map((m) => m.text) : []).toEqual([
        'What is the weather in Paris?',
        '[tool call get_weather {"city":"Paris"}]',
        '[tool result: sunny, 21 °C in Paris]',
      ]);
    });
  }

  it('2026-07-28: a server that keeps answering input_required is cut off after the round cap', async () => {
    const { host: h } = await start({ servers: { agent: toolsServer }, versionMode: 'auto' });
    expect((await h.api['servers:list']())[0]).toMatchObject({ status: 'ready', era: 'modern' });
    await expect(h.api['tools:call']({ server: 'agent', tool: 'ask-forever', args: {} })).rejects.toThrow(new RegExp(`${maxInputRounds}`));
  });
});

describe('applyEdits', () => {
  const run: SamplingRun = {
    model: 'openai:a',
    systemPrompt: 'sys',
    maxTokens: 100,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
      { role: 'assistant', content: { type: 'text', text: 'ok' } },
    ],
  };
  const views = messageViews(run.messages);

  it('keeps what the person did not change (and says nothing was edited)', () => {
    expect(applyEdits(run, views, { model: 'openai:a', messages: views.map((v) => ({ role: v.role, text: v.text })) })).toEqual({ run, edited: false });
  });

  it("replaces an edited message's text, keeping its image; takes the model, system prompt and maxTokens", () => {
    const { run: next, edited } = applyEdits(run, views, {
      model: 'openai:b',
      systemPrompt: 'new sys',
      maxTokens: 50,
      messages: [
        { role: 'user', text: 'look closer' },
        { role: 'assistant', text: 'ok' },
      ],
    });
    expect(edited).toBe(true);
    expect(next).toMatchObject({ model: 'openai:b', systemPrompt: 'new sys', maxTokens: 50 });
    expect(next.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look closer' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
    expect(next.messages[1]).toBe(run.messages[1]);
  });

  it('a list of another length becomes the conversation, as text', () => {
    const { run: next } = applyEdits(run, views, { messages: [{ role: 'user', text: 'only this' }] });
    expect(next.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'only this' } }]);
  });
});
