import type { AssistantMessage, ChatMessage, ToolPart } from '../../src-shared/contract/chat';
import type { ToolResult } from '../../src-shared/host-api';
import { i18n } from '../i18n';
import type { PromptInsert } from './feature-types';

/*
 * What the chat's log shows (the open conversation's transcript): the entry kinds, and how a saved conversation and
 * the streamed events become entries. Pure; the transcript slice holds the entries.
 */

export interface ToolRef {
  server: string;
  tool: string;
}

export type CallState = 'pending' | 'ok' | 'error' | 'cancelled';

/** A tool called directly (`/add {…}` or the form), without a model. */
export interface CallEntry {
  kind: 'call';
  id: number;
  /** Sent with the call so `tools:cancel` can abort it. */
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** What started it: the typed command, or undefined for the form. */
  command: string | undefined;
  state: CallState;
  startedAt: number;
  durationMs?: number;
  /** The tool's result (also for `isError: true`, whose content explains the failure). */
  result?: ToolResult;
  /** The tool answered, but the host no longer held the result when this window asked (see CallView.resultNotKept). */
  resultNotKept?: true;
  /** The call failed before the tool answered (HostCallError, disconnect, cancelled). */
  failure?: { message: string; code?: string };
  cancelling?: boolean;
  cancelError?: string;
  /**
   * This window no longer waits on the call's own reply (the card was restored from the conversation, or the
   * connection dropped while it ran): the host's calls (`calls:list`, `calls:changed`) settle it.
   */
  detached?: true;
}

export interface NoticeEntry {
  kind: 'notice';
  id: number;
  tone: 'info' | 'error';
  command: string;
  message: string;
}

/** A message of the LLM conversation shown in the log. */
export interface MessageEntry {
  kind: 'message';
  id: number;
  message: ChatMessage;
}

/** A prompt's messages inserted into the conversation (from a server's prompts tab or `/prompt-name`). */
export interface PromptEntry {
  kind: 'prompt';
  id: number;
  insert: PromptInsert;
}

export type ChatEntry = CallEntry | NoticeEntry | MessageEntry | PromptEntry;

/** A remote image the user asked to see: fetched by main, shown as a data: URL. */
export type RemoteImage = { state: 'loading' } | { state: 'loaded'; dataUrl: string } | { state: 'error'; message: string };

/** The text of a prompt's messages, as one user message for the model (non-text blocks named, not sent). */
export function promptText(insert: PromptInsert): string {
  const parts = insert.messages.map((m) => {
    const c = m.content;
    const body =
      c.type === 'text'
        ? c.text
        : c.type === 'resource'
          ? (c.resource.text ?? `[${c.resource.uri}]`)
          : c.type === 'resource_link'
            ? `[${c.name}: ${c.uri}]`
            : `[${c.type}]`;
    return insert.messages.length > 1 || m.role !== 'user' ? `${m.role}: ${body}` : body;
  });
  return parts.join('\n\n').trim();
}

export function withPart(message: AssistantMessage, part: ToolPart): AssistantMessage {
  const at = message.parts.findIndex((p) => p.type === 'tool' && p.callId === part.callId);
  const parts = [...message.parts];
  if (at >= 0) parts[at] = part;
  else parts.push(part);
  return { ...message, parts };
}

export function withText(message: AssistantMessage, text: string): AssistantMessage {
  const parts = [...message.parts];
  const last = parts[parts.length - 1];
  if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + text };
  else parts.push({ type: 'text', text });
  return { ...message, parts };
}

const callStates: Record<ToolPart['status'], CallState> = {
  'awaiting-approval': 'pending',
  running: 'pending',
  done: 'ok',
  error: 'error',
  denied: 'error',
  cancelled: 'cancelled',
};

/**
 * What one saved message shows as: a direct call (the person's `/tool`) as its call card again, with the command
 * from the user message before it (which is not shown on its own); anything else as a message.
 */
export function conversationEntries(message: ChatMessage, previous: ChatMessage | undefined, id: () => number): ChatEntry[] {
  if (message.direct !== true) return [{ kind: 'message', id: id(), message }];
  if (message.role === 'user') return [];
  return message.parts.flatMap((part): CallEntry[] => {
    if (part.type !== 'tool') return [];
    // Still running in the conversation the host holds: the host's calls say how it goes on. A running part in a
    // message that is over (the host restarted since) did not finish.
    const running = part.status === 'running';
    const live = running && message.status === 'streaming';
    const state = running && !live ? 'error' : callStates[part.status];
    return [
      {
        kind: 'call',
        id: id(),
        callId: part.callId,
        server: part.server,
        tool: part.tool,
        args: part.args,
        command: previous?.role === 'user' && previous.direct === true ? previous.text : undefined,
        state,
        startedAt: message.at,
        ...(live ? { detached: true as const } : {}),
        ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
        ...(part.result ? { result: part.result } : {}),
        ...(part.error !== undefined
          ? { failure: { message: part.error } }
          : part.status === 'cancelled'
            ? { failure: { message: i18n.t('command.cancelled'), code: 'cancelled' } }
            : state === 'error' && !part.result
              ? { failure: { message: i18n.t('command.stoppedWhile') } }
              : {}),
      },
    ];
  });
}
