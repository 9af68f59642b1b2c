import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src-shared/contract/chat';
import { toModelMessages, toModelOutput } from './model-messages';

describe('toModelOutput: what the model is told about a tool call', () => {
  it('text, errors, denials and cancellations', () => {
    expect(toModelOutput({ kind: 'result', result: { content: [{ type: 'text', text: '5' }] } })).toEqual({ type: 'text', value: '5' });
    expect(toModelOutput({ kind: 'result', result: { content: [{ type: 'text', text: 'Cannot divide 1 by zero' }], isError: true } })).toEqual({
      type: 'error-text',
      value: 'Cannot divide 1 by zero',
    });
    expect(toModelOutput({ kind: 'failed', message: 'Server "x" exited' })).toEqual({ type: 'error-text', value: 'Server "x" exited' });
    expect(toModelOutput({ kind: 'denied', reason: 'The user denied it.' })).toEqual({ type: 'execution-denied', reason: 'The user denied it.' });
    expect(toModelOutput({ kind: 'cancelled' })).toEqual({ type: 'error-text', value: 'The call was cancelled by the user.' });
  });

  it('structured content when there is no text; images where the provider takes them, a note where not', () => {
    expect(toModelOutput({ kind: 'result', result: { content: [], structuredContent: { temperature: 21 } } })).toEqual({
      type: 'text',
      value: '{"temperature":21}',
    });
    const withImage = {
      kind: 'result' as const,
      result: {
        content: [
          { type: 'text' as const, text: 'a chart' },
          { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
    };
    expect(toModelOutput(withImage, { images: true, maxChars: 1000 })).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'a chart' },
        { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      ],
    });
    expect(toModelOutput(withImage, { images: false, maxChars: 1000 })).toEqual({
      type: 'text',
      value: 'a chart\n[image image/png, 0 KiB: shown to the user, not sent to the model]',
    });
  });

  it('cuts huge text and says so', () => {
    const out = toModelOutput({ kind: 'result', result: { content: [{ type: 'text', text: 'x'.repeat(50) }] } }, { images: true, maxChars: 10 });
    expect(out).toEqual({ type: 'text', value: `${'x'.repeat(10)}\n[… cut: the result had 50 characters; only the first 10 are shown]` });
  });
});

describe('toModelMessages: a saved conversation as the model context', () => {
  it('splits an assistant turn into assistant/tool messages at each step', () => {
    const messages: ChatMessage[] = [
      { id: 'u', role: 'user', text: 'what is (2+3)*4', at: 0 },
      {
        id: 'a',
        role: 'assistant',
        at: 0,
        model: 'openai:m',
        status: 'done',
        parts: [
          { type: 'text', text: 'Adding. ' },
          {
            type: 'tool',
            callId: 'c1',
            server: 'calculator',
            tool: 'add',
            modelName: 'calculator__add',
            args: { a: 2, b: 3 },
            status: 'done',
            result: { content: [{ type: 'text', text: '5' }] },
          },
          { type: 'tool', callId: 'c2', server: 'calculator', tool: 'multiply', modelName: 'calculator__multiply', args: { a: 5, b: 4 }, status: 'denied' },
          { type: 'text', text: 'You denied the multiplication.' },
        ],
      },
    ];
    const out = toModelMessages(messages);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(out[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Adding. ' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'calculator__add', input: { a: 2, b: 3 } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'calculator__multiply', input: { a: 5, b: 4 } },
      ],
    });
    expect(out[2]).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'c1', output: { type: 'text', value: '5' } },
        { toolCallId: 'c2', output: { type: 'execution-denied' } },
      ],
    });
  });
});
