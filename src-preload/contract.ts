import type { Envelope, HostError, HostErrorCode } from '../src-shared/host-api';

/*
 * What the preload needs of the contract. src-shared/host-api.ts is zod-free at runtime, so it bundles into
 * the single sandboxed CJS preload without pulling in zod.
 */
export {
  hostChannelNames as channelNames,
  hostEventNames as eventNames,
  isHostEventName as isEventName,
  preloadGlobalName as globalName,
} from '../src-shared/host-api';

/**
 * How a failed call reaches the page. Electron's contextBridge copies only an Error's message across, so the
 * preload rejects with this plain object instead: it is cloned whole, and the page keeps the HostError's code.
 */
export interface PlainHostCallError {
  name: 'HostCallError';
  code: HostErrorCode;
  message: string;
  /** HostError.data (structured clone carries it whole). */
  data?: Record<string, unknown>;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.ok === true) return true;
  if (record.ok !== false || typeof record.error !== 'object' || record.error === null) return false;
  const error = record.error as Record<string, unknown>;
  return typeof error.code === 'string' && typeof error.message === 'string';
}

const plain = (error: HostError): PlainHostCallError => ({
  name: 'HostCallError',
  code: error.code,
  message: error.message,
  ...(error.data !== undefined ? { data: error.data } : {}),
});

/** The value of an ok envelope; otherwise throws a PlainHostCallError. */
export function unwrapEnvelope(value: unknown): unknown {
  if (!isEnvelope(value)) throw plain({ code: 'internal', message: 'Malformed reply from the main process' });
  if (value.ok) return value.value;
  throw plain(value.error);
}
