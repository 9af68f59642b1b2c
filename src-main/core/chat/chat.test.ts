import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, forgetHarness, harness, testKey as key } from '../../test-support/chat-harness';
import { calculatorModel, callTool, say, sequence, type Vendor } from '../../test-support/fake-providers';
import { tempDir, waitFor } from '../../test-support/processes';
import { createHost } from '../host';
import { MemorySecretStore } from '../secrets/store';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';

/*
 * The tool loop end to end: the real AI SDK provider packages talk to fake vendors (real HTTP on loopback), the
 * tools are the real calculator (and a tiny server with a slow tool) as child processes, through the real host.
 */

const tinyServer = join(import.meta.dirname, '..', 'fixtures', 'tiny-server.mjs');

afterEach(disposeHarnesses);

describe.each<Vendor>(['openai', 'anthropic'])('the tool loop against a fake %s server', (vendor) => {
  it('uses the calculator over several steps, asking before each call', async () => {
    const h = await harness(
      vendor,
      sequence(
        { kind: 'stream', events: [{ text: 'Let me add first. ' }, { toolCall: { name: 'calculator__add', args: { a: 2, b: 3 } } }] },
        callTool('calculator__multiply', { a: 5, b: 4 }),
        say('2+3 is 5, ', 'and 5×4 is **20**.'),
      ),
    );
    const { runId, conversationId, finished } = await h.send('What is (2+3)*4?');
    expect(finished.status).toBe('done');
    expect(h.text(runId)).toBe('Let me add first. 2+3 is 5, and 5×4 is **20**.');
    const tools = h.tools(runId);
    expect(tools.map((t) => [t.server, t.tool, t.status, t.decision, t.result?.content])).toEqual([
      ['calculator', 'add', 'done', 'allow-once', [{ type: 'text', text: '5' }]],
      ['calculator', 'multiply', 'done', 'allow-once', [{ type: 'text', text: '20' }]],
    ]);
    expect(h.approvalsAsked.map((p) => [p.tool, p.args])).toEqual([
      ['add', { a: 2, b: 3 }],
      ['multiply', { a: 5, b: 4 }],
    ]);
    // The model got each result back, and was offered every calculator tool under an unambiguous name.
    expect(h.fake.requests).toHaveLength(3);
    expect(h.fake.requests[0]?.toolNames.sort()).toEqual(['calculator__add', 'calculator__divide', 'calculator__multiply', 'calculator__subtract']);
    expect(h.fake.requests[1]?.toolResults.map((r) => r.content)).toEqual(['5']);
    expect(h.fake.requests[2]?.toolResults.map((r) => r.content)).toEqual(['20']);
    // The key went to the vendor in its own header, and nowhere a renderer can see.
    const auth = vendor === 'openai' ? h.fake.requests[0]?.headers.authorization : h.fake.requests[0]?.headers['x-api-key'];
    expect(auth).toBe(vendor === 'openai' ? `Bearer ${key}` : key);
    expect(JSON.stringify(await h.host.api['providers:list']())).not.toContain(key);
    expect(JSON.stringify(h.events)).not.toContain(key);

    // Saved: the conversation has the user's message and the whole assistant turn.
    const saved = await h.host.api['chat:get'](conversationId);
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const audit = await h.host.api['audit:list']({});
    expect(audit.map((a) => [a.kind, a.tool, a.decision ?? a.outcome])).toEqual([
      ['call', 'multiply', 'ok'],
      ['decision', 'multiply', 'allow-once'],
      ['call', 'add', 'ok'],
      ['decision', 'add', 'allow-once'],
    ]);
  });

  it('tells the model when the user denies a call', async () => {
    const h = await harness(vendor, calculatorModel());
    h.decide('deny');
    const { runId, finished } = await h.send('what is 2+3');
    expect(finished.status).toBe('done');
    expect(h.tools(runId).map((t) => [t.tool, t.status, t.decision])).toEqual([['add', 'denied', 'deny']]);
    expect(h.fake.requests[1]?.toolResults[0]?.content).toMatch(/user denied this call to add/);
    expect(h.text(runId)).toBe('You denied the calculator, so I cannot compute that.');
    expect((await h.host.api['audit:list']({}))[0]).toMatchObject({ kind: 'decision', server: 'calculator', tool: 'add', decision: 'deny' });
  });
});

