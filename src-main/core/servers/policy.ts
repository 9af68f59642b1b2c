import type { ServerEntry } from '../../../src-shared/schemas/config';
import type { RemoteServerAuth } from '../auth/manager';
import type { LogLevel } from '../../../src-shared/host-api';
import type { ChildEnv } from '../config/env';
import type { SandboxRequest } from '../process/sandbox/index';
import type { EraCache } from './era-cache';
import type { ChildLedger } from '../process/ledger';
import type { RotatingLog } from '../support/log-file';
import { defaultMaxMessageBytes } from '../process/transport';
import type { PinStore } from '../trust/pins';
import type { SamplingRecord } from '../chat/audit-log';
import type { RequestQueue } from '../requests/queue';
import type { Sampler } from '../chat/sampler';
import type { HostEmit, RootView } from './features/feature';
import type { FetchDecorator, TransportDecorator } from './transports';

export const clientInfo = { name: 'switchboard', version: '0.1.0' };

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

/** Everything a server needs, already resolved (env references, child environment). */
export interface ResolvedServer {
  name: string;
  entry: ServerEntry;
  /** For stdio: the child's whole environment (built by the whitelist rule). */
  childEnv?: ChildEnv;
  /** For remote: headers with references resolved. */
  headers?: Record<string, string>;
  /** A problem found while resolving (e.g. an unset ${env:NAME}); the server fails with it. */
  problem?: string;
  /** The problem's data (a CoreError's: reason, where, name…), so that it is worded in the person's language. */
  problemData?: Record<string, unknown>;
  /** The `${input:ID}` the user must answer before this server can start. */
  needsInput?: string;
  /** For stdio: the sandbox it runs in (the entry's `sandbox`, else the settings default), paths absolute. */
  sandbox?: SandboxRequest;
  /** Its roots (the entry's `roots`, else the settings' default), resolved to file:// URIs. */
  roots?: RootView[];
}

/** What a server's supervisor is given by its owner (the Registry). */
export interface SupervisorDeps {
  policy?: Partial<SupervisionPolicy>;
  eraCache?: EraCache;
  ledger?: ChildLedger;
  /** This server's stderr log (rotating). */
  log?: RotatingLog;
  /** Wraps every transport this server's sessions open (the protocol trace; later OAuth). */
  decorateTransport?: TransportDecorator;
  /** Wraps every remote transport's fetch (the trace's HTTP status and `Mcp-*` headers). */
  decorateFetch?: FetchDecorator;
  /** OAuth sign-in for remote servers (the host's AuthManager). */
  auth?: { forServer(server: ResolvedServer, changed: () => void): RemoteServerAuth | undefined };
  /** Host events the feature modules push (`features:changed`, `logs:appended`, `calls:progress`, …). */
  emit?: HostEmit;
  /** Pinned tool definitions: tools that changed, are new or hide text need review before use (issue 12). */
  pins?: PinStore;
  /** Where sampling and elicitation requests go to be answered by a person (absent: they are declined). */
  requests?: RequestQueue;
  /** Runs sampling requests on the chat's providers. */
  sampler?: Sampler;
  /** One audit entry per sampling request. */
  audit?: { recordSampling(record: SamplingRecord): void };
  /** The context a sampling request's `includeContext` asks for (this server's, or every ready server's). */
  samplingContext?: (server: string, scope: 'thisServer' | 'allServers') => string | undefined;
  /** Which face answers requests (the audit entries' source); default 'app'. */
  answerSource?: 'app' | 'cli';
}
