import { describeError } from '../host/bridge-client';
import type { AppState, SliceCreator } from './types';

type SetState = Parameters<SliceCreator<unknown>>[0];

/** The store's fields that are records by key (a server name, a request id, a trust key). */
export type KeyedField = { [K in keyof AppState]-?: AppState[K] extends Record<string, unknown> ? K : never }[keyof AppState];
type ValueOf<F extends KeyedField> = AppState[F] extends Record<string, infer V> ? V : never;
/** The keyed fields that hold error messages. */
export type ErrorsField = {
  [K in KeyedField]: Record<string, string> extends AppState[K] ? (AppState[K] extends Record<string, string> ? K : never) : never;
}[KeyedField];

/** A copy of `record` without `keys`; the record itself when it holds none of them (so nothing re-renders). */
export function without<T>(record: Record<string, T>, keys: string | readonly string[]): Record<string, T> {
  const drop = typeof keys === 'string' ? [keys] : keys;
  if (!drop.some((key) => key in record)) return record;
  const copy = { ...record };
  for (const key of drop) delete copy[key];
  return copy;
}

export interface Tracking<F extends KeyedField> {
  /** The record of calls in flight, and what each key holds there while its call runs. */
  busy: F;
  mark: ValueOf<F>;
  /** The record of why the last call failed. */
  errors: ErrorsField;
  /** What the call is about: one key or several. */
  keys: string | readonly string[];
  /** The error as recorded (default: describeError's message). */
  message?: (error: unknown) => string;
}

export type TrackedResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * One host call tracked by key: each key is marked in `busy` and its last error cleared; when the call throws, its
 * message is recorded as each key's error; the mark is removed either way. Never rejects: a failure answers
 * `{ ok: false, error }` (its message already recorded) for the caller to add to.
 */
export async function trackedCall<F extends KeyedField, T>(set: SetState, tracking: Tracking<F>, call: () => Promise<T>): Promise<TrackedResult<T>> {
  const { busy, mark, errors } = tracking;
  const keys = typeof tracking.keys === 'string' ? [tracking.keys] : tracking.keys;
  const record = (field: KeyedField, value: Record<string, unknown>): Partial<AppState> => ({ [field]: value }) as Partial<AppState>;
  set((s) => ({
    ...record(busy, { ...s[busy], ...Object.fromEntries(keys.map((k) => [k, mark])) }),
    ...record(errors, without(s[errors], keys)),
  }));
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const message = tracking.message?.(error) ?? describeError(error).message;
    set((s) => record(errors, { ...s[errors], ...Object.fromEntries(keys.map((k) => [k, message])) }));
    return { ok: false, error };
  } finally {
    set((s) => record(busy, without<unknown>(s[busy], keys)));
  }
}
