import { Client, type McpSubscription, type PriorDiscovery, type SubscriptionFilter } from '@modelcontextprotocol/client';
import { transportOf, type TransportKind } from '../../../src-shared/schemas/config';
import type { ContainmentInfo, LaunchInfo } from '../../../src-shared/host-api';
import { EraCache } from './era-cache';
import { messageOf, type Explained } from '../errors';
import type { ChildLedger } from '../process/ledger';
import type { ProcessExit, ProcessTransport } from '../process/transport';
import { homedir } from 'node:os';
import { resolveCommand } from '../process/resolve-command';
import { deniedHint, planSandbox, type SandboxPlan } from '../process/sandbox/index';
import type { RemoteServerAuth } from '../auth/server-auth';
import { causeChain, DeadlineError, ExitedOnProbe, explainStartFailure, httpStatus, isClientHttpError, oversizedText, ReasonError, SignInRequired, signInExplained, timeoutExplained, withDeadline, type AuthChallenge } from './diagnosis';
import type { ConnectedInfo } from './features/feature';
import type { ServerFeatures } from './features/index';
import type { ResolvedServer } from '../config/resolve';
import { clientInfo, HostClient } from './mcp-client';
import type { SupervisionPolicy } from './policy';
import { sessionView, type SessionView } from './session-view';
import { challengeWatchingFetch, createTransport, type FetchDecorator, type OpenedTransport, type TransportDecorator } from './transports';

/** What a session reports to its supervisor. */
export interface SessionHooks {
  /** A `[switchboard] …` line (stderr tail and log). */
  note(line: string): void;
  /** A chunk the child wrote to stderr. */
  stderr(text: string): void;
  /** A line for the server's log file only. */
  log(line: string): void;
  launch(info: LaunchInfo): void;
  spawned(pid: number, containment: ContainmentInfo): void;
  /**
   * A child of this session ended (during connect too). `current`: it was the session's live transport's (not an
   * attempt already given up); the supervisor acts only on a ready session's.
   */
  exited(exit: ProcessExit, current: boolean): void;
  /** A remote server closed the connection. */
  remoteClosed(): void;
  /** The server's own recent stderr lines, for explanations. */
  tail(): string;
}

export interface SessionOptions {
  server: ResolvedServer;
  policy: SupervisionPolicy;
  features: ServerFeatures;
  hooks: SessionHooks;
  eraCache?: EraCache | undefined;
  ledger?: ChildLedger | undefined;
  decorate?: TransportDecorator | undefined;
  decorateFetch?: FetchDecorator | undefined;
  /** A remote server's OAuth sign-in (its provider goes to the transports). */
  auth?: RemoteServerAuth | undefined;
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
  /** The child's exit, once it ended (for explanations). */
  lastExit: ProcessExit | undefined;
  /** The sandbox of this start (stdio), and the denied-access hints already given. */
  private sandbox: SandboxPlan | undefined;
  private readonly hints = new Set<string>();

  constructor(private readonly options: SessionOptions) {
    const kind = transportOf(options.server.entry);
    this.kind = kind === 'auto-remote' ? 'http' : kind;
  }

