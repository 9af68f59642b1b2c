import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';

/**
 * W3C trace context for the requests the host sends (`traceparent` in each request's `_meta`, SEP-414).
 *
 * A chat turn or a direct tool call is one trace: it runs inside `withTrace(scope, …)`, and every request sent
 * meanwhile (its `tools/call`s, their `input_required` rounds, a retry) carries that scope's trace id with a span id
 * of its own. A request sent outside any scope (a list, a ping, the connect) gets a trace of its own.
 *
 * The ids are cut from a pool of random bytes filled 4 KiB at a time, so a request costs a slice and a hex
 * conversion, not a system call.
 */

/** The trace a turn or call runs in. `parentSpanId`: the turn's or call's own span, when one is exported. */
export interface TraceScope {
  readonly traceId: string;
  readonly parentSpanId?: string;
}

const store = new AsyncLocalStorage<TraceScope>();

/** Runs `run` with `scope` as the current trace (its requests carry the scope's trace id). */
export function withTrace<T>(scope: TraceScope, run: () => T): T {
  return store.run(scope, run);
}

/** The trace of the async context (a turn's or a call's work), if any. */
export function currentTrace(): TraceScope | undefined {
  return store.getStore();
}

const poolBytes = 4096;
const pool = Buffer.allocUnsafe(poolBytes);
/** The pool as hex, converted once per refill: an id is then a slice of this string. */
let hexPool = '';
let at = poolBytes;

/** `bytes` random bytes as lower-case hex; never all zeros (W3C: an all-zero id is invalid). */
function randomHex(bytes: number): string {
  for (;;) {
    if (at + bytes > poolBytes) {
      randomFillSync(pool);
      hexPool = pool.toString('hex');
      at = 0;
    }
    const start = at;
    at += bytes;
    for (let i = start; i < at; i++) if (pool[i] !== 0) return hexPool.slice(start * 2, at * 2);
  }
}

/** A new 16-byte trace id (32 hex digits). */
export function newTraceId(): string {
  return randomHex(16);
}

/** A new 8-byte span id (16 hex digits). */
export function newSpanId(): string {
  return randomHex(8);
}

/** A fresh scope: a new trace. */
export function newTrace(): TraceScope {
  return { traceId: newTraceId() };
}

/** `00-<trace id>-<span id>-01` (version 00, sampled). */
export function formatTraceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

const traceparentPattern = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** The trace and span ids of a `traceparent` value; undefined when it is not one. */
export function parseTraceparent(value: unknown): { traceId: string; spanId: string } | undefined {
  if (typeof value !== 'string' || value.length !== 55) return undefined;
  const match = traceparentPattern.exec(value);
  return match?.[1] !== undefined && match[2] !== undefined ? { traceId: match[1], spanId: match[2] } : undefined;
}

/** The `traceparent` for one request: the current trace's id (a new trace outside any), a new span id. */
export function requestTraceparent(): string {
  return formatTraceparent(currentTrace()?.traceId ?? newTraceId(), newSpanId());
}

/** How a request ended, as its exported span says (`switchboard.outcome`). */
export type SpanOutcome = 'ok' | 'error' | 'tool-error' | 'input-required' | 'cancelled' | 'closed';

/** An exported request's span: the `traceparent` the request carries names it; ended when the answer comes. */
export interface RequestSpan {
  readonly traceparent: string;
  end(outcome: SpanOutcome): void;
}

/** Makes the span of a request about to be sent (undefined: spans are not exported now). */
export type RequestSpanMaker = (method: string, params: Readonly<Record<string, unknown>> | undefined) => RequestSpan | undefined;
