import type { HostError, HostErrorCode } from '../../src-shared/host-api';

/** The typed error core throws; the boundary turns it into a HostError a person can act on. */
export class CoreError extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CoreError';
  }
}

export function isHostError(value: unknown): value is HostError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

export function toHostError(error: unknown): HostError {
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
