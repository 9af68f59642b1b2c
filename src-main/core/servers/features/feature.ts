import type { Client, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { HostEventName, HostEvents, LogLevel } from '../../../../src-shared/host-api';
import type { Disposable } from '../../../../src-shared/lifecycle';
import type { SamplingRecord } from '../../chat/audit-log';
import type { RootView } from '../../config/resolve';
import type { Explained } from '../../errors';
import type { RequestQueue } from '../../requests/queue';
import type { Sampler } from '../../chat/sampler';
import type { PinStore } from '../../trust/pins';
import type { SkillPinStore } from '../../trust/skill-pins';

/*
 * A feature module: one MCP feature of one server session (tools, resources, prompts, logging, tasks, health).
 * The session creates one of each per start, attaches each to every SDK client it makes (handlers, client
 * capabilities), tells each when it is connected and when it ends, and disposes them in reverse order.
 */

export type FeatureName = 'tools' | 'resources' | 'prompts' | 'completions' | 'logging' | 'tasks' | 'health' | 'sampling' | 'elicitation' | 'roots' | 'skills';

export type HostEmit = <E extends HostEventName>(event: E, payload: HostEvents[E]) => void;

/** What a feature may use of its session and host. */
export interface FeatureContext {
  readonly server: string;
  /** The connected SDK client; undefined before connect and after the session ended. */
  client(): Client | undefined;
  /** Per-request timeout (the server's `timeout`, else the policy's). */
  requestTimeoutMs(): number;
  /** A `[switchboard] …` line for the server's stderr tail and log. */
  note(line: string): void;
  /** This feature's state changed (its list, its error): the server's view is pushed again. */
  changed(feature: FeatureName): void;
  /** Host events (`features:changed`, `logs:appended`, `calls:progress`, `resources:updated`, …). */
  emit: HostEmit;
  /** A line for the server's rotating log file only (not the stderr tail). */
  log(line: string): void;
  /**
   * The ready session stopped answering (a missed ping): the supervisor closes it and reconnects with backoff.
   * `lost`: the ping's own text, code and data (what `reason` says, quoted as the cause).
   */
  unhealthy(reason: string, lost: Explained): void;
  /** A remote server (Streamable HTTP / SSE), not a stdio child. */
  readonly remote: boolean;
  /** The server log level to ask for: the policy's override, else the server's `logLevel`, else `info`. */
  readonly logLevel: LogLevel;
  /** Periodic health checks (remote servers): every `intervalMs` (0: never), missed after `timeoutMs`. */
  readonly ping: { intervalMs: number; timeoutMs: number };
  /** Pinned tool definitions: without it every tool counts as trusted. */
  readonly pins?: PinStore | undefined;
  /** Pinned skills: without it every skill counts as trusted. */
  readonly skillPins?: SkillPinStore | undefined;
  /** The host's queue of things a person must answer (sampling, elicitation); absent: every such request is declined. */
  readonly requests?: RequestQueue;
  /** Runs sampling on the chat's providers; absent: sampling is declined (no provider). */
  readonly sampler?: Sampler;
  /** One audit entry per sampling request (the chat's audit log). */
  readonly audit?: { recordSampling(record: SamplingRecord): void };
  /** Which face answers (the audit entry's source). */
  readonly answerSource?: 'app' | 'cli';
  /** The server's roots now (file:// URIs with names); they may change without a restart. */
  roots?(): readonly RootView[];
  /** The server's sampling policy now (`sampling` in its entry). */
  samplingPolicy?(): SamplingPolicy;
  /** The context a sampling request's `includeContext` asks for, as system-prompt text (requests/sampling-context.ts). */
  samplingContext?(scope: 'thisServer' | 'allServers'): string | undefined;
}

/** A server entry's `sampling` key, with its defaults. */
export interface SamplingPolicy {
  /** ask (default): a person approves each request and its result; allow: no one is asked; never: declined. */
  mode: 'ask' | 'allow' | 'never';
  /** At most this many sampling requests per minute (more are declined); absent: no limit. */
  perMinute?: number;
}

export interface ConnectedInfo {
  client: Client;
  era: 'modern' | 'legacy' | undefined;
  capabilities: ServerCapabilities | undefined;
  /** What connect-time work may take (the rest of the start's timeout). */
  timeoutMs: number;
}

export interface SessionFeature extends Disposable {
  readonly name: FeatureName;
  /** Its connect-time work is part of the start (its failure fails the start); others run after ready. */
  readonly blocking?: boolean;
  /** Before each connect attempt: register notification handlers, declare client capabilities. */
  attach?(client: Client): void;
  /** The session is connected (blocking features: before it is ready). */
  connected?(info: ConnectedInfo): Promise<void> | void;
  /** What this feature asks of a 2026-07-28 `subscriptions/listen` stream (legacy servers push unasked). */
  listenFilter?(info: ConnectedInfo): SubscriptionFilter;
  /** The session ended: drop what came from it. */
  disconnected?(): void;
}

/**
 * The 2025-11-25 client `tasks` capability: task-augmented sampling and elicitation requests are run as tasks the
 * server polls (`tasks/get`, `tasks/result`), lists and cancels (McpClient's ClientTaskStore). One object for both
 * features: the SDK merges capabilities one level deep only.
 */
export const clientTaskRequests = { tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } } as const;
