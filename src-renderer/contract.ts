import type {
  Envelope,
  HostCallError as SharedHostCallError,
  HostChannel,
  HostError,
  HostErrorCode,
  HostEventName,
  preloadGlobalName as PreloadGlobalName,
} from '../src-shared/host-api';

/*
 * The zod-free runtime part of the contract the renderer needs. src-shared/host-api.ts builds zod schemas when it
 * is imported, and zod 4 probes `new Function('')` for each object schema: under the page's CSP (no
 * 'unsafe-eval') that is a logged CSP violation, and it would put all of zod in the bundle. So the renderer imports
 * only *types* from the contract, and the values below are checked against them: adding or renaming a channel or
 * event, or changing HostCallError's shape, is a compile error here.
 */

const channels = {
  'app:info': true,
  'servers:list': true,
  'servers:restart': true,
  'tools:call': true,
  'tools:cancel': true,
  'config:read': true,
  'config:save': true,
  'servers:upsert': true,
  'servers:remove': true,
  'servers:set-enabled': true,
  'config:export': true,
  'config:import-preview': true,
  'config:import-apply': true,
  'secrets:list': true,
  'secrets:set': true,
  'secrets:delete': true,
  'shell:open': true,
} as const satisfies Record<HostChannel, true>;

const events = {
  'servers:changed': true,
  'app:changed': true,
  'config:changed': true,
} as const satisfies Record<HostEventName, true>;

export const channelNames = Object.keys(channels) as HostChannel[];

export function isEventName(name: unknown): name is HostEventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

export const preloadGlobalName: typeof PreloadGlobalName = 'switchboard';

/** Mirrors src-shared's HostCallError: thrown on the renderer side when a call fails; carries the HostError. */
export class HostCallError extends Error {
  readonly code: HostErrorCode;
  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
  }
}
// Same shape as the shared class, both ways.
export type _SameAsShared = [HostCallError extends SharedHostCallError ? true : never, SharedHostCallError extends HostCallError ? true : never];

export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.value;
  throw new HostCallError(envelope.error);
}
