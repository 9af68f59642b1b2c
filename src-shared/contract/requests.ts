/**
 * One queue of things a person must answer (zod-free): the chat's tool approvals, a server's sampling request
 * (and then its result), elicitation forms and URL consents. Each pending request has a server, a kind, a payload,
 * a deadline and an origin (the call it arose from, when one is known); it is answered accept / decline / cancel.
 */

export type PendingRequestKind = 'tool-approval' | 'sampling' | 'sampling-result' | 'elicitation-form' | 'elicitation-url';

/** Where a request arose, so the UI can show its card there (the tool card that caused it), else in a panel. */
export interface PendingRequestOrigin {
  /** The `callId` of the `tools:call` (or the chat's tool call id) that was running when the server asked. */
  callId?: string;
  /** The chat run that asked (tool approvals). */
  runId?: string;
  conversationId?: string;
}

/** The model wants to call a tool (the chat's approval). */
export interface ToolApprovalPayload {
  tool: string;
  title?: string;
  args: unknown;
  readOnly: boolean;
}

/** One message of a sampling request, as MCP sends it (text shown; other content named). */
export interface SamplingMessageView {
  role: 'user' | 'assistant';
  /** The text parts joined; other parts are described (`[image image/png, 12 KB]`). */
  text: string;
  /** The raw MCP content (for a JSON view). */
  content: unknown;
}

