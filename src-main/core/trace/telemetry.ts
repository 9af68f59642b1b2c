import type { Span, Tracer } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import type { TelemetrySettings } from '../../../src-shared/contract/settings';
import { noRedaction, type Redactor } from './redact';
import {
  currentTrace,
  formatTraceparent,
  newSpanId,
  newTraceId,
  withTrace,
  type RequestSpan,
  type RequestSpanMaker,
  type SpanOutcome,
  type TraceScope,
} from './trace-context';

export interface TelemetryOptions {
  /** Hides secrets in what goes into a span (the trace's redactor). */
  redactor?: Redactor;
  /** Where a failed setup is told (the host log). */
  log?: (line: string) => void;
  /** `service.version` of the exported resource. */
  version?: string;
  /** How often the batch processor sends (ms); default 2000. */
  exportDelayMs?: number;
}

/** The exporter's pieces, made when export is switched on (the OpenTelemetry modules load only then). */
interface Export {
  provider: TracerProvider;
  tracer: Tracer;
  api: typeof import('@opentelemetry/api');
}

/** The span of a turn or call: its name and attributes (names and ids only). */
export interface ScopeDescription {
  name: string;
  attributes: Record<string, string>;
}

/** A scope as the exporter keeps it: the trace plus the span of the turn or call, when exported. */
interface ExportedScope extends TraceScope {
  readonly span?: Span;
}

/**
 * The host's tracing: a trace per chat turn or direct call (`scope`), and, when the `telemetry` setting is on, the
 * export of spans over OTLP/HTTP (JSON) with the OpenTelemetry JS SDK — one span per turn or call and one per MCP
 * request under it, whose ids are the ones the request's `traceparent` carried.
 *
 * The tracer provider is this object's own, never registered globally (other code using @opentelemetry/api is not
 * affected); `configure` replaces it and `dispose` flushes and shuts it down. Span attributes hold names (server,
 * method, tool), an outcome and a duration, never arguments or results, and pass the trace's redaction.
 */
export class Telemetry {
  private current: Export | undefined;
  private settings: TelemetrySettings | undefined;
  private configuring: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly redactor: Redactor;

  constructor(private readonly options: TelemetryOptions = {}) {
    this.redactor = options.redactor ?? noRedaction;
  }

  /** Spans are exported now. */
  get exporting(): boolean {
    return this.current !== undefined;
  }

