import { Client, LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/client';

/**
 * The SDK client with the one thing 2.4.0 leaves out: on 2026-07-28 the log level a client wants travels in every
 * request's `_meta` (`io.modelcontextprotocol/logLevel`; there is no `logging/setLevel` in that era), and a server
 * built on the SDK sends a request's `notifications/message` only when that request carries it. The SDK's envelope
 * seam (`_outboundMetaEnvelope`, the protected per-request `_meta` of a modern connection) builds the level into its
 * codec but never fills it in; this fills it in from `logLevel` (set by the logging feature). Legacy connections have
 * no envelope, so their traffic is unchanged.
 */
export class HostClient extends Client {
  /** The level to ask for on 2026-07-28 connections; undefined: none (the server sends no log messages). */
  logLevel: LoggingLevel | undefined;

  /**
   * The last envelope made, with the SDK's envelope and the level it was made from: the SDK makes its envelope anew
   * for each request (same protocol version, client info and capabilities objects), so one with the level added
   * is kept while those stay the same.
   */
  private made: { base: Readonly<Record<string, unknown>>; level: LoggingLevel; envelope: Readonly<Record<string, unknown>> } | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    const level = this.logLevel;
    if (envelope === undefined || level === undefined) return envelope;
    const made = this.made;
    if (made && made.level === level && sameEntries(made.base, envelope)) return made.envelope;
    const withLevel = Object.freeze({ ...envelope, [LOG_LEVEL_META_KEY]: level });
    this.made = { base: envelope, level, envelope: withLevel };
    return withLevel;
  }
}

/** Same keys with the same values (by identity): the SDK's envelope is a few keys whose values are its own objects. */
function sameEntries(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  let count = 0;
  for (const key in b) {
    if (a[key] !== b[key]) return false;
    count++;
  }
  for (const _ in a) count--;
  return count === 0;
}