describe('approvals', () => {
  it('"Always allow" stops asking for that tool; readonly mode auto-allows readOnlyHint tools; none never runs a tool', async () => {
    const h = await harness('openai', calculatorModel());
    h.decide('always');
    await h.send('what is 2+3');
    expect((await h.host.api['chat:settings']()).alwaysAllow).toEqual(['calculator/add']);
    const second = await h.send('what is 4+4');
    expect(h.approvalsAsked).toHaveLength(1);
    expect(h.tools(second.runId)[0]).toMatchObject({ status: 'done', decision: 'auto-always' });

    // The calculator's tools are annotated readOnlyHint.
    await h.host.api['chat:update-settings']({ approval: 'readonly' });
    const third = await h.send('what is 6*7');
    expect(h.tools(third.runId)[0]).toMatchObject({ tool: 'multiply', status: 'done', decision: 'auto-readonly' });
    expect(h.text(third.runId)).toBe('The answer is 42');

    await h.host.api['chat:update-settings']({ approval: 'none' });
    const fourth = await h.send('what is 1+1');
    expect(h.tools(fourth.runId)[0]).toMatchObject({ tool: 'add', status: 'denied', decision: 'auto-deny' });
    expect(h.approvalsAsked).toHaveLength(1);
  });

  it('a disabled tool is never offered to the model', async () => {
    const h = await harness('openai', calculatorModel());
    await h.host.api['chat:update-settings']({ disabledTools: ['calculator/add', 'calculator/divide'] });
    const { runId } = await h.send('hello');
    expect(h.fake.requests[0]?.toolNames.sort()).toEqual(['calculator__multiply', 'calculator__subtract']);
    expect(h.text(runId)).toBe('You said: hello');
  });
});

describe('Stop', () => {
  it('aborts the model mid-stream', async () => {
    const h = await harness(
      'anthropic',
      sequence({ kind: 'stream', events: [{ text: 'Once ' }, { text: 'upon ' }, { text: 'a time' }], delayMs: 50, hang: true }),
    );
    const started = await h.host.api['chat:send']({ text: 'tell me a story' });
    await waitFor(() => h.text(started.runId).includes('Once'), 10_000, 'the first tokens');
    // A window that connects meanwhile (a reload) learns which turn runs where, to follow it and to stop it.
    expect((await h.host.api['chat:list']({})).find((c) => c.id === started.conversationId)?.runId).toBe(started.runId);
    expect((await h.host.api['chat:get'](started.conversationId)).runId).toBe(started.runId);
    expect(await h.host.api['chat:stop'](started.runId)).toBe(true);
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 10_000, 'the turn to end');
    expect(h.events.find((e) => e.type === 'run-finished')).toMatchObject({ status: 'stopped' });
    expect((await h.host.api['chat:get'](started.conversationId)).runId).toBeUndefined();
    await waitFor(() => h.fake.requests[0]?.clientClosed === true, 5000, 'the provider to see the client leave');
    const saved = await h.host.api['chat:get'](started.conversationId);
    expect(saved.messages[1]).toMatchObject({ role: 'assistant', status: 'stopped' });
  });

  it('cancels an in-flight tool call (the server gets notifications/cancelled)', async () => {
    const h = await harness('openai', sequence(callTool('tiny__sleep', { ms: 30_000 }), say('done')), {
      servers: { tiny: { command: process.execPath, args: [tinyServer] } },
    });
    const started = await h.host.api['chat:send']({ text: 'sleep' });
    await waitFor(() => h.tools(started.runId)[0]?.status === 'running', 10_000, 'the call to start');
    await h.host.api['chat:stop'](started.conversationId);
    await waitFor(() => h.events.some((e) => e.type === 'run-finished'), 10_000, 'the turn to end');
    expect(h.tools(started.runId)[0]).toMatchObject({ status: 'cancelled' });
    await waitFor(
      async () => ((await h.host.api['servers:list']())[0]?.stderrTail ?? []).some((l) => l.startsWith('cancelled request')),
      5000,
      'the server to see the cancellation',
    );
    expect(h.fake.requests).toHaveLength(1);
    const audit = await h.host.api['audit:list']({});
    expect(audit[0]).toMatchObject({ kind: 'call', tool: 'sleep', outcome: 'cancelled' });
  });
});

