import type { Conversation } from '../../../src-shared/contract/chat';

/**
 * The ids the host runs a model's tool calls under. A provider's tool-call id is used as it is when free; a local
 * model that numbers its calls `call_0`, `call_1` in every step and every turn would otherwise make two calls share a
 * card, a registry entry, progress, Cancel and approval. The model still gets its own id back with the result.
 */

/** `id`, or `<id>-2`, `-3`… : the first that is not taken. */
export function freeCallId(id: string, taken: (callId: string) => boolean): string {
  let callId = id;
  for (let n = 2; taken(callId); n++) callId = `${id}-${n}`;
  return callId;
}

/** Whether a card of the conversation already runs, or ran, under `callId`. */
export function usesCallId(conversation: Pick<Conversation, 'messages'>, callId: string): boolean {
  return conversation.messages.some((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'tool' && p.callId === callId));
}
