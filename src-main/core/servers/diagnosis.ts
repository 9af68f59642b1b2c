import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../../../src-shared/schemas/config';
import type { StatusReason, StatusReasonData } from '../../../src-shared/host-api';
import { CoreError, messageOf, type Explained } from '../errors';
import { challengeParams } from '../auth/challenge';
import { formatBytes, type OversizedLine, type ProcessExit } from '../process/transport';

/*
 * Why a server failed, in words a person can act on. Pure text helpers shared by the session (connect) and the
 * supervisor (exits, calls). Each explanation also has a stable code and data (a StatusReason), so that the UI can
 * word it in the person's language (src-shared/i18n: `reasons.<code>`); the English text stays the host's own.
 */

function explained(text: string, code: string, data?: StatusReasonData, lines?: string[]): Explained {
  return { text, reason: { code, ...(data !== undefined ? { data } : {}), ...(lines !== undefined && lines.length > 0 ? { lines } : {}) } };
}

export class DeadlineError extends Error {}
/** A failure whose message is already the whole explanation (`reason`: its code and data, when known). */
export class ReasonError extends Error {
  readonly reason: StatusReason | undefined;
  constructor(message: string, options?: ErrorOptions & { reason?: StatusReason }) {
    super(message, options);
    this.reason = options?.reason;
  }
}
/** A remote server needs an OAuth sign-in by a person (status `needs-login`, not `error`); the message says where. */
export class SignInRequired extends ReasonError {}
/** The stdio server exited while our `server/discover` probe was unanswered. */
export class ExitedOnProbe extends Error {}

/** Rejects with `reason()` when `ms` pass first. */
export async function withDeadline<T>(work: Promise<T>, ms: number, reason: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(reason())), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export interface AuthChallenge {
  status: number;
  method: string;
  header?: string;
}

/**
 * A 401 / 403 challenge the OAuth layer did not take up, explained, with code `sign-in-required` and its data: `how`
 * is `token-refused` (the entry's Authorization header was refused), `oauth-failed` (`problem`: why the OAuth sign-in
 * could not start) or `no-oauth`; the challenge's own parameters (realm, scope, …) as the server sent them.
 */
export function signInExplained(
  server: string,
  url: URL,
  challenge: AuthChallenge,
  headers: Record<string, string> | undefined,
  oauthProblem?: string,
): Explained {
  const params = challenge.header !== undefined ? challengeParams(challenge.header) : {};
  const details = [
    params.realm !== undefined ? `realm "${params.realm}"` : undefined,
    params.resource_metadata !== undefined ? `resource metadata at ${params.resource_metadata}` : undefined,
    params.scope !== undefined ? `scope "${params.scope}"` : undefined,
    params.error !== undefined ? `error "${params.error}"${params.error_description !== undefined ? ` (${params.error_description})` : ''}` : undefined,
  ].filter((d): d is string => d !== undefined);
  const sentToken = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const answer = challenge.status === 401 ? 'HTTP 401 Unauthorized' : 'HTTP 403 Forbidden with a WWW-Authenticate challenge';
  const how = sentToken ? 'token-refused' : oauthProblem !== undefined ? 'oauth-failed' : 'no-oauth';
  const data: StatusReasonData = { server, url: url.href, httpStatus: challenge.status, how };
  if (oauthProblem !== undefined && !sentToken) data.problem = oauthProblem;
  for (const [name, key] of [
    ['realm', 'realm'],
    ['resource_metadata', 'resourceMetadata'],
    ['scope', 'scope'],
    ['error', 'error'],
    ['error_description', 'errorDescription'],
  ] as const) {
    const value = params[name];
    if (value !== undefined) data[key] = value;
  }
  const text = [
    `Server "${server}" needs sign-in: ${url.href} answered ${answer}${details.length ? ` (${details.join('; ')})` : ''}.`,
    sentToken
      ? 'It refused the Authorization header in its config entry: check that the token is valid and not expired.'
      : oauthProblem !== undefined
        ? `Switchboard could not start an OAuth sign-in (${oauthProblem}). If the service hands out tokens, add one to the entry instead: "headers": { "Authorization": "Bearer <token>" }.`
        : 'Switchboard cannot sign in with OAuth for it. As a workaround, get a token from the service and add it to the entry: "headers": { "Authorization": "Bearer <token>" }.',
  ].join(' ');
  return explained(text, 'sign-in-required', data);
}

export function oversizedText(server: string, info: OversizedLine): string {
  const limit = formatBytes(info.limit);
  const what =
    info.id !== undefined
      ? `its reply to request ${JSON.stringify(info.id)} as a stdout line of over ${limit}`
      : `a stdout line of over ${limit} without a newline`;
  return `server "${server}" wrote ${what}; it was discarded (it begins ${JSON.stringify(info.head.slice(0, 80))}). One MCP message may be at most ${limit} (the maxMessageBytes limit)${info.id !== undefined ? '; that request failed' : ''}.`;
}

export function exitText(server: string, exit: ProcessExit | undefined): string {
  return exitExplained(server, exit).text;
}

/** How a stdio child ended, as a StatusReason's data: `how` is `closed`, `signal` or `code`. */
export function exitFacts(server: string, exit: ProcessExit | undefined): StatusReasonData {
  if (!exit) return { server, how: 'closed' };
  return exit.signal ? { server, how: 'signal', signal: exit.signal } : { server, how: 'code', exitCode: exit.code ?? 'unknown' };
}

/** `Server "x" exited with code 3` (no full stop), code `server-exited`. */
export function exitExplained(server: string, exit: ProcessExit | undefined): Explained {
  const facts = exitFacts(server, exit);
  const text = !exit
    ? `Server "${server}" closed the connection`
    : exit.signal
      ? `Server "${server}" was ended by signal ${exit.signal}`
      : `Server "${server}" exited with code ${exit.code ?? 'unknown'}`;
  return explained(text, 'server-exited', facts);
}

