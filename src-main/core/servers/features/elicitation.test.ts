// Elicitation (elicitation/create) end to end: server-everything's form, URL and async tools over stdio (legacy
// server→client requests) and the asking fixture on 2026-07-28 (MRTR), answered through the request queue by a
// scripted person. The form's answer is checked (SEP-1034 defaults filled in) before it goes back.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingRequestView, RequestAnswer } from '../../../../src-shared/contract/requests';
import { askingHosts, askingServer, everything, textOf } from '../../../test-support/asking-host';

const start = askingHosts();

describe('elicitation', () => {
  it('form mode: the schema reaches the queue; a partial answer goes back with the schema defaults', async () => {
    const { host: h, seen } = await start({
      servers: { everything },
      person: () => ({ action: 'accept', content: { content: { name: 'Ada Lovelace', check: true } } }),
    });
    const [view] = await h.api['servers:list']();
    expect(view?.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'trigger-elicitation-request-async',
        'trigger-sampling-request-async',
        'get-roots-list',
      ]),
    );
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-elicitation-request', args: {}, callId: 'form-1' });
    expect(textOf(result)).toContain('User provided the requested information');
    expect(textOf(result)).toContain('- Name: Ada Lovelace');
    // The defaults the person did not touch (SEP-1034) were sent too.
    expect(textOf(result)).toContain('- Favorite Integer: 42');
    expect(textOf(result)).toContain('"untitledMultipleSelectEnum": [\n      "Guitar"\n    ]');
    expect(textOf(result)).toContain('"legacyTitledEnum": "pet-1"');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: 'elicitation-form',
      server: 'everything',
      origin: { callId: 'form-1' },
      payload: { message: 'Please provide inputs for the following fields:', requestedSchema: { required: ['name'] } },
    });
  });

  it('form mode: an answer that does not fit is asked again, saying what is wrong; a decline then goes back as such', async () => {
    let round = 0;
    const person = (r: PendingRequestView): RequestAnswer => {
      round++;
      if (round === 1) return { action: 'accept', content: { content: { name: 'Ada', email: 'not-an-email', integer: 500 } } };
      // Asked again: the server's message as it was, and what was wrong as codes and data (worded by the UI / CLI).
      expect(r.kind === 'elicitation-form' && r.payload.message).toBe('Please provide inputs for the following fields:');
      const problems = r.kind === 'elicitation-form' ? (r.payload.problems ?? []) : [];
      expect(problems.map((p) => p.code)).toEqual(['not-email', 'too-large']);
      expect(problems.map((p) => p.message).join('; ')).toMatch(/must be an email address.*must be at most 100/);
      return round === 2 ? { action: 'decline' } : { action: 'cancel' };
    };
    const { host: h, seen } = await start({ servers: { everything }, person });
    const declined = await h.api['tools:call']({ server: 'everything', tool: 'trigger-elicitation-request', args: {} });
    expect(textOf(declined)).toContain('User declined');
    expect(seen).toHaveLength(2);
  });

  it('URL mode: consent is asked with the full URL and host; core opens nothing; decline goes back', async () => {
    const { host: h, seen } = await start({
      servers: { everything },
      person: (r) => (r.kind === 'elicitation-url' && r.payload.host === 'example.com' ? { action: 'accept' } : { action: 'decline' }),
    });
    const url = 'https://example.com/authorize?state=abc';
    const accepted = await h.api['tools:call']({
      server: 'everything',
      tool: 'trigger-url-elicitation',
      args: { url, elicitationId: 'el-1' },
      callId: 'url-1',
    });
    expect(textOf(accepted)).toContain('User completed the URL elicitation flow');
    expect(seen[0]).toMatchObject({ kind: 'elicitation-url', origin: { callId: 'url-1' }, payload: { url, host: 'example.com', elicitationId: 'el-1' } });
    const declined = await h.api['tools:call']({ server: 'everything', tool: 'trigger-url-elicitation', args: { url: 'https://evil.example.net/x' } });
    expect(textOf(declined)).toContain('User declined to open the URL');
    // Not https: declined without asking anyone.
    const plain = await h.api['tools:call']({ server: 'everything', tool: 'trigger-url-elicitation', args: { url: 'http://example.org/page' } });
    expect(textOf(plain)).toContain('User declined to open the URL');
    expect(seen).toHaveLength(2);
  });

  it('a call refused with -32042 (URL elicitation required) asks for the prerequisite page, then runs again', async () => {
    const { host: h, seen } = await start({ servers: { everything } });
    const url = 'https://example.com/needs-prerequisite';
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-url-elicitation', args: { url, errorPath: true }, callId: 'pre-1' });
    expect(textOf(result)).toContain('User completed the URL elicitation flow');
    expect(seen.map((r) => (r.kind === 'elicitation-url' ? [r.payload.url, r.origin.callId] : []))).toEqual([
      ['https://modelcontextprotocol.io', 'pre-1'],
      [url, 'pre-1'],
    ]);
  });

  it("a declined prerequisite page leaves the call failed with the server's error", async () => {
    const { host: h, seen } = await start({ servers: { everything }, person: () => ({ action: 'decline' }) });
    await expect(
      h.api['tools:call']({ server: 'everything', tool: 'trigger-url-elicitation', args: { url: 'https://example.com/other', errorPath: true } }),
    ).rejects.toThrow(/requires browser-based authorization/);
    expect(seen).toHaveLength(1);
  });

  it('notifications/elicitation/complete withdraws a URL consent still waiting', async () => {
    const toolsServer = { command: process.execPath, args: [join(__dirname, '..', '..', 'fixtures', 'sampling-tools-server.mjs')] };
    const { host: h, seen } = await start({ servers: { agent: toolsServer }, person: () => undefined });
    const settled: string[] = [];
    h.requests.onDidChange((change) => {
      if (change.settled) settled.push(change.settled.outcome);
    });
    const result = await h.api['tools:call']({ server: 'agent', tool: 'url-completes-itself', args: {} });
    expect(textOf(result)).toBe('url cancel');
    expect(seen.map((r) => r.kind)).toEqual(['elicitation-url']);
    expect(settled).toEqual(['cancelled']);
    expect(h.requests.list()).toEqual([]);
  });

  it('the async (task-augmented) variants run as tasks the server polls (see client-tasks.test.ts)', async () => {
    const { host: h, seen } = await start({
      servers: { everything },
      person: (r) => (r.kind === 'elicitation-form' ? { action: 'accept', content: { content: { name: 'Async Ada' } } } : { action: 'accept' }),
    });
    const form = await h.api['tools:call']({ server: 'everything', tool: 'trigger-elicitation-request-async', args: {} });
    expect(form.isError, textOf(form)).toBeFalsy();
    expect(textOf(form)).toContain('Async Ada');
    expect(textOf(form)).toContain('[COMPLETED]');
    const sampled = await h.api['tools:call']({ server: 'everything', tool: 'trigger-sampling-request-async', args: { prompt: 'async hello' } });
    expect(sampled.isError, textOf(sampled)).toBeFalsy();
    expect(textOf(sampled)).toContain('A fine answer from the fake model.');
    expect(seen.map((r) => r.kind)).toEqual(['elicitation-form', 'sampling', 'sampling-result']);
  });

  it('without a person the form is declined at once', async () => {
    const { host: h, seen } = await start({ servers: { everything }, interactive: false });
    const result = await h.api['tools:call']({ server: 'everything', tool: 'trigger-elicitation-request', args: {} });
    expect(textOf(result)).toContain('User declined');
    expect(seen).toHaveLength(0);
  });

  it('2026-07-28: form and URL input_required rounds go through the same handlers, attributed to the call', async () => {
    const { host: h, seen } = await start({
      servers: { asking: { command: process.execPath, args: [askingServer] } },
      versionMode: 'auto',
      person: (r) =>
        r.kind === 'elicitation-form' ? { action: 'accept', content: { content: { name: 'Grace', email: 'grace@example.com' } } } : { action: 'decline' },
    });
    expect((await h.api['servers:list']())[0]).toMatchObject({ status: 'ready', era: 'modern' });
    const form = await h.api['tools:call']({ server: 'asking', tool: 'ask-form', args: {}, callId: 'm-form' });
    expect(JSON.parse(textOf(form).replace(/^form accepted: /, ''))).toEqual({
      name: 'Grace',
      email: 'grace@example.com',
      colour: 'green',
      age: 30,
      subscribe: true,
    });
    const url = await h.api['tools:call']({ server: 'asking', tool: 'ask-url', args: {}, callId: 'm-url' });
    expect(textOf(url)).toBe('url declined');
    expect(seen.map((r) => [r.kind, r.origin.callId])).toEqual([
      ['elicitation-form', 'm-form'],
      ['elicitation-url', 'm-url'],
    ]);
    expect(seen[1]).toMatchObject({ payload: { host: 'auth.example.com', url: 'https://auth.example.com/consent?session=fixture' } });
  });
});
