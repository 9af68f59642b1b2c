import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { pinnedRevision, transportOf, type TransportKind } from '../../../src-shared/schemas/config';
import { messageOf, type Explained } from '../errors';
import type { ProcessExit } from '../process/transport';
import type { AttemptSlot } from './attempt';
import { connectRemote, type RemoteConnectOptions, type RemoteHooks } from './connect-remote';
import { StdioConnect, type StdioConnectOptions, type StdioHooks } from './connect-stdio';
import { explainStartFailure, timeoutExplained, withDeadline } from './diagnosis';
import { negotiationFor } from './era-fallback';
import type { ConnectedInfo } from './features/feature';
import type { ServerFeatures } from './features/index';
import { clientInfo, McpClient } from './mcp-client';
import { sessionView, type SessionView } from './session-view';
import type { OpenedTransport } from './transports';
import { appsClientCapabilities } from '../apps/capability';
import type { RequestSpanMaker } from '../trace/trace-context';

/** What a session reports to its supervisor: what either connect path reports, and more. */
export interface SessionHooks extends StdioHooks, RemoteHooks {
  /** A line for the server's log file only. */
  log(line: string): void;
  /** The server's own recent stderr lines, for explanations. */
  tail(): string;
}

export interface SessionOptions extends StdioConnectOptions, RemoteConnectOptions {
  features: ServerFeatures;
  hooks: SessionHooks;
  /** The span of each request, while spans are exported. */
  requestSpans?: RequestSpanMaker | undefined;
}

/** The most `input_required` rounds one call may take (each round may ask a person several things). */
export const maxInputRounds = 8;

/** How long stop/restart/quit wait for a Streamable HTTP session's DELETE (and a listen stream's cancel). */
const terminateSessionMs = 2000;

/**
 * One connection to a server: one SDK client over one transport, in one protocol era. `connect()` includes the
 * era probe with its fallbacks (a stale cached verdict; a legacy stdio server that exits on the probe; Streamable
 * HTTP → legacy SSE), then drives the feature modules (blocking ones, tools, are part of the connect) and opens the
 * 2026-07-28 listen stream. `close()` ends it: listen stream, HTTP session DELETE, client, transport (and with it
 * the child's tree). A supervisor makes a new Session for every start.
 */
export class Session {
  private client: Client | undefined;
  private opened: OpenedTransport | undefined;
  private subscription: McpSubscription | undefined;
  private closing: Promise<void> | undefined;
  private kind: TransportKind;
  /** A remote server's push-style fallback in force (the stdio path keeps its own). */
  private remotePushStyle: string | undefined;
  /** The stdio path (for a stdio server), which keeps what it saw of the child. */
  private readonly stdio: StdioConnect | undefined;
  /** What the connect paths are lent: each attempt is held here as soon as it exists. */
  private readonly slot: AttemptSlot = {
    newClient: (timeout) => this.newClient(timeout),
    hold: (opened, client) => {
      this.opened = opened;
      this.client = client;
      this.kind = opened.kind;
    },
    holds: (opened) => this.opened === opened,
    closeCurrent: () => this.closeCurrent(),
    isClosing: () => this.closing !== undefined,
    currentClient: () => this.client,
  };

  constructor(private readonly options: SessionOptions) {
    const kind = transportOf(options.server.entry);
    this.kind = kind === 'auto-remote' ? 'http' : kind;
    this.stdio = options.server.entry.command !== undefined ? new StdioConnect(options, this.slot) : undefined;
  }

  /** The child's exit, once it ended (for explanations). */
  get lastExit(): ProcessExit | undefined {
    return this.stdio?.lastExit;
  }

  private get name(): string {
    return this.options.server.name;
  }

  /**
   * The request the server sends the host push-style that keeps it on the `initialize` era (see era-fallback.ts),
   * when that is why this session is on it.
   */
  get pushStyle(): string | undefined {
    const pushStyle = this.stdio ? this.stdio.pushStyle : this.remotePushStyle;
    return this.client?.getProtocolEra() === 'legacy' ? pushStyle : undefined;
  }

  get isClosed(): boolean {
    return this.closing !== undefined;
  }

  /** The transport in use (for remote servers: the one that answered, once one did). */
  get transportKind(): TransportKind {
    return this.kind;
  }

  get sdkClient(): Client | undefined {
    return this.closing ? undefined : this.client;
  }

  /** The stdio child's exit as its transport saw it. */
  get transportExit(): ProcessExit | undefined {
    return this.opened?.kind === 'stdio' ? this.opened.raw.exit : undefined;
  }

  async connect(timeout: number, abandoned: AbortSignal): Promise<void> {
    if (this.stdio) await this.stdio.connect(timeout, abandoned);
    else this.remotePushStyle = await connectRemote(this.options, this.slot, timeout, abandoned);
    const client = this.client;
    if (this.closing || abandoned.aborted) return;
    if (!client) throw new Error('no client after connect');
    const info: ConnectedInfo = { client, era: client.getProtocolEra(), capabilities: client.getServerCapabilities(), timeoutMs: timeout };
    const blocking = this.options.features.all.filter((f) => f.blocking);
    await Promise.all(blocking.map((f) => f.connected?.(info)));
    if (this.closing || abandoned.aborted) return;
    for (const feature of this.options.features.all) {
      if (!feature.blocking) void Promise.resolve(feature.connected?.(info)).catch(() => undefined);
    }
    if (info.era === 'modern' && this.options.policy.listen !== 'skip') await this.listen(info);
  }