  /**
   * Applies the setting: off (or undefined) shuts the exporter down after a flush; on makes one for the endpoint
   * and headers. The same settings again change nothing. Calls are applied one after the other.
   */
  configure(settings: TelemetrySettings | undefined): Promise<void> {
    const next = settings?.enabled === true ? settings : undefined;
    this.configuring = this.configuring.then(async () => {
      if (this.disposed || sameSettings(this.settings, next)) return;
      const old = this.current;
      this.current = undefined;
      this.settings = next;
      if (old) await shutDown(old);
      if (next) {
        try {
          this.current = await this.make(next);
        } catch (error) {
          this.settings = undefined;
          this.options.log?.(`span export not started: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
    return this.configuring;
  }

  private async make(settings: TelemetrySettings): Promise<Export> {
    const [api, sdk, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
    const exporter = new OTLPTraceExporter({ url: settings.endpoint, headers: { ...settings.headers }, timeoutMillis: 10_000 });
    const provider = new sdk.TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'switchboard', 'service.version': this.options.version ?? '0.1.0' }),
      spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: this.options.exportDelayMs ?? 2000 })],
    });
    return { provider, tracer: provider.getTracer('switchboard'), api };
  }

  /**
   * Runs `run` as one trace (a chat turn, a direct call) — or, inside one already (a direct call of a turn), as part
   * of it. Exported, the scope is a span named and attributed as `describe` says (asked only then), ended with the outcome `outcome` tells (default:
   * ok, or error when `run` throws).
   */
  scope<T>(describe: () => ScopeDescription, run: () => Promise<T>, outcome?: (result: T) => SpanOutcome): Promise<T> {
    if (currentTrace() !== undefined) return run();
    const exported = this.current;
    // Not exported: the trace id is all there is to it (and the promise is the caller's own: no frame added).
    if (exported === undefined) return withTrace(plainScope(), run);
    return this.exportedScope(exported, describe(), run, outcome);
  }

  private async exportedScope<T>(
    exported: Export,
    { name, attributes }: ScopeDescription,
    run: () => Promise<T>,
    outcome: ((result: T) => SpanOutcome) | undefined,
  ): Promise<T> {
    const span = exported.tracer.startSpan(this.redactor.text(name), { kind: exported.api.SpanKind.INTERNAL, attributes: this.attributes(attributes) });
    const { traceId, spanId } = span.spanContext();
    const scope: ExportedScope = { traceId, parentSpanId: spanId, span };
    const started = performance.now();
    try {
      const result = await withTrace(scope, run);
      endSpan(exported, span, outcome?.(result) ?? 'ok', started);
      return result;
    } catch (error) {
      endSpan(exported, span, 'error', started);
      throw error;
    }
  }

  /** For one server's connections (McpClient.requestSpans): the span of each request while exporting. */
  requestSpans(server: string): RequestSpanMaker {
    return (method, params) => {
      const exported = this.current;
      return exported === undefined ? undefined : this.requestSpan(exported, server, method, params);
    };
  }

  private requestSpan(exported: Export, server: string, method: string, params: Readonly<Record<string, unknown>> | undefined): RequestSpan {
    const { api, tracer } = exported;
    const scope = currentTrace();
    const tool = method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
    const attributes: Record<string, string> = { 'switchboard.server': server, 'mcp.method.name': method };
    if (tool !== undefined) attributes['gen_ai.tool.name'] = tool;
    // The turn's or call's span is the parent (exported or not: the trace id is what joins them).
    const parent =
      scope?.parentSpanId !== undefined
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId: scope.traceId, spanId: scope.parentSpanId, traceFlags: api.TraceFlags.SAMPLED })
        : api.ROOT_CONTEXT;
    const name = this.redactor.text(tool !== undefined ? `${method} ${server}.${tool}` : method);
    const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes: this.attributes(attributes) }, parent);
    const { traceId, spanId } = span.spanContext();
    const started = performance.now();
    let ended = false;
    return {
      traceparent: formatTraceparent(traceId, spanId),
      end: (outcome) => {
        if (ended) return;
        ended = true;
        endSpan(exported, span, outcome, started);
      },
    };
  }

  private attributes(attributes: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(attributes)) out[key] = this.redactor.text(value);
    return out;
  }

  /** Sends what the exporter holds now (tests; before a quit). */
  async flush(): Promise<void> {
    await this.configuring;
    await this.current?.provider.forceFlush();
  }

  /** Flushes and shuts the exporter down; idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.configuring;
    this.disposed = true;
    const old = this.current;
    this.current = undefined;
    if (old) await shutDown(old);
  }
}

/** A trace of its own, without an exporter: a new trace id, and a span id its requests name as their parent. */
function plainScope(): TraceScope {
  return { traceId: newTraceId(), parentSpanId: newSpanId() };
}

/**
 * Runs `run` as one trace with `telemetry` (see Telemetry.scope), or, without one (a host piece made on its own, in a
 * test), in a trace of its own all the same.
 */
export function traceScope<T>(
  telemetry: Telemetry | undefined,
  describe: () => ScopeDescription,
  run: () => Promise<T>,
  outcome?: (result: T) => SpanOutcome,
): Promise<T> {
  if (telemetry !== undefined) return telemetry.scope(describe, run, outcome);
  return currentTrace() !== undefined ? run() : withTrace(plainScope(), run);
}

function endSpan(exported: Export, span: Span, outcome: SpanOutcome, started: number): void {
  span.setAttribute('switchboard.outcome', outcome);
  span.setAttribute('switchboard.duration_ms', Math.round((performance.now() - started) * 1000) / 1000);
  if (outcome === 'error' || outcome === 'tool-error' || outcome === 'closed') span.setStatus({ code: exported.api.SpanStatusCode.ERROR });
  span.end();
}

async function shutDown(exported: Export): Promise<void> {
  try {
    await exported.provider.forceFlush();
  } catch {
    // an unreachable collector must not hold up a quit or a settings change
  }
  await exported.provider.shutdown().catch(() => undefined);
}

function sameSettings(a: TelemetrySettings | undefined, b: TelemetrySettings | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.endpoint === b.endpoint && JSON.stringify(a.headers) === JSON.stringify(b.headers);
}
