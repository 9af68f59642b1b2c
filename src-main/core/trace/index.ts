/**
 * The protocol trace and the debug bundle.
 *
 * Wiring (host / session / transport factory / CLI), in about ten lines:
 *
 * ```ts
 * // host (one per host): the ring, redacting with the secret store's values and the host's keys.
 * const redactor = createRedactor({ secretValues: () => knownSecretValues }); // a cached string[]: called per message
 * const trace = new TraceRing({ redactor });                                 // dispose() with the host
 * trace.onAppended((e) => events.emit('trace:appended', e));                 // ≤ 1 per server per 200 ms
 *
 * // transport factory (servers/transports.ts), per connection of server `name`:
 * const transport = traceTransport(new ProcessTransport({ … }), trace, { server: name });            // stdio
 * const http = traceTransport(new StreamableHTTPClientTransport(url, { requestInit,
 *   fetch: tracingFetch(trace, name, watchedFetch) }), trace, { server: name });                    // remote (SSE alike)
 *
 * // services: 'trace:list' ({server, after, limit}) => trace.list(server, { after, limit }),
 * //           'trace:clear' (server) => trace.clear(server),
 * //           'debug:bundle' ({servers}) => writeDebugBundle({ dir: debugDir(dataDir), config, views,
 * //              traces: Object.fromEntries(names.map((n) => [n, trace.list(n, { limit: 500 })])),
 * //              versions: { app: appVersion, sdk: packageVersion('@modelcontextprotocol/client') },
 * //              secretValues: () => knownSecretValues, servers })
 *
 * // CLI `--trace FILE`: const sink = new JsonlTraceWriter(file, { redactor }); pass `sink` (or
 * // teeRecorder(trace, sink)) as the recorder above; sink.dispose() before exit (flushes, closes).
 * ```
 *
 * `traceTransport` returns a decorator (ObservedTransport): the SDK client gets it, with `pid` and `stderr` (where
 * the wrapped transport has them), `sessionId` and the protocol-version setters of it; what only the concrete one knows
 * (a ProcessTransport's exit, `terminateSession()`) is read from `inner` (the session keeps the raw one for that).
 * The trace off = do not wrap (zero cost). Wrap once per connection attempt (`begin` resets id pairing).
 * The ring processes recordings in a batch after each turn (reads flush first): `list` is always current.
 * SDK 2.4.0's era probe runs in place on a wrapped transport (its stdio sibling probe is only for an unwrapped
 * StdioClientTransport), so the `server/discover` probe is in the trace.
 */
export { traceTransport, tracingFetch } from './tracing-transport';
export {
  TraceRing,
  approxJsonSize,
  type HttpExchange,
  type TraceAppendedEvent,
  type TraceDirection,
  type TraceListOptions,
  type TraceRecord,
  type TraceRecorder,
  type TraceRingOptions,
} from './trace-ring';
export {
  createRedactor,
  isSensitiveName,
  looksLikeToken,
  minSecretLength,
  noRedaction,
  redactArgs,
  redactUrl,
  redactedText,
  type Redactor,
  type RedactorOptions,
} from './redact';
export { JsonlTraceWriter, teeRecorder, type JsonlTraceWriterOptions } from './jsonl-writer';
export { debugDir, packageVersion, writeDebugBundle, type DebugBundleInput, type DebugBundleVersions } from './debug-bundle';