  /** 2026-07-28 servers send list changes (and resource updates) only on a `subscriptions/listen` stream. */
  private async listen(info: ConnectedInfo): Promise<void> {
    const filter: SubscriptionFilter = {};
    for (const feature of this.options.features.all) Object.assign(filter, feature.listenFilter?.(info));
    if (Object.keys(filter).length === 0) return;
    try {
      this.subscription = await info.client.listen(filter, { timeout: info.timeoutMs });
    } catch (error) {
      this.options.hooks.note(
        `[switchboard] could not open the subscriptions/listen stream (${messageOf(error)}); list changes will not be seen until a restart`,
      );
    }
  }

  view(): SessionView {
    return sessionView(this.sdkClient);
  }

  private newClient(timeout: number): Client {
    // Client capabilities (sampling with tools, elicitation form + url, roots with listChanged) are declared by the
    // feature modules' attach(), with their handlers, before connect; the MCP Apps extension here, as the host (not a
    // session feature) renders the apps. Features' `extensions` are merged into it key by key (mergeCapabilities).
    // The era probe may wait as long as the connect itself (`timeout`): SDK 2.4.0 treats a probe timeout as a hard
    // failure on every transport it does not take for its own stdio one (ours included), so a shorter probe would
    // fail every slow first start (npx, uvx, a JVM) whatever the server's `timeout` says.
    // A pinned revision (the entry's `protocolVersion`) replaces the negotiation.
    const client = new McpClient(clientInfo, {
      capabilities: { ...appsClientCapabilities },
      ...negotiationFor(pinnedRevision(this.options.server.entry.protocolVersion), this.options.policy.versionMode, timeout),
      // 2026-07-28: a call answered `input_required` is fulfilled through the same sampling / elicitation / roots
      // handlers (features' attach) and retried; a server that keeps asking is cut off after this many rounds.
      inputRequired: { autoFulfill: true, maxRounds: maxInputRounds },
    });
    client.onerror = (error) => this.options.hooks.note(`[switchboard] protocol error: ${messageOf(error)}`);
    client.requestSpans = this.options.requestSpans;
    for (const feature of this.options.features.all) feature.attach?.(client);
    return client;
  }

  /** The connect timed out: why, as a person can act on it. */
  timeoutReason(timeout: number): string {
    return this.timeoutExplained(timeout).text;
  }

  /** The same with its code and data (`stdout-noise` when only non-JSON came on stdout, else `start-timeout`). */
  timeoutExplained(timeout: number): Explained {
    const raw = this.opened?.kind === 'stdio' ? this.opened.raw : undefined;
    return timeoutExplained(this.name, timeout, raw);
  }

  /** A connect failure, explained. */
  explain(error: unknown, timeout: number): string {
    return explainStartFailure(error, {
      server: this.name,
      entry: this.options.server.entry,
      timeoutText: () => this.timeoutReason(timeout),
      exit: this.lastExit ?? this.transportExit,
      tail: () => this.options.hooks.tail(),
    });
  }

  /** Closes the current attempt's client and transport (the session stays usable for another attempt). */
  private async closeCurrent(): Promise<void> {
    const client = this.client;
    const opened = this.opened;
    const subscription = this.subscription;
    this.client = undefined;
    this.opened = undefined;
    this.subscription = undefined;
    if (client) client.onclose = undefined;
    if (subscription) await withDeadline(subscription.close(), terminateSessionMs, () => 'listen close timed out').catch(() => undefined);
    // A Streamable HTTP session is ended explicitly (DELETE with its Mcp-Session-Id), or the server keeps it
    // until it expires; bounded, so that an unreachable server cannot hold up a stop or quit.
    if (opened?.kind === 'http' && opened.raw.sessionId !== undefined) {
      await withDeadline(opened.raw.terminateSession(), terminateSessionMs, () => 'session DELETE timed out').catch((error: unknown) => {
        this.options.hooks.log(`[switchboard] ending the HTTP session failed: ${messageOf(error)}`);
      });
    }
    if (client) await client.close().catch(() => undefined);
    // A transport whose client never connected is closed directly (that also ends a stdio child's tree).
    if (opened) await opened.transport.close().catch(() => undefined);
  }

  /** Ends the session: listen stream, HTTP session, client, transport and the child's tree. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const feature of this.options.features.all) feature.disconnected?.();
      await this.closeCurrent();
    })();
    return this.closing;
  }

  /** The remote end already closed: forget the client without talking to the server again. */
  detach(): void {
    if (this.closing) return;
    const client = this.client;
    if (client) client.onclose = undefined;
    this.client = undefined;
    this.opened = undefined;
    this.subscription = undefined;
    this.closing = Promise.resolve();
    for (const feature of this.options.features.all) feature.disconnected?.();
  }
}
