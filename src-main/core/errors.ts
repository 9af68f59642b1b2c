import { isHostErrorCode, type HostError, type HostErrorCode, type StatusReason } from '../../src-shared/host-api';

/** The typed error core throws; the boundary turns it into a HostError a person can act on. */
export class CoreError extends Error {
  /** Structured facts for the UI (HostError.data): JSON values only. */
  readonly data: Record<string, unknown> | undefined;
  constructor(
    readonly code: HostErrorCode,
    message: string,
    options?: { cause?: unknown; data?: Record<string, unknown> },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'CoreError';
    this.data = options?.data;
  }
}

/**
 * A channel this build does not implement, or a feature
 * this server does not offer.
 */
export function notSupported(channel: string, server?: string): CoreError {
  return new CoreError('not-supported', `${channel} is not available in this build of Switchboard yet.`, {
    data: { channel, ...(server !== undefined ? { server } : {}) },
  });
}

export function isHostError(value: unknown): value is HostError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Errors that carry a known `{ code, message }` (a CoreError, or one shaped like it) keep them, and their `data`; anything else is `internal`. */
export function toHostError(error: unknown): HostError {
  if (isHostError(error) && isHostErrorCode(error.code)) {
    const data: unknown = (error as { data?: unknown }).data;
    return { code: error.code, message: error.message, ...(isRecord(data) ? { data } : {}) };
  }
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}

export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's fetch (undici) rejects with a bare "fetch failed"; what went wrong on the network is only in its cause.
  const network = error.message === 'fetch failed' ? networkReason(error.cause) : undefined;
  return network ? `${error.message} (${network})` : error.message;
}

/** "connect ECONNREFUSED 127.0.0.1:8080", "other side closed", …; both addresses of a name that refused both. */
function networkReason(cause: unknown): string | undefined {
  const one = (e: unknown): string | undefined =>
    e instanceof Error ? e.message || ((e as { code?: unknown }).code !== undefined ? String((e as { code?: unknown }).code) : undefined) : undefined;
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    const reasons = [...new Set(cause.errors.map(one).filter((r): r is string => r !== undefined))];
    if (reasons.length > 0) return reasons.join('; ');
  }
  return one(cause);
}

/** An explanation a person can act on: the English text, and the code and data the UI words it from in their language. */
export interface Explained {
  text: string;
  reason: StatusReason;
}