/** `{ exitCode, signal }` for HostError.data. */
export function exitData(exit: ProcessExit | undefined): Record<string, unknown> {
  return exit ? { exitCode: exit.code, signal: exit.signal } : {};
}

export interface StdoutNoise {
  messages: number;
  noiseLines: number;
  firstNoise: string | undefined;
}

export function timeoutExplained(server: string, timeout: number, noise?: StdoutNoise): Explained {
  if (noise && noise.messages === 0 && noise.noiseLines > 0) {
    return explained(
      `The server wrote only non-JSON to stdout (${noise.noiseLines} line${noise.noiseLines === 1 ? '' : 's'}, first: ${JSON.stringify(noise.firstNoise)}), so no MCP message arrived within ${timeout} ms. stdout belongs to the protocol: the server must log to stderr.`,
      'stdout-noise',
      { server, timeout, count: noise.noiseLines, first: JSON.stringify(noise.firstNoise) },
    );
  }
  return explained(
    `Server "${server}" did not finish connecting within ${timeout} ms. If it is only slow to start (a first npx or uvx download, a JVM, a busy machine), raise "timeout" (in ms) in its config entry.`,
    'start-timeout',
    { server, timeout },
  );
}

export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [error];
  let current: unknown = error;
  while (chain.length < 8 && typeof current === 'object' && current !== null && 'cause' in current) {
    current = (current as { cause?: unknown }).cause;
    if (current === undefined) break;
    chain.push(current);
  }
  return chain;
}

export function httpStatus(error: unknown): string {
  return error instanceof SdkHttpError ? `HTTP ${error.status}` : messageOf(error);
}

/** A 4xx from the initial POST: the server does not speak Streamable HTTP (legacy HTTP+SSE servers answer 404/405). */
export function isClientHttpError(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status >= 400 && error.status < 500;
  const message = messageOf(error);
  return /\b(HTTP )?4\d\d\b/.test(message) && !/ECONNREFUSED/.test(message);
}

export interface StartFailureContext {
  server: string;
  entry: ServerEntry;
  /** Why the connect ran out of time. */
  timeoutText: () => string;
  /** The stdio child's exit, if it ended. */
  exit: ProcessExit | undefined;
  /** The server's recent stderr, as " Last stderr lines: …" (or empty). */
  tail: () => string;
}

/** A failed start (connect, handshake, first tools/list), explained. */
export function explainStartFailure(error: unknown, context: StartFailureContext): string {
  return startFailureExplained(error, context).text;
}

/**
 * The same explanation with its code and data. `reason` is undefined where only the text is known: a ReasonError
 * made without one, a timeout whose text the context made (the caller knows which, see `timeoutExplained`).
 */
export function startFailureExplained(
  error: unknown,
  context: StartFailureContext & { tailLines?: () => string[] },
): { text: string; reason: StatusReason | undefined } {
  const { entry } = context;
  const lines = (): string[] => context.tailLines?.() ?? [];
  if (error instanceof CoreError) {
    return { text: error.message, reason: { code: error.code, ...(error.data !== undefined ? { data: reasonData(error.data) } : {}) } };
  }
  if (error instanceof ReasonError) return { text: error.message, reason: error.reason };
  if (error instanceof DeadlineError) return { text: error.message, reason: undefined };
  // The era probe or the handshake ran out of the connect timeout (and beat the deadline timer to it).
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return { text: context.timeoutText(), reason: undefined };
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EACCES') {
    return explained(`Cannot start "${entry.command ?? ''}": ${code === 'ENOENT' ? 'not found' : 'permission denied'} (${messageOf(error)}).`, 'spawn-failed', {
      command: entry.command ?? '',
      why: code === 'ENOENT' ? 'not-found' : 'denied',
      detail: messageOf(error),
    });
  }
  let message = messageOf(error);
  let http: StatusReasonData | undefined;
  if (error instanceof SdkHttpError) {
    http = { httpStatus: error.status, statusText: error.statusText ?? '', detail: message };
    message = `the server answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''} (${message})`;
  }
  const causes = causeChain(error);
  const last = causes[causes.length - 1];
  if (last !== undefined && last !== error && !message.includes(messageOf(last))) message += ` (${messageOf(last)})`;
  const causeCode = causes.map((c) => (c as { code?: unknown }).code).find((c) => typeof c === 'string');
  const url = entry.url ?? '';
  if (causeCode === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) {
    return explained(`nothing is listening at ${entry.url ?? 'the URL'} (connection refused). Is the server running?`, 'connection-refused', { url });
  }
  if (causeCode === 'ENOTFOUND') return explained(`cannot resolve the host of ${entry.url ?? 'the URL'} (DNS lookup failed)`, 'dns-failed', { url });
  if (entry.command !== undefined) {
    if (context.exit) {
      return explained(
        `${exitText(context.server, context.exit)} before it was ready (${message}).${context.tail()}`,
        'exited-before-ready',
        { ...exitFacts(context.server, context.exit), detail: message },
        lines(),
      );
    }
    return explained(`${message}.${context.tail()}`, 'start-failed', { server: context.server, detail: message }, lines());
  }
  if (http !== undefined) return explained(message, 'http-status', { server: context.server, url, ...http });
  return explained(message, 'connect-failed', { server: context.server, url, detail: message });
}

/** HostError.data as a StatusReason's: JSON scalars and string lists only (anything else is dropped). */
export function reasonData(data: Record<string, unknown>): StatusReasonData {
  const out: StatusReasonData = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) out[key] = value;
    else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) out[key] = value;
  }
  return out;
}
