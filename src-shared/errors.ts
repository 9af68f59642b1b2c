/** The error that crosses the boundary (IPC, the bridge). Zod-free; no node:, no DOM. */

/** The error shape that crosses the boundary: something a person can act on. */
export interface HostError {
  code: HostErrorCode;
  message: string;
  /**
   * Structured facts about the failure, for the UI to use instead of parsing `message`: e.g. `{ server, tool }`,
   * `{ file, line, column }`, `{ exitCode, signal }`. JSON values only (it crosses IPC and the bridge).
   */
  data?: Record<string, unknown>;
}
export type HostErrorCode =
  | 'invalid-argument'
  | 'unknown-server'
  | 'unknown-tool'
  | 'server-not-ready'
  | 'tool-call-failed'
  | 'cancelled'
  | 'config-invalid'
  /** The LLM provider failed (key rejected, rate limit, connection lost): the message says which and what to do. */
  | 'provider-error'
  /** Nothing to chat with yet (no provider configured): the message says how to add one. */
  | 'not-configured'
  /** The server (or this build of Switchboard) does not offer that feature; the message says which. */
  | 'not-supported'
  /** The server answered a request (resources/read, completion/complete, …) with an error; the message has its answer. */
  | 'request-failed'
  /** The tool's definition changed since it was trusted, it is new, or it hides text: a person must review it (`tools:trust`). */
  | 'needs-review'
  | 'internal';
const errorCodeFlags = {
  'invalid-argument': true,
  'unknown-server': true,
  'unknown-tool': true,
  'server-not-ready': true,
  'tool-call-failed': true,
  cancelled: true,
  'config-invalid': true,
  'provider-error': true,
  'not-configured': true,
  'not-supported': true,
  'request-failed': true,
  'needs-review': true,
  internal: true,
} as const satisfies Record<HostErrorCode, true>;
export function isHostErrorCode(code: unknown): code is HostErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCodeFlags, code);
}
