import { Client, LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode, type ElicitRequestURLParams, type ElicitResult, type LoggingLevel, type RequestOptions } from '@modelcontextprotocol/client';
import { currentCallId, runWithCallId } from './call-origin';

/** Marks a call's request options with its call id (spreads of the options keep it; the SDK passes them on). */
const callIdKey = Symbol('switchboard.callId');
type Tagged = { [callIdKey]?: string };

function callIdOf(options: RequestOptions | undefined): string | undefined {
  return (options as Tagged | undefined)?.[callIdKey];
}

/**
 * The SDK client with what 2.4.0 leaves out for a host:
 * - On 2026-07-28 the log level a client wants travels in every request's `_meta` (`io.modelcontextprotocol/logLevel`;
 *   there is no `logging/setLevel` in that era), and a server built on the SDK sends a request's
 *   `notifications/message` only when that request carries it. The SDK's envelope seam (`_outboundMetaEnvelope`, the
 *   protected per-request `_meta` of a modern connection) builds the level into its codec but never fills it in; this
 *   fills it in from `logLevel` (set by the logging feature). Legacy connections have no envelope.
 * - A call refused with `-32042` (URL elicitation required): each URL is put to the person through the elicitation
 *   feature's handler (`urlElicitation`); when all are accepted, the call is made once more.
 * - Which call a server's request came from (see call-origin.ts): `tools/call`s made inside a call's context are
 *   counted while in flight, and their `input_required` rounds run in that call's context, so the sampling,
 *   elicitation and roots handlers can name the call (`originCallId()`).
 */
/** The URL elicitations a failed call says it needs first (`-32042` URLElicitationRequired, 2025-11-25). */
export function urlElicitationsOf(error: unknown): ElicitRequestURLParams[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const valid = listed.filter(
    (e: unknown): e is ElicitRequestURLParams =>
      typeof e === 'object' && e !== null && (e as { mode?: unknown }).mode === 'url' && typeof (e as { url?: unknown }).url === 'string' && typeof (e as { elicitationId?: unknown }).elicitationId === 'string' && typeof (e as { message?: unknown }).message === 'string',
  );
  return valid.length > 0 ? valid : undefined;
}

export class HostClient extends Client {
  /** The level to ask for on 2026-07-28 connections; undefined: none (the server sends no log messages). */
  logLevel: LoggingLevel | undefined;
  private readonly inFlight = new Map<string, number>();

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.logLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel };
  }

  /** Set by the elicitation feature: asks the person's consent for a URL a call needs first (see callTool). */
  urlElicitation: ((params: ElicitRequestURLParams, signal: AbortSignal | undefined) => Promise<ElicitResult>) | undefined;

  override async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    const callId = currentCallId();
    if (callId === undefined) return this.callWithPrerequisites(...args);
    const [params, options] = args;
    const tagged: NonNullable<typeof options> & Tagged = { ...options, [callIdKey]: callId };
    this.inFlight.set(callId, (this.inFlight.get(callId) ?? 0) + 1);
    try {
      return await this.callWithPrerequisites(params, tagged);
    } finally {
      const left = (this.inFlight.get(callId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(callId);
      else this.inFlight.set(callId, left);
    }
  }

  private async callWithPrerequisites(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    try {
      return await super.callTool(...args);
    } catch (error) {
      const needed = urlElicitationsOf(error);
      const ask = this.urlElicitation;
      if (!needed || !ask) throw error;
      for (const elicitation of needed) {
        const answer = await ask(elicitation, args[1]?.signal);
        if (answer.action !== 'accept') throw error;
      }
      return await super.callTool(...args);
    }
  }

  protected override _resolveNonCompleteResult(...args: Parameters<Client['_resolveNonCompleteResult']>): Promise<unknown> {
    const callId = callIdOf(args[1].options);
    return runWithCallId(callId, () => super._resolveNonCompleteResult(...args));
  }

  /**
   * The call a server request (being handled now) arose from: the call whose MRTR round or HTTP response stream it
   * came on, else the one call in flight on this connection; undefined when that cannot be told.
   */
  originCallId(): string | undefined {
    const current = currentCallId();
    if (current !== undefined) return current;
    if (this.inFlight.size !== 1) return undefined;
    return this.inFlight.keys().next().value;
  }
}
