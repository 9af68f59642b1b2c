import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../../../src-shared/config-schema';
import { CoreError, messageOf } from '../errors';
import { formatBytes, type OversizedLine, type ProcessExit } from '../process-transport';

/*
 * Why a server failed, in words a person can act on. Pure text helpers shared by the session (connect) and the
 * supervisor (exits, calls).
 */

export class DeadlineError extends Error {}
/** A failure whose message is already the whole explanation. */
export class ReasonError extends Error {}
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

/** The auth-params of a WWW-Authenticate header (`Bearer realm="x", resource_metadata="…"`), names lower-cased. */
export function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    const name = match[1]?.toLowerCase();
    if (name === undefined || name in params) continue;
    params[name] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return params;
}

export function signInText(server: string, url: URL, challenge: AuthChallenge, headers: Record<string, string> | undefined, oauthProblem?: string): string {
  const params = challenge.header !== undefined ? challengeParams(challenge.header) : {};
  const details = [
    params.realm !== undefined ? `realm "${params.realm}"` : undefined,
    params.resource_metadata !== undefined ? `resource metadata at ${params.resource_metadata}` : undefined,
    params.scope !== undefined ? `scope "${params.scope}"` : undefined,
    params.error !== undefined ? `error "${params.error}"${params.error_description !== undefined ? ` (${params.error_description})` : ''}` : undefined,
  ].filter((d): d is string => d !== undefined);
  const sentToken = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const answer = challenge.status === 401 ? 'HTTP 401 Unauthorized' : 'HTTP 403 Forbidden with a WWW-Authenticate challenge';
  return [
    `Server "${server}" needs sign-in: ${url.href} answered ${answer}${details.length ? ` (${details.join('; ')})` : ''}.`,
    sentToken
      ? 'It refused the Authorization header in its config entry: check that the token is valid and not expired.'
      : oauthProblem !== undefined
        ? `Switchboard could not start an OAuth sign-in (${oauthProblem}). If the service hands out tokens, add one to the entry instead: "headers": { "Authorization": "Bearer <token>" }.`
        : 'Switchboard cannot sign in with OAuth for it. As a workaround, get a token from the service and add it to the entry: "headers": { "Authorization": "Bearer <token>" }.',
  ].join(' ');
}

export function oversizedText(server: string, info: OversizedLine): string {
  const limit = formatBytes(info.limit);
  const what = info.id !== undefined ? `its reply to request ${JSON.stringify(info.id)} as a stdout line of over ${limit}` : `a stdout line of over ${limit} without a newline`;
  return `server "${server}" wrote ${what}; it was discarded (it begins ${JSON.stringify(info.head.slice(0, 80))}). One MCP message may be at most ${limit} (the maxMessageBytes limit)${info.id !== undefined ? '; that request failed' : ''}.`;
}

export function exitText(server: string, exit: ProcessExit | undefined): string {
  if (!exit) return `Server "${server}" closed the connection`;
  return exit.signal ? `Server "${server}" was ended by signal ${exit.signal}` : `Server "${server}" exited with code ${exit.code ?? 'unknown'}`;
}

/** `{ exitCode, signal }` for HostError.data. */
export function exitData(exit: ProcessExit | undefined): Record<string, unknown> {
  return exit ? { exitCode: exit.code, signal: exit.signal } : {};
}

export function timeoutText(server: string, timeout: number, noise?: { messages: number; noiseLines: number; firstNoise: string | undefined }): string {
  if (noise && noise.messages === 0 && noise.noiseLines > 0) {
    return `The server wrote only non-JSON to stdout (${noise.noiseLines} line${noise.noiseLines === 1 ? '' : 's'}, first: ${JSON.stringify(noise.firstNoise)}), so no MCP message arrived within ${timeout} ms. stdout belongs to the protocol: the server must log to stderr.`;
  }
  return `Server "${server}" did not finish connecting within ${timeout} ms. If it is only slow to start (a first npx or uvx download, a JVM, a busy machine), raise "timeout" (in ms) in its config entry.`;
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
  const { entry } = context;
  if (error instanceof CoreError || error instanceof DeadlineError || error instanceof ReasonError) return error.message;
  // The era probe or the handshake ran out of the connect timeout (and beat the deadline timer to it).
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return context.timeoutText();
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EACCES') {
    return `Cannot start "${entry.command ?? ''}": ${code === 'ENOENT' ? 'not found' : 'permission denied'} (${messageOf(error)}).`;
  }
  let message = messageOf(error);
  if (error instanceof SdkHttpError) message = `the server answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''} (${message})`;
  const causes = causeChain(error);
  const last = causes[causes.length - 1];
  if (last !== undefined && last !== error && !message.includes(messageOf(last))) message += ` (${messageOf(last)})`;
  const causeCode = causes.map((c) => (c as { code?: unknown }).code).find((c) => typeof c === 'string');
  if (causeCode === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) {
    return `nothing is listening at ${entry.url ?? 'the URL'} (connection refused). Is the server running?`;
  }
  if (causeCode === 'ENOTFOUND') return `cannot resolve the host of ${entry.url ?? 'the URL'} (DNS lookup failed)`;
  if (entry.command !== undefined) {
    if (context.exit) return `${exitText(context.server, context.exit)} before it was ready (${message}).${context.tail()}`;
    return `${message}.${context.tail()}`;
  }
  return message;
}