/** `sampling/createMessage`, as the person sees it before anything reaches a model. */
export interface SamplingPayload {
  messages: SamplingMessageView[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: unknown;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  /** Tools the server offers the model inside this sampling (2025-11-25), by name. */
  tools?: { name: string; description?: string }[];
  /** Models the person can pick (`provider:model`); empty when no provider is configured. */
  models: string[];
  /** The model that will be used unless another is picked. */
  model?: string;
}

/** The model's answer to a sampling request, shown (and editable) before it goes back to the server. */
export interface SamplingResultPayload {
  model: string;
  text: string;
  stopReason?: string;
}

/** `elicitation/create` in form mode. */
export interface ElicitationFormPayload {
  message: string;
  /** The flat JSON Schema object the server asks to be filled in. */
  requestedSchema: Record<string, unknown>;
  /** Asked again: what was wrong with the last answer (codes and data, worded by the UI and the CLI). */
  problems?: FormProblem[];
}

/** `elicitation/create` in URL mode: the person is asked to open a URL (never opened without consent). */
export interface ElicitationUrlPayload {
  message: string;
  url: string;
  /** The URL's host, shown prominently. */
  host: string;
  elicitationId?: string;
}

interface PendingRequestBase {
  id: string;
  server: string;
  /** One line a person reads first ("calculator asks to run a model"). */
  title: string;
  createdAt: number;
  /** Epoch ms after which the request is cancelled (and says so); absent: no deadline. */
  deadline?: number;
  origin: PendingRequestOrigin;
}

export type PendingRequestView =
  | (PendingRequestBase & { kind: 'tool-approval'; payload: ToolApprovalPayload })
  | (PendingRequestBase & { kind: 'sampling'; payload: SamplingPayload })
  | (PendingRequestBase & { kind: 'sampling-result'; payload: SamplingResultPayload })
  | (PendingRequestBase & { kind: 'elicitation-form'; payload: ElicitationFormPayload })
  | (PendingRequestBase & { kind: 'elicitation-url'; payload: ElicitationUrlPayload });

/** What `accept` carries, per kind. */
export interface AcceptContent {
  /** Allow this tool from now on (not only this once). */
  'tool-approval': { always?: boolean };
  /** The person's edits before the model runs. */
  sampling: { model?: string; systemPrompt?: string; messages?: { role: 'user' | 'assistant'; text: string }[]; maxTokens?: number };
  /** The person's edit of the model's answer. */
  'sampling-result': { text?: string };
  /** The form's values, validated against `requestedSchema` before they are sent. */
  'elicitation-form': { content: Record<string, string | number | boolean | string[]> };
  /** The person consented; the host opened the URL (desktop) or showed it to be opened. */
  'elicitation-url': Record<string, never>;
}

export type RequestAnswer =
  { action: 'accept'; content?: AcceptContent[PendingRequestKind] } | { action: 'decline'; reason?: string } | { action: 'cancel'; reason?: string };

/** How a request ended. */
export type RequestOutcome = 'accepted' | 'declined' | 'cancelled' | 'timed-out';

export interface RequestSettledView {
  id: string;
  server: string;
  kind: PendingRequestKind;
  outcome: RequestOutcome;
  /** Why, as a person reads it ("timed out after 300 s", "no one is there to answer: not a terminal"), in English. */
  message?: string;
  /** Why, as a code and data the UI and the CLI word in their language (the queue's own reasons); absent: `message` is someone else's text. */
  reason?: RequestReason;
}

/**
 * Why the queue settled a request itself: `timed-out` (data `ms` under a second, else `seconds`), `withdrawn` (the
 * asker gave up), `shutting-down`, `no-answerer` (no one can answer; the queue's default reason), `server-gone`
 * (data `server`: it stopped or disconnected).
 */
export type RequestReasonCode = 'timed-out' | 'withdrawn' | 'shutting-down' | 'no-answerer' | 'server-gone';

export interface RequestReason {
  code: RequestReasonCode;
  data?: Record<string, string | number>;
}

/**
 * What is wrong with a form's value (elicitation), as a code and data beside the English text; `data.field` is the
 * field's title. `min`/`max` are bounds (`count` for choices), `choices` / `unknown` comma-separated values.
 */
export type FormProblemCode =
  | 'required'
  | 'not-a-field'
  | 'not-text'
  | 'not-a-choice'
  | 'empty'
  | 'too-short'
  | 'too-long'
  | 'not-email'
  | 'not-uri'
  | 'not-date'
  | 'not-date-time'
  | 'not-number'
  | 'not-whole'
  | 'too-small'
  | 'too-large'
  | 'not-boolean'
  | 'yes-or-no'
  | 'not-a-list'
  | 'unknown-choices'
  | 'repeated-choice'
  | 'too-few-choices'
  | 'too-many-choices';

export interface FormProblem {
  code: FormProblemCode;
  data: Record<string, string | number>;
  /** The English text, as the core writes it (and sends it on to servers and logs). */
  message: string;
}

/**
 * What became of an accepted request afterwards (sampling: the person approved, then the model ran): `model-answered`
 * (its answer now waits for the person's review, a `sampling-result` request), then how it ended — `done` (the answer
 * went to the server), `failed` (the model failed), `declined` (the person declined the model's answer), `cancelled`
 * (withdrawn or timed out meanwhile). `message`: why, in English, for `failed`, `declined` and `cancelled`.
 */
export type RequestFollowUpStage = 'model-answered' | 'done' | 'failed' | 'declined' | 'cancelled';

export interface RequestFollowUpView {
  /** The accepted request's id. */
  id: string;
  server: string;
  kind: PendingRequestKind;
  stage: RequestFollowUpStage;
  message?: string;
}

/** Pushed when a request is added or settled, or an accepted one moved on; `pending` is the whole queue after the change. */
export interface RequestsChangedEvent {
  pending: PendingRequestView[];
  added?: PendingRequestView;
  settled?: RequestSettledView;
  followUp?: RequestFollowUpView;
}

export interface RequestsResults {
  /** What a person must answer now (oldest first). */
  'requests:list': PendingRequestView[];
  /** Whether a request with that id was pending. */
  'requests:answer': boolean;
}

export interface RequestsEvents {
  /** A request a person must answer was added or settled. */
  'requests:changed': RequestsChangedEvent;
}

/** Each requests channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const requestsChannelNames = { 'requests:list': true, 'requests:answer': true } as const satisfies Record<keyof RequestsResults, true>;
export const requestsEventNames = { 'requests:changed': true } as const satisfies Record<keyof RequestsEvents, true>;