describe('provider errors are readable', () => {
  it('401: the key was rejected', async () => {
    const h = await harness(
      'openai',
      sequence({ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }),
    );
    const { finished } = await h.send('hi');
    expect(finished.status).toBe('error');
    expect(finished.error?.message).toMatch(
      /^OpenAI at http:\/\/127\.0\.0\.1:\d+\/v1 rejected the API key \(HTTP 401\)\. Check the key .*Incorrect API key provided/,
    );
    expect(finished.error?.message).not.toContain(key);
  });

  it('a key the vendor quotes back is scrubbed from the message', async () => {
    const h = await harness(
      'openai',
      sequence({ kind: 'error', status: 401, body: { error: { message: `Incorrect API key provided: ${key}. Also sk-proj-abc*****************xyz.` } } }),
    );
    const { finished } = await h.send('hi');
    expect(finished.error?.message).toContain('Incorrect API key provided: [redacted]. Also sk-proj-[redacted].');
    expect(finished.error?.message).not.toContain(key);
  });

  it('429 with retry-after: retried as asked, then explained', async () => {
    const h = await harness(
      'anthropic',
      sequence({
        kind: 'error',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
      }),
    );
    const { finished } = await h.send('hi');
    expect(h.fake.requests).toHaveLength(3);
    expect(finished.error?.message).toBe(
      'Anthropic at ' + h.fake.baseURL + ' is rate-limiting requests (HTTP 429) (tried 3 times). It asks to retry after 1 s. It said: “Slow down”',
    );
  });

  it('429 once, then an answer: the turn succeeds', async () => {
    const h = await harness('openai', sequence({ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, say('Hello after a wait')));
    const { runId, finished } = await h.send('hi');
    expect(finished.status).toBe('done');
    expect(h.text(runId)).toBe('Hello after a wait');
  });

  it('a dropped connection mid-answer', async () => {
    for (const vendor of ['openai', 'anthropic'] as const) {
      const h = await harness(vendor, sequence({ kind: 'stream', events: [{ text: 'Partial ' }, { text: 'answer' }], dropAfter: 3 }));
      const { finished } = await h.send('hi');
      expect(finished.status).toBe('error');
      expect(finished.error?.message).toMatch(
        /^The connection to (OpenAI|Anthropic) at http:\/\/127\.0\.0\.1:\d+\/v1 was lost mid-answer \(terminated\)\. Send again to retry\.$/,
      );
      expect(h.fake.requests).toHaveLength(1);
    }
  });

  it('no provider at all: a not-configured error that says how to add one', async () => {
    const dir = tempDir('switchboard-chat-');
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: {} }));
    const host = await createHost({
      mode: 'headless',
      configPath: join(dir, 'mcp.json'),
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      hostEnv: {},
      secrets: new MemorySecretStore(),
    });
    try {
      const view = await host.api['providers:list']();
      expect(view.model).toBeUndefined();
      expect(view.hint).toMatch(/ANTHROPIC_API_KEY or OPENAI_API_KEY/);
      await expect(host.api['chat:send']({ text: 'hi' })).rejects.toMatchObject({ code: 'not-configured' });
    } finally {
      await host.dispose();
    }
  });
});

describe('history', () => {
  it('survives a restart: listed, searchable, renamable, and the next turn sends the earlier tool call and result', async () => {
    const first = await harness('openai', calculatorModel());
    const { conversationId } = await first.send('what is 2+3');
    await first.host.dispose();
    const fake = first.fake;
    forgetHarness(first);

    const files = readdirSync(join(first.dir, 'conversations'));
    expect(files).toEqual([`${conversationId}.json`]);
    expect(readFileSync(join(first.dir, 'conversations', files[0] ?? ''), 'utf8')).not.toContain(key);

    const second = await harness('openai', calculatorModel(), { dir: first.dir, fake });
    const list = await second.host.api['chat:list']({});
    expect(list).toMatchObject([{ id: conversationId, title: 'what is 2+3', messageCount: 2 }]);
    expect(await second.host.api['chat:list']({ query: 'ANSWER IS 5' })).toMatchObject([
      { id: conversationId, snippet: expect.stringContaining('answer is 5') },
    ]);
    expect(await second.host.api['chat:list']({ query: 'nothing like this' })).toEqual([]);
    await second.host.api['chat:rename'](conversationId, 'Sums');
    expect((await second.host.api['chat:list']({}))[0]?.title).toBe('Sums');

    const before = fake.requests.length;
    await second.send('and what is 5*5', conversationId);
    const resumed = fake.requests[before]?.body.messages as Array<{ role: string; tool_calls?: unknown[] }>;
    expect(resumed.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect((await second.host.api['chat:get'](conversationId)).messages).toHaveLength(4);

    // A conversation another process (the CLI) saved meanwhile shows up in the list.
    const other = structuredClone(await second.host.api['chat:get'](conversationId));
    other.id = '00000000-0000-4000-8000-000000000001';
    other.title = 'From the CLI';
    writeFileSync(join(first.dir, 'conversations', `${other.id}.json`), JSON.stringify(other));
    expect((await second.host.api['chat:list']({})).map((c) => c.title).sort()).toEqual(['From the CLI', 'Sums']);
    expect(await second.host.api['chat:delete'](other.id)).toBe(true);

    expect(await second.host.api['chat:delete'](conversationId)).toBe(true);
    expect(await second.host.api['chat:list']({})).toEqual([]);
    expect(readdirSync(join(first.dir, 'conversations'))).toEqual([]);
  });
});

describe('remote images the user asked for', () => {
  it('are fetched by main as data: URLs; anything but an image is refused', async () => {
    const { createServer } = await import('node:http');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const server = createServer((req, res) => {
      if (req.url === '/dot.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    const { ChatService } = await import('./service');
    const chat = new ChatService({
      tools: { views: () => [], callTool: () => Promise.reject(new Error('none')) },
      secrets: new MemorySecretStore(),
      env: { env: {}, dotenv: {} },
      emit: () => undefined,
      remoteImages: { allowPrivateNetworks: true },
    });
    try {
      const { dataUrl } = await chat.api['chat:fetch-image'](`http://127.0.0.1:${port}/dot.png`);
      expect(dataUrl).toBe(`data:image/png;base64,${png.toString('base64')}`);
      await expect(chat.api['chat:fetch-image'](`http://127.0.0.1:${port}/page`)).rejects.toThrow(/is not an image \(it is text\/html\)/);
    } finally {
      await chat.dispose();
      server.close();
    }
  });
});
