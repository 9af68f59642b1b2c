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

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.logLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel };
  }
}
