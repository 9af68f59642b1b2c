import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, UserMessage } from '../../../src-shared/contract/chat';
import { disposeHarnesses, harness, type Harness } from '../../test-support/chat-harness';
import { say, type Vendor } from '../../test-support/fake-providers';
import { waitFor } from '../../test-support/processes';
import { userContent } from './model-messages';

/*
 * Resources attached to a chat message (chat:send `attachments`): read through the server's ResourcesFeature,
 * sent to the model with the message (the real AI SDK provider against a fake vendor on loopback), and stored with
 * the message, so a later turn of the same conversation sends them again.
 */

const features = join(import.meta.dirname, '..', 'fixtures', 'features-server.mjs');
const hello = 'fixture://static/hello.txt';
const pixel = 'fixture://static/pixel.png';

afterEach(disposeHarnesses);

async function sendWith(
  h: Harness,
  request: Parameters<Harness['host']['api']['chat:send']>[0],
): Promise<{ conversationId: string; userMessage: UserMessage }> {
  const started = await h.host.api['chat:send'](request);
  await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 30_000, 'the turn to finish');
  const finished = h.events.find((e): e is Extract<ChatEvent, { type: 'run-finished' }> => e.type === 'run-finished' && e.runId === started.runId);
  expect(finished?.status, finished?.error?.message).toBe('done');
  return { conversationId: started.conversationId, userMessage: started.userMessage };
}

/** The last user message of a request body, as JSON text (vendor-neutral enough to search). */
function lastUser(body: Record<string, unknown>): unknown {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string }>) : [];
  return [...messages].reverse().find((m) => m.role === 'user');
}

describe.each<Vendor>(['openai', 'anthropic'])('attachments against a fake %s server', (vendor) => {
  it('the model receives the resource text (fenced, with its URI) and the image; history keeps them for the next turn', async () => {
    const h = await harness(vendor, () => say('Noted.'), { servers: { features: { command: process.execPath, args: [features] } } });
    const { conversationId, userMessage } = await sendWith(h, {
      text: 'What does the attached file say?',
      attachments: [
        { server: 'features', uri: hello },
        { server: 'features', uri: pixel },
      ],
    });
    expect(userMessage.attachments?.map((a) => [a.server, a.uri, a.name])).toEqual([
      ['features', hello, 'hello'],
      ['features', pixel, 'pixel'],
    ]);
    const first = JSON.stringify(lastUser(h.fake.requests[0]?.body ?? {}));
    expect(first).toContain('What does the attached file say?');
    expect(first).toContain(`Attached resource ${hello} (server \\"features\\", text/plain):\\n\`\`\`\\nHello from the features fixture.\\n\\n\`\`\``);
    // The 1×1 PNG as an image part: OpenAI Chat Completions `image_url` (a data URL), Anthropic an `image` block.
    expect(first).toMatch(
      vendor === 'openai'
        ? /"image_url":\{"url":"data:image\/png;base64,iVBORw0KGgo/
        : /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/,
    );

    // Stored with the message: a restart of the conversation (the next turn) sends it again.
    const stored = await h.host.api['chat:get'](conversationId);
    const storedUser = stored.messages.find((m): m is UserMessage => m.role === 'user');
    expect(storedUser?.attachments?.[0]?.contents).toEqual([{ uri: hello, mimeType: 'text/plain', text: 'Hello from the features fixture.\n', size: 33 }]);
    await sendWith(h, { conversationId, text: 'And again?' });
    const second = h.fake.requests[1]?.body ?? {};
    expect(JSON.stringify(second.messages)).toContain('Hello from the features fixture.');
    expect(JSON.stringify(lastUser(second))).not.toContain('Attached resource');
  }, 30_000);
});

describe('attachments that cannot be read', () => {
  it('refuse the send, naming the resource; nothing is stored or sent', async () => {
    const h = await harness('openai', () => say('unreachable'), { servers: { features: { command: process.execPath, args: [features] } } });
    await expect(h.host.api['chat:send']({ text: 'look', attachments: [{ server: 'features', uri: 'fixture://nope' }] })).rejects.toMatchObject({
      code: 'request-failed',
      message: expect.stringContaining('"fixture://nope" (server "features") could not be read'),
      data: { server: 'features', uri: 'fixture://nope' },
    });
    await expect(h.host.api['chat:send']({ text: 'look', attachments: [{ server: 'nobody', uri: hello }] })).rejects.toMatchObject({ code: 'unknown-server' });
    expect(h.fake.requests).toHaveLength(0);
    expect(await h.host.api['chat:list']({})).toEqual([]);
  }, 30_000);
});

describe('userContent: an attached resource as the model sees it', () => {
  const options = { images: false, maxChars: 1000 };
  it('text in a fence no backtick run inside can close; other blobs by type and size; a message without any is its text', () => {
    expect(userContent({ text: 'plain' }, options)).toBe('plain');
    const content = userContent(
      {
        text: 'see',
        attachments: [
          {
            server: 's',
            uri: 'file:///a.md',
            contents: [
              { uri: 'file:///a.md', mimeType: 'text/markdown', text: 'x ```` y', size: 8 },
              { uri: 'file:///b.bin', mimeType: 'application/octet-stream', size: 2048 },
            ],
          },
        ],
      },
      options,
    );
    expect(content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'text', text: 'Attached resource file:///a.md (server "s", text/markdown):\n`````\nx ```` y\n`````' },
      { type: 'text', text: 'Attached resource file:///b.bin (server "s", application/octet-stream): binary content of 2.0 KiB, not sent to the model.' },
    ]);
  });

  it('the text of all attachments shares the budget, and a cut says so', () => {
    const content = userContent(
      {
        text: 't',
        attachments: [
          { server: 's', uri: 'u://1', contents: [{ uri: 'u://1', text: 'a'.repeat(8), size: 8 }] },
          { server: 's', uri: 'u://2', contents: [{ uri: 'u://2', text: 'b'.repeat(8), size: 8 }] },
        ],
      },
      { images: true, maxChars: 10 },
    );
    expect(JSON.stringify(content)).toContain(`${'a'.repeat(8)}\\n`);
    expect(JSON.stringify(content)).toContain(`${'b'.repeat(2)}\\n[… cut: the result had 8 characters; only the first 2 are shown]`);
  });
});
