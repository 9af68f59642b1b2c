import type {
  Envelope,
  HostChannel,
  HostError,
  HostErrorCode,
  HostEventName,
  preloadGlobalName as PreloadGlobalName,
} from '../src-shared/host-api';

/*
 * The zod-free part of the contract the preload needs. src-shared/host-api.ts imports zod at runtime, and a
 * sandboxed preload can `require` only a few built-ins (electron-vite externalizes dependencies, so importing it
 * would leave `require("zod")` in the bundle). Every value here is checked against the contract's types: adding,
 * removing or renaming a channel or event there is a compile error here.
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
export const eventNames = Object.keys(events) as HostEventName[];

export function isEventName(name: unknown): name is HostEventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

export const globalName: typeof PreloadGlobalName = 'switchboard';

/**
 * Mirrors src-shared's HostCallError. Note: Electron's contextBridge copies only an Error's message to the page,
 * so the page sees a plain Error carrying the HostError's message.
 */
export class PreloadCallError extends Error {
  readonly code: HostErrorCode;
  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
  }
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.ok === true) return true;
  if (record.ok !== false || typeof record.error !== 'object' || record.error === null) return false;
  const error = record.error as Record<string, unknown>;
  return typeof error.code === 'string' && typeof error.message === 'string';
}

export function unwrapEnvelope(value: unknown): unknown {
  if (!isEnvelope(value)) throw new PreloadCallError({ code: 'internal', message: 'Malformed reply from the main process' });
  if (value.ok) return value.value;
  throw new PreloadCallError(value.error);
}
