import type { LogLevel } from '../../../src-shared/host-api';
import { defaultMaxMessageBytes } from '../process/transport';

/** Supervision knobs; the defaults suit a desktop host. */
export interface SupervisionPolicy {
  /** Connect + handshake + tools/list must finish within this (a server's `timeout` overrides). */
  startTimeoutMs: number;
  /** Each request (reset by progress notifications); a server's `timeout` overrides. */
  requestTimeoutMs: number;
  /**
   * The largest single stdio message (one stdout line) accepted, in bytes; a longer line is dropped as it streams
   * and reported. (The era probe has no timeout of its own: it may take the whole connect timeout.)
   */
  maxMessageBytes: number;
  autoRestart: boolean;
  restartBaseDelayMs: number;
  restartMaxDelayMs: number;
  /** A server that dies within `stableMs` of being ready this many times in a row is a crash loop. */
  crashLoopCount: number;
  stableMs: number;
  /** How long close() waits after ending stdin before signalling the process tree. */
  graceMs: number;
  /** Protocol era negotiation: `auto` (probe, cached) or `legacy` (initialize only; benchmarks compare). */
  versionMode: 'auto' | 'legacy';
  /** How often a ready remote server is pinged (`ping`, or `server/discover` on 2026-07-28); 0: never. */
  pingIntervalMs: number;
  /** A ping unanswered this long is missed: the server is marked unhealthy and reconnected (with backoff). */
  pingTimeoutMs: number;
  /** Asked of every server instead of its configured `logLevel` (the CLI's `--log-level`). */
  logLevel?: LogLevel;
  /**
   * The 2026-07-28 `subscriptions/listen` stream (list changes, resource updates): `await` (default) opens it as
   * part of the connect; `skip` never opens it — for one-shot commands (the CLI's `tools`, `call`, …), which end
   * before a list could change, so a server is ready one round trip sooner.
   */
  listen?: 'await' | 'skip';
}

export const defaultPolicy: SupervisionPolicy = {
  startTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  maxMessageBytes: defaultMaxMessageBytes,
  autoRestart: true,
  restartBaseDelayMs: 500,
  restartMaxDelayMs: 30_000,
  crashLoopCount: 3,
  stableMs: 10_000,
  graceMs: 1000,
  versionMode: 'auto',
  pingIntervalMs: 30_000,
  pingTimeoutMs: 10_000,
};
