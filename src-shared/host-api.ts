import type { z } from 'zod';
import type { hostChannels } from './host-schemas';
import { appChannelNames, appEventNames, type AppResults, type AppEvents } from './contract/app';
import { serversChannelNames, serversEventNames, type ServersResults, type ServersEvents } from './contract/servers';
import { configChannelNames, configEventNames, type ConfigResults, type ConfigEvents } from './contract/config';
import { secretsChannelNames, secretsEventNames, type SecretsResults, type SecretsEvents } from './contract/secrets';
import { toolsChannelNames, toolsEventNames, type ToolsResults, type ToolsEvents } from './contract/tools';
import { trustChannelNames, type TrustResults } from './contract/trust';
import { consentChannelNames, type ConsentResults } from './contract/consent';
import { resourcesChannelNames, resourcesEventNames, type ResourcesResults, type ResourcesEvents } from './contract/resources';
import { promptsChannelNames, type PromptsResults } from './contract/prompts';
import { loggingChannelNames, loggingEventNames, type LoggingResults, type LoggingEvents } from './contract/logging';
import { traceChannelNames, traceEventNames, type TraceResults, type TraceEvents } from './contract/trace';
import { requestsChannelNames, requestsEventNames, type RequestsResults, type RequestsEvents } from './contract/requests';
import { authChannelNames, type AuthResults } from './contract/auth';
import { chatChannelNames, chatEventNames, type ChatResults, type ChatEvents } from './contract/chat';
import { settingsChannelNames, type SettingsResults } from './contract/settings';
import { installChannelNames, installEventNames, type InstallResults, type InstallEvents } from './contract/install';
import { appsChannelNames, appsEventNames, type AppsResults, type AppsEvents } from './contract/apps';
import { skillsChannelNames, type SkillsResults } from './contract/skills';
import type { HostError, HostErrorCode } from './errors';

/*
 * The contract, zod-free at runtime: the renderer and the sandboxed preload import this file directly (zod would
 * probe `new Function` under the page's CSP, and a sandboxed preload cannot load it). It joins the per-domain pieces
 * into one HostApi: each ./contract/<domain>.ts declares its channels' results, its events and their names; the
 * argument schemas main parses with are joined in ./host-schemas.ts, whose types are imported here, so both stay one
 * contract. Importers may take any contract type from here.
 */
export type * from './contract/app';
export type * from './contract/servers';
export type * from './contract/config';
export type * from './contract/secrets';
export type * from './contract/tools';
export type * from './contract/trust';
export type * from './contract/consent';
export type * from './contract/resources';
export type * from './contract/prompts';
export type * from './contract/logging';
export type * from './contract/trace';
export type * from './contract/requests';
export type * from './contract/auth';
export type * from './contract/chat';
export type * from './contract/settings';
export type * from './contract/install';
export type * from './contract/apps';
export type * from './contract/skills';
export type * from './errors';
export { isHostErrorCode } from './errors';
export { logLevels } from './contract/logging';

export type HostChannel = keyof typeof hostChannels;

/** What each channel resolves to: the union of the domains' tables. */
export interface HostResults
  extends
    AppResults,
    ServersResults,
    ConfigResults,
    SecretsResults,
    ToolsResults,
    TrustResults,
    ConsentResults,
    ResourcesResults,
    PromptsResults,
    LoggingResults,
    TraceResults,
    RequestsResults,
    AuthResults,
    ChatResults,
    SettingsResults,
    InstallResults,
    AppsResults,
    SkillsResults {}

/** Events main pushes to every renderer: the union of the domains' tables. */
export interface HostEvents
  extends
    AppEvents,
    ServersEvents,
    ConfigEvents,
    SecretsEvents,
    ToolsEvents,
    ResourcesEvents,
    LoggingEvents,
    TraceEvents,
    RequestsEvents,
    ChatEvents,
    InstallEvents,
    AppsEvents {}
export type HostEventName = keyof HostEvents;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** A channel with a schema but no declared result, or a result but no schema, fails to compile here. */
export type EveryChannelHasAResult = Holds<Same<keyof HostResults, HostChannel>>;

/** Every channel and event once, at runtime; a domain's name missing from these is a compile error. */
const channelFlags = {
  ...appChannelNames,
  ...serversChannelNames,
  ...configChannelNames,
  ...secretsChannelNames,
  ...toolsChannelNames,
  ...trustChannelNames,
  ...consentChannelNames,
  ...resourcesChannelNames,
  ...promptsChannelNames,
  ...loggingChannelNames,
  ...traceChannelNames,
  ...requestsChannelNames,
  ...authChannelNames,
  ...chatChannelNames,
  ...settingsChannelNames,
  ...installChannelNames,
  ...appsChannelNames,
  ...skillsChannelNames,
} as const satisfies Record<HostChannel, true>;
export const hostChannelNames = Object.keys(channelFlags) as HostChannel[];
const eventFlags = {
  ...appEventNames,
  ...serversEventNames,
  ...configEventNames,
  ...secretsEventNames,
  ...toolsEventNames,
  ...resourcesEventNames,
  ...loggingEventNames,
  ...traceEventNames,
  ...requestsEventNames,
  ...chatEventNames,
  ...installEventNames,
  ...appsEventNames,
} as const satisfies Record<HostEventName, true>;
export const hostEventNames = Object.keys(eventFlags) as HostEventName[];
export function isHostEventName(name: unknown): name is HostEventName {
  return typeof name === 'string' && Object.hasOwn(eventFlags, name);
}

export type HostArgs<C extends HostChannel> = z.input<(typeof hostChannels)[C]>;

/** One method per channel. Implemented by core (`createHost`), the preload and the headless WebSocket client. */
export type HostMethods = { [C in HostChannel]: (...args: HostArgs<C>) => Promise<HostResults[C]> };

export type Unsubscribe = () => void;
export interface HostApi extends HostMethods {
  on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): Unsubscribe;
}

/** What travels back over IPC / the bridge: errors as data, so their code and message survive. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: HostError };

/** Thrown on the renderer side when a call fails; carries the HostError. */
export class HostCallError extends Error {
  readonly code: HostErrorCode;
  /** The HostError's structured facts (use these, not the message text). */
  readonly data: Record<string, unknown> | undefined;
  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
    this.data = error.data;
  }
}

export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.value;
  throw new HostCallError(envelope.error);
}

/** Headless bridge wire format (JSON over WebSocket). */
export type BridgeRequest = { id: number; channel: string; args: unknown[] };
export type BridgeMessage = { kind: 'response'; id: number; envelope: Envelope<unknown> } | { kind: 'event'; event: HostEventName; payload: unknown };

/** The global the preload exposes in Electron. */
export const preloadGlobalName = 'switchboard';