  private get name(): string {
    return this.options.server.name;
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
    if (this.options.server.entry.command !== undefined) await this.connectStdio(timeout, abandoned);
    else await this.connectRemote(timeout, abandoned);
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
      this.options.hooks.note(`[switchboard] could not open the subscriptions/listen stream (${messageOf(error)}); list changes will not be seen until a restart`);
    }
  }

  view(): SessionView {
    return sessionView(this.sdkClient);
  }

  private newClient(timeout: number): Client {
    // Client capabilities (sampling with tools, elicitation form + url, roots with listChanged) are declared by the
    // feature modules' attach(), with their handlers, before connect.
    // The era probe may wait as long as the connect itself (`timeout`): SDK 2.4.0 treats a probe timeout as a hard
    // failure on every transport it does not take for its own stdio one (ours included), so a shorter probe would
    // fail every slow first start (npx, uvx, a JVM) whatever the server's `timeout` says.
    const client = new HostClient(clientInfo, {
      capabilities: {},
      versionNegotiation: { mode: this.options.policy.versionMode, probe: { timeoutMs: timeout } },
      // 2026-07-28: a call answered `input_required` is fulfilled through the same sampling / elicitation / roots
      // handlers (features' attach) and retried; a server that keeps asking is cut off after this many rounds.
      inputRequired: { autoFulfill: true, maxRounds: maxInputRounds },
    });
    client.onerror = (error) => this.options.hooks.note(`[switchboard] protocol error: ${messageOf(error)}`);
    for (const feature of this.options.features.all) feature.attach?.(client);
    return client;
  }

  private async connectStdio(timeout: number, abandoned: AbortSignal): Promise<void> {
    const { entry, childEnv } = this.options.server;
    const env = childEnv?.env ?? {};
    const args = entry.args ?? [];
    const cwd = entry.cwd ?? process.cwd();
    const launchEnv = Object.entries(childEnv?.sources ?? {}).map(([name, source]) => ({ name, source }));
    // Shown even when the command cannot be found, so a person sees what was tried.
    this.options.hooks.launch({ command: entry.command ?? '', args, cwd, env: launchEnv });
    const command = resolveCommand(entry.command ?? '', env.PATH, entry.cwd);
    const request = this.options.server.sandbox;
    // A sandboxed server without a cwd of its own runs in an empty private folder, never in the host's.
    const sandbox = request ? planSandbox(request, { command, args, ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}), home: env.HOME ?? homedir(), baseDir: cwd, path: env.PATH, runtimeDir: env.XDG_RUNTIME_DIR }) : undefined;
    this.options.hooks.launch({ command, args, cwd: sandbox?.cwd ?? cwd, env: launchEnv, ...(sandbox ? { sandbox: sandbox.info } : {}) });
    if (sandbox && !sandbox.wrap) {
      const where = entry.sandbox !== undefined ? `mcpServers.${this.name}.sandbox` : 'the settings default "sandbox"';
      const detail = sandbox.info.reason ?? 'none is available here';
      const cause = sandbox.info.reasonInfo !== undefined ? { cause: { text: detail, ...sandbox.info.reasonInfo } } : {};
      throw new ReasonError(`Not started: ${where} asks for a sandbox, but ${detail}. It is never run unsandboxed instead: install one, or set "sandbox": false on this server to run it without.`, {
        reason: { code: 'sandbox-unavailable', data: { server: this.name, reason: entry.sandbox !== undefined ? 'entry' : 'settings', detail }, ...cause },
      });
    }
    this.sandbox = sandbox;
    const { eraCache, policy } = this.options;
    const key = EraCache.key(command, args, cwd);
    const prior = policy.versionMode === 'auto' ? eraCache?.get(key) : undefined;
    // A stale verdict: once more with it forgotten (probing). A legacy server that exits on the in-place
    // `server/discover` probe (seen from the transport: the process ended while the probe was unanswered): once
    // more, pinned to the legacy handshake.
    let attempt = prior;
    for (let retry = 0; ; retry++) {
      try {
        await this.connectProcess(command, args, env, cwd, timeout, abandoned, attempt);
        break;
      } catch (error) {
        if (this.closing || abandoned.aborted) throw error;
        const exitedOnProbe = error instanceof ExitedOnProbe;
        const staleVerdict = retry === 0 && prior !== undefined;
        if (!exitedOnProbe && !staleVerdict) throw error;
        eraCache?.delete(key);
        await this.closeCurrent();
        if (abandoned.aborted) throw error;
        this.lastExit = undefined;
        this.options.hooks.note(
          exitedOnProbe
            ? '[switchboard] the server exited while the server/discover probe was unanswered (some legacy servers quit on it); starting it again with the legacy handshake'
            : `[switchboard] retrying without the cached protocol verdict (${messageOf(error)})`,
        );
        attempt = exitedOnProbe ? { kind: 'legacy' } : undefined;
      }
    }
    const client = this.client;
    if (client && eraCache && policy.versionMode === 'auto') {
      const discover = client.getDiscoverResult();
      eraCache.set(key, client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' });
    }
  }

  private async connectProcess(
    command: string,
    args: string[],
    env: Record<string, string>,
    cwd: string,
    timeout: number,
    abandoned: AbortSignal,
    prior: PriorDiscovery | undefined,
  ): Promise<void> {
    if (abandoned.aborted || this.closing) throw new DeadlineError('abandoned');
    const { hooks, ledger, policy } = this.options;
    let exitedOnProbe = false;
    let raw: ProcessTransport | undefined;
    let pid: number | undefined;
    const opened = createTransport(
      {
        kind: 'stdio',
        process: {
          command,
          args,
          env,
          cwd,
          graceMs: policy.graceMs,
          ...(ledger ? { containment: ledger.containment } : {}),
          label: this.name,
          onStderr: (text) => {
            hooks.stderr(text);
            this.hintDenied(text);
          },
          ...(this.sandbox?.wrap ? { sandbox: this.sandbox.wrap } : {}),
          onStdoutNoise: (line) => {
            const shown = line.length > 300 ? `${line.slice(0, 300)}…` : line;
            hooks.note(`[switchboard] warning: non-JSON line on stdout (ignored): ${shown}`);
          },
          maxMessageBytes: policy.maxMessageBytes,
          onOversizedLine: (info) => hooks.note(`[switchboard] error: ${oversizedText(this.name, info)}`),
          onSpawn: (spawnedPid) => {
            pid = spawnedPid;
            ledger?.add(spawnedPid, this.name, raw?.cgroup);
            if (raw) hooks.spawned(spawnedPid, raw.containment);
          },
          onExit: (exit) => {
            exitedOnProbe = raw?.probeUnansweredWhileOpen ?? false;
            if (pid !== undefined) ledger?.remove(pid);
            this.lastExit = exit;
            hooks.exited(exit, raw !== undefined && this.opened?.raw === raw);
          },
        },
      },
      { server: this.name, decorate: this.options.decorate },
    );
    if (opened.kind === 'stdio') raw = opened.raw;
    this.opened = opened;
    const client = this.newClient(timeout);
    this.client = client;
    try {
      await client.connect(opened.transport, { timeout, ...(prior ? { prior } : {}) });
    } catch (error) {
      if (exitedOnProbe) throw new ExitedOnProbe(messageOf(error), { cause: error });
      throw error;
    }
  }

  private async connectRemote(timeout: number, abandoned: AbortSignal): Promise<void> {
    const { entry, headers } = this.options.server;
    const url = new URL(entry.url ?? '');
    // Needs sign-in (401, or 403 with a challenge): seen with its WWW-Authenticate header, which SDK errors lack.
    const watched = challengeWatchingFetch();
    const kind = transportOf(entry);
    const serverAuth = this.options.auth;
    // Wanting a sign-in is a state, not a failure: said as such (with the authorization server and the scopes).
    const signIn = (error: unknown): ReasonError | undefined => {
      const challenge = watched.challenge();
      serverAuth?.noteChallenge(challenge?.header);
      const refused = serverAuth?.refused(error);
      if (refused !== undefined) return new ReasonError(refused, { cause: error });
      const need = serverAuth?.needsLogin(error);
      return need !== undefined ? new SignInRequired(need.text, { cause: error, reason: need.reason }) : undefined;
    };
    const open = async (transportKind: 'http' | 'sse'): Promise<void> => {
      this.kind = transportKind;
      const opened = createTransport(
        { kind: transportKind, url, headers: headers ?? {}, fetch: watched.fetch, auth: serverAuth?.transportAuth() },
        { server: this.name, decorate: this.options.decorate, decorateFetch: this.options.decorateFetch },
      );
      this.opened = opened;
      const client = this.newClient(timeout);
      this.client = client;
      client.onclose = () => this.options.hooks.remoteClosed();
      await client.connect(opened.transport, { timeout });
    };
    if (kind !== 'sse') {
      try {
        await open('http');
        return;
      } catch (error) {
        // Needs sign-in: not a sign that the server speaks only legacy HTTP+SSE, so no fallback (and no GET).
        const needed = signIn(error);
        if (needed) throw needed;
        const challenge = watched.challenge();
        if (challenge) throw signInError(this.name, url, challenge, headers, serverAuth ? innermostMessage(error) : undefined, error);
        if (kind === 'http' || !isClientHttpError(error) || abandoned.aborted) throw error;
        this.options.hooks.note(`[switchboard] Streamable HTTP answered ${httpStatus(error)}; falling back to legacy HTTP+SSE`);
        await this.closeCurrent();
        if (abandoned.aborted || this.closing) throw error;
      }
    }
    try {
      await open('sse');
    } catch (error) {
      const needed = signIn(error);
      if (needed) throw needed;
      const challenge = watched.challenge();
      if (challenge) throw signInError(this.name, url, challenge, headers, serverAuth ? innermostMessage(error) : undefined, error);
      throw error;
    }
  }

  /** A denied access in the sandbox shows up in stderr: one hint per kind, naming the setting to change. */
  private hintDenied(text: string): void {
    const sandbox = this.sandbox;
    if (!sandbox || this.hints.size >= 3) return;
    for (const line of text.split('\n')) {
      const hint = deniedHint(line, this.name, sandbox.info, sandbox.hidden);
      if (hint === undefined || this.hints.has(hint)) continue;
      this.hints.add(hint);
      this.options.hooks.note(hint);
    }
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

/** The deepest cause's message (what the SDK's auth flow tripped on, under its wrappers). */
function innermostMessage(error: unknown): string {
  const chain = causeChain(error);
  return messageOf(chain[chain.length - 1]);
}

/** A 401 / 403 challenge the OAuth layer did not take up: why, with code `sign-in-required` and its data. */
function signInError(server: string, url: URL, challenge: AuthChallenge, headers: Record<string, string> | undefined, problem: string | undefined, cause: unknown): ReasonError {
  const { text, reason } = signInExplained(server, url, challenge, headers, problem);
  return new ReasonError(text, { cause, reason });
}
