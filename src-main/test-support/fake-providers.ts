import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Fake LLM vendors for tests: real HTTP servers on 127.0.0.1 that speak the vendors' wire formats — OpenAI Chat
 * Completions (SSE chunks with `tool_calls` deltas) and Anthropic Messages (SSE with `tool_use` blocks and
 * `input_json_delta`s). Each request is answered by a script, so a test decides per step what the "model" says.
 * The real provider packages of the AI SDK talk to them through their base URLs; nothing in the SDK is mocked.
 */

export type Vendor = 'openai' | 'anthropic';

/** A request as the fake saw it, with the vendor-neutral bits a script needs. */
export interface SeenRequest {
  vendor: Vendor;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The last user text in the conversation (not tool results). */
  lastUserText: string;
  /** The tool results sent after the model's last message (empty when the last turn is the user's). */
  toolResults: Array<{ callId: string; content: string; isError: boolean }>;
  /** The tool names offered. */
  toolNames: string[];
  /** Set when the client went away before the answer ended (Stop, abort). */
  clientClosed: boolean;
}

/** `chunks`: how many pieces the arguments' text is streamed in (default 2). */
export type ScriptEvent = { text: string } | { toolCall: { id?: string; name: string; args: Record<string, unknown> | string; chunks?: number } };

export type Reply =
  | {
      kind: 'stream';
      events: ScriptEvent[];
      /** Milliseconds between SSE events (default 0). */
      delayMs?: number;
      /** After the events, keep the response open until the client leaves (to test Stop). */
      hang?: boolean;
      /** Destroy the socket after this many events (a dropped connection). */
      dropAfter?: number;
    }
  | { kind: 'error'; status: number; headers?: Record<string, string>; body?: unknown };

export type Script = (request: SeenRequest, index: number) => Reply | Promise<Reply>;

export interface FakeProvider {
  vendor: Vendor;
  /** The base URL to give the SDK (ends in /v1). */
  baseURL: string;
  requests: SeenRequest[];
  /** Replaces the script (the next request on uses it). */
  setScript(script: Script): void;
  close(): Promise<void>;
}

/** A script that answers each request with the next reply of a list (the last one repeats). */
export function sequence(...replies: Reply[]): Script {
  return (_request, index) => replies[Math.min(index, replies.length - 1)] ?? { kind: 'stream', events: [{ text: '(no reply scripted)' }] };
}

export const say = (...texts: string[]): Reply => ({ kind: 'stream', events: texts.map((text) => ({ text })) });
export const callTool = (name: string, args: Record<string, unknown>, id?: string): Reply => ({
  kind: 'stream',
  events: [{ toolCall: { name, args, ...(id ? { id } : {}) } }],
});

/**
 * A small calculator-using "model": `what is A+B` (or -, *, /) calls `calculator__add` (…); once the tool result is
 * back it answers with it, and it reports a denial or error plainly. Anything else is echoed.
 */
export function calculatorModel(options: { answerPrefix?: string; echoResult?: boolean } = {}): Script {
  const ops: Record<string, string> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide' };
  return (request) => {
    const result = request.toolResults[0];
    if (result) {
      if (/denied/i.test(result.content)) return say('You denied the calculator, so I cannot compute that.');
      if (result.isError) return say(`The tool failed: ${result.content}`);
      return say(options.answerPrefix ?? 'The answer is ', result.content);
    }
    const match = /(-?\d+(?:\.\d+)?)\s*([-+*/])\s*(-?\d+(?:\.\d+)?)/.exec(request.lastUserText);
    const tool = request.toolNames.find((n) => n.endsWith(`__${ops[match?.[2] ?? '+'] ?? 'add'}`));
    if (match && tool) return callTool(tool, { a: Number(match[1]), b: Number(match[3]) });
    return say(`You said: ${request.lastUserText}`);
  };
}

export async function startFakeProvider(vendor: Vendor, script: Script): Promise<FakeProvider> {
  let current = script;
  const requests: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model' }, { id: 'fake-model-2' }] }));
      return;
    }
    const expected = vendor === 'openai' ? '/chat/completions' : '/messages';
    if (req.method !== 'POST' || !path.endsWith(expected)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      // leave empty
    }
    const seen: SeenRequest = {
      vendor,
      path,
      headers: req.headers,
      body,
      ...(vendor === 'openai' ? readOpenAI(body) : readAnthropic(body)),
      clientClosed: false,
    };
    const index = requests.length;
    requests.push(seen);
    let finished = false;
    res.once('close', () => {
      if (!finished) seen.clientClosed = true;
    });
    const reply = await current(seen, index);
    if (reply.kind === 'error') {
      finished = true;
      res
        .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        .end(
          JSON.stringify(
            reply.body ??
              (vendor === 'openai'
                ? { error: { message: `HTTP ${reply.status}`, type: 'error' } }
                : { type: 'error', error: { type: 'error', message: `HTTP ${reply.status}` } }),
          ),
        );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const frames = vendor === 'openai' ? openAIFrames(reply.events, index) : anthropicFrames(reply.events, index);
    let sent = 0;
    for (const frame of frames) {
      if (res.destroyed) return;
      if (reply.dropAfter !== undefined && sent >= reply.dropAfter) {
        // Let what was written reach the client first: the connection drops mid-answer, not before it.
        await new Promise((r) => setTimeout(r, 100));
        res.socket?.destroy();
        return;
      }
      res.write(frame);
      sent++;
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    }
    if (reply.hang) return; // until the client leaves
    finished = true;
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    vendor,
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(script) {
      current = script;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Message = { role?: unknown; content?: unknown; tool_call_id?: unknown };

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((c: unknown) => {
        if (typeof c !== 'object' || c === null) return '';
        const block = c as { type?: unknown; text?: unknown; content?: unknown };
        if (block.type === 'text' && typeof block.text === 'string') return block.text;
        if (block.content !== undefined) return textOfContent(block.content);
        return '';
      })
      .join('');
  }
  return '';
}

