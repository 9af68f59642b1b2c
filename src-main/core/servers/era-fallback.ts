import type { ClientOptions } from '@modelcontextprotocol/client';
import type { ProtocolRevision } from '../../../src-shared/schemas/config';

/**
 * Servers written push-style — a tool that sends `elicitation/create`, `sampling/createMessage` or `roots/list`
 * to the host while it runs (Python `mcp` 2.x `ctx.elicit`, the TypeScript SDK's `ctx.mcpReq.elicitInput`) — work
 * on the `initialize` era only: 2026-07-28 has no channel for a server's own requests (they travel as
 * `input_required` results instead), and both SDKs fail the call saying so. Such a call is recognised here; the
 * supervisor then reconnects the server on the `initialize` era (remembered per server) and makes the call again.
 */

/** The server→client requests 2026-07-28 carries only as `input_required` results. */
const pushStyleMethods = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

/**
 * How each SDK words the refusal: Python `mcp` ("Cannot send 'elicitation/create': this transport context has no
 * back-channel for server-initiated requests", a JSON-RPC error) and the TypeScript SDK ("Server-to-client requests
 * are not available on protocol revision 2026-07-28: 'elicitation/create' cannot be sent …", an isError result).
 */
const refusals = [/no back-channel for server-initiated requests/i, /Server-to-client requests are not available on protocol revision/i];

/** The push-style method a failed call's error or isError result names, when it failed for want of a channel. */
export function pushStyleFailure(outcome: unknown): string | undefined {
  const text = failureText(outcome);
  if (text === undefined || !refusals.some((r) => r.test(text))) return undefined;
  return pushStyleMethods.find((method) => text.includes(`'${method}'`) || text.includes(`"${method}"`));
}

function failureText(outcome: unknown): string | undefined {
  if (outcome instanceof Error) return outcome.message;
  if (typeof outcome !== 'object' || outcome === null) return undefined;
  const result = outcome as { isError?: unknown; content?: unknown };
  if (result.isError !== true || !Array.isArray(result.content)) return undefined;
  return result.content
    .map((block: unknown) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text) : '',
    )
    .join('\n');
}

/**
 * The SDK client's negotiation for an entry: negotiated (`mode`, with the probe allowed the whole connect timeout)
 * unless a revision is pinned — 2026-07-28 through `server/discover` only, an `initialize`-era revision offered
 * alone (a server that answers another one fails the connect).
 */
export function negotiationFor(
  pin: ProtocolRevision | undefined,
  mode: 'auto' | 'legacy',
  probeTimeoutMs: number,
): Pick<ClientOptions, 'versionNegotiation' | 'supportedProtocolVersions'> {
  if (pin === undefined) return { versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs } } };
  if (isModernRevision(pin)) return { versionNegotiation: { mode: { pin }, probe: { timeoutMs: probeTimeoutMs } } };
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [pin] };
}

/** 2026-07-28 and later (revisions are ISO dates). */
export function isModernRevision(revision: string): boolean {
  return revision >= '2026-07-28';
}
