import { describe, expect, it } from 'vitest';
import type { PendingRequestView } from '../../../src-shared/host-api';
import type { ChatEntry } from '../../store/transcript-entries';
import type { SettledRequest } from '../../store/requests-slice';
import { callIdsOf, inPanel, onCall } from './placement';

const request = (id: string, origin: PendingRequestView['origin'], kind: 'elicitation-form' | 'tool-approval' = 'elicitation-form'): PendingRequestView =>
  kind === 'tool-approval'
    ? { id, server: 's', title: 's asks', createdAt: 0, origin, kind, payload: { tool: 't', args: {}, readOnly: false } }
    : { id, server: 's', title: 's asks', createdAt: 0, origin, kind, payload: { message: 'm', requestedSchema: {} } };

const entries: ChatEntry[] = [
  { kind: 'call', id: 1, callId: 'direct-1', server: 's', tool: 't', args: {}, command: '/t', state: 'pending', startedAt: 0 },
  { kind: 'message', id: 2, message: { id: 'u', role: 'user', text: 'hi', at: 0 } },
  {
    kind: 'message',
    id: 3,
    message: {
      id: 'a',
      role: 'assistant',
      at: 0,
      model: 'm',
      status: 'streaming',
      parts: [
        { type: 'text', text: 'x' },
        { type: 'tool', callId: 'chat-1', server: 's', tool: 't', modelName: 's__t', args: {}, status: 'running' },
      ],
    },
  },
];

describe('where a request card goes', () => {
  it('knows the call ids the conversation shows: direct calls and the chat’s tool calls', () => {
    expect([...callIdsOf(entries)].sort()).toEqual(['chat-1', 'direct-1']);
  });

  it('on its call’s card when that card is on screen, else in the panel; a chat run’s approval in neither', () => {
    const onDirect = request('a', { callId: 'direct-1' });
    const onChat = request('b', { callId: 'chat-1' });
    const elsewhere = request('c', { callId: 'gone' });
    const noCall = request('d', {});
    const approval = request('e', { callId: 'chat-1', runId: 'run' }, 'tool-approval');
    const loneApproval = request('f', {}, 'tool-approval');
    const all = [onDirect, onChat, elsewhere, noCall, approval, loneApproval];
    const onScreen = callIdsOf(entries);
    expect(onCall(all, 'direct-1')).toEqual([onDirect]);
    expect(onCall(all, 'chat-1')).toEqual([onChat]);
    expect(inPanel(all, onScreen)).toEqual([elsewhere, noCall, loneApproval]);
    // With the conversation hidden (no call on screen), everything but the chat's approvals is in the panel.
    expect(inPanel(all, new Set())).toEqual([onDirect, onChat, elsewhere, noCall, loneApproval]);
  });

  it('settled notices follow the same rule as the request they were', () => {
    const settled: SettledRequest[] = [
      { at: 0, view: request('a', { callId: 'direct-1' }), settled: { id: 'a', server: 's', kind: 'elicitation-form', outcome: 'declined' } },
      {
        at: 0,
        view: request('c', {}),
        settled: { id: 'c', server: 's', kind: 'elicitation-form', outcome: 'timed-out', message: 'timed out after 300 s with no answer' },
      },
    ];
    expect(onCall(settled, 'direct-1').map((r) => r.settled.id)).toEqual(['a']);
    expect(inPanel(settled, callIdsOf(entries)).map((r) => r.settled.id)).toEqual(['c']);
  });
});