function readOpenAI(body: Record<string, unknown>): Pick<SeenRequest, 'lastUserText' | 'toolResults' | 'toolNames'> {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Message[];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const toolResults: SeenRequest['toolResults'] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
    const m = messages[i] as Message;
    const content = textOfContent(m.content);
    toolResults.unshift({ callId: String(m.tool_call_id), content, isError: /^\s*(error|tool failed)/i.test(content) });
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Array<{ function?: { name?: string } }>;
  return { lastUserText: textOfContent(lastUser?.content), toolResults, toolNames: tools.map((t) => t.function?.name ?? '') };
}

function readAnthropic(body: Record<string, unknown>): Pick<SeenRequest, 'lastUserText' | 'toolResults' | 'toolNames'> {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Message[];
  const last = messages[messages.length - 1];
  const toolResults: SeenRequest['toolResults'] = [];
  let lastUserText = '';
  for (const m of [...messages].reverse()) {
    if (m.role !== 'user') continue;
    const blocks = Array.isArray(m.content) ? (m.content as Array<{ type?: unknown }>) : [];
    const text =
      typeof m.content === 'string'
        ? m.content
        : blocks
            .filter((b) => b.type === 'text')
            .map((b) => textOfContent([b]))
            .join('');
    if (text !== '') {
      lastUserText = text;
      break;
    }
  }
  if (last?.role === 'user' && Array.isArray(last.content)) {
    for (const block of last.content as Array<{ type?: unknown; tool_use_id?: unknown; content?: unknown; is_error?: unknown }>) {
      if (block.type === 'tool_result')
        toolResults.push({ callId: String(block.tool_use_id), content: textOfContent(block.content), isError: block.is_error === true });
    }
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Array<{ name?: string }>;
  return { lastUserText, toolResults, toolNames: tools.map((t) => t.name ?? '') };
}

const argsText = (args: Record<string, unknown> | string): string => (typeof args === 'string' ? args : JSON.stringify(args));

/** The arguments' text in `chunks` pieces of about equal length (none empty, unless the text is). */
function argsChunks(call: { args: Record<string, unknown> | string; chunks?: number }): string[] {
  const text = argsText(call.args);
  const n = Math.max(1, Math.min(call.chunks ?? 2, text.length));
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) pieces.push(text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n)));
  return pieces;
}

function openAIFrames(events: ScriptEvent[], n: number): string[] {
  const id = `chatcmpl-${n}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [chunk({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const event of events) {
    if ('text' in event) frames.push(chunk({ content: event.text }));
    else {
      const callId = event.toolCall.id ?? `call_${n}_${toolIndex}`;
      frames.push(chunk({ tool_calls: [{ index: toolIndex, id: callId, type: 'function', function: { name: event.toolCall.name, arguments: '' } }] }));
      for (const piece of argsChunks(event.toolCall)) frames.push(chunk({ tool_calls: [{ index: toolIndex, function: { arguments: piece } }] }));
      toolIndex++;
    }
  }
  frames.push(chunk({}, toolIndex > 0 ? 'tool_calls' : 'stop'));
  frames.push(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake-model', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
  );
  frames.push('data: [DONE]\n\n');
  return frames;
}

function anthropicFrames(events: ScriptEvent[], n: number): string[] {
  const frame = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const frames = [
    frame('message_start', {
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'fake-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  let tools = 0;
  for (const event of events) {
    if ('text' in event) {
      frames.push(frame('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      frames.push(frame('content_block_delta', { index, delta: { type: 'text_delta', text: event.text } }));
    } else {
      frames.push(
        frame('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: event.toolCall.id ?? `toolu_${n}_${tools}`, name: event.toolCall.name, input: {} },
        }),
      );
      for (const piece of argsChunks(event.toolCall))
        frames.push(frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      tools++;
    }
    frames.push(frame('content_block_stop', { index }));
    index++;
  }
  frames.push(frame('message_delta', { delta: { stop_reason: tools > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }));
  frames.push(frame('message_stop', {}));
  return frames;
}
