import { pinnedRevision, transportOf, type TransportKind } from '../../../src-shared/schemas/config';
import type { ConsentView, LaunchInfo, ServerStatus, ServerView, StatusReason, ToolResult } from '../../../src-shared/host-api';
import { Emitter, type Event } from '../../../src-shared/lifecycle';
import { CoreError, messageOf, type Explained } from '../errors';
import type { ProcessExit } from '../process/transport';
import { LineRing } from '../support/ring-buffer';
import type { RemoteServerAuth } from '../auth/server-auth';
import { exitData, exitExplained, exitFacts, exitText, SignInRequired, startFailureExplained, timeoutExplained, withDeadline } from './diagnosis';
import type { FeatureContext, FeatureName } from './features/feature';
import { createFeatures, type ServerFeatures } from './features/index';
import { callTool as callFeatureTool, type ToolCallOptions } from './features/tool-call';
import { runWithCallId } from './call-origin';
import type { ResolvedServer } from '../config/resolve';
import { defaultPolicy, type SupervisionPolicy } from './policy';
import { RestartSchedule } from './restart-schedule';
import type { SupervisorDeps } from './supervisor-deps';
import { Session } from './session';
import { pushStyleFailure } from './era-fallback';

/**
 * One configured server's lifecycle: the status machine, start/stop/restart, crash detection (when it restarts:
 * {@link RestartSchedule}), the stderr ring and launch info. Each start is a new {@link Session}; the feature
 * modules live as long as the supervisor (so a crash's logs survive the restart) and are driven by each session.
 * UI-free; the ServerFleet owns and disposes it.
 */
export class Supervisor {
  private readonly changed = new Emitter<void>();
  private readonly featureChanged = new Emitter<FeatureName>();
  /** The server's view changed (status, stderr, a list). */
  readonly onChanged: Event<void> = this.changed.event;
  /** A feature's list was reloaded or cleared. */
  readonly onFeature: Event<FeatureName> = this.featureChanged.event;
  private status: ServerStatus = 'stopped';
  private error: string | undefined;
  /** `error`'s code and data (for the UI's language), when known. */
  private errorInfo: StatusReason | undefined;
  private session: Session | undefined;
  private readonly stderr: LineRing;
  /** {@link LineRing.written} when the latest process was spawned: its lines are the ones after. */
  private stderrMark = 0;
  private disposed = false;
  private starting: Promise<void> | undefined;
  private readonly policy: SupervisionPolicy;
  private launch: LaunchInfo | undefined;
  private pid: number | undefined;
  private readyMs: number | undefined;
  private readonly schedule: RestartSchedule;
  private lastKind: TransportKind;
  /**
   * The request this server sends the host push-style, which made it fall back from 2026-07-28 to the
   * `initialize` era (see era-fallback.ts); every later start connects on that era.
   */
  private pushStyle: string | undefined;
  /** The reconnect on the `initialize` era under way, which calls that failed for the same reason wait for. */
  private fallingBack: Promise<void> | undefined;
  /** The approval this entry waits for (trust/consent.ts); while enforced, it does not start. */
  private pendingConsent: ConsentView | undefined;
  readonly features: ServerFeatures;
  /** A remote server's OAuth sign-in (login, logout, its view); undefined for stdio. */
  readonly auth: RemoteServerAuth | undefined;

  constructor(
    /** Replaced by `update()` when only what needs no restart changed (roots, sampling policy). */
    public server: ResolvedServer,
    private readonly deps: SupervisorDeps = {},
  ) {
    // What is shown of stderr (the sidebar's tail, the Logs tab, error texts) is redacted as the log files are.
    this.stderr = new LineRing(200, 2000, deps.redact);
    const kind = transportOf(server.entry);
    this.lastKind = kind === 'auto-remote' ? 'http' : kind;
    this.policy = { ...defaultPolicy, ...deps.policy };
    this.schedule = new RestartSchedule(
      this.policy,
      () => void this.start(),
      () => this.changed.fire(),
    );
    const context: FeatureContext = {
      server: server.name,
      client: () => this.session?.sdkClient,
      requestTimeoutMs: () => this.requestTimeoutMs(),
      note: (line) => this.noteStderr(line),
      changed: (feature) => {
        if (this.disposed) return;
        this.changed.fire();
        this.featureChanged.fire(feature);
      },
      emit: (event, payload) => this.deps.emit?.(event, payload),
      log: (line) => this.deps.log?.write(line),
      unhealthy: (reason, lost) => this.onUnhealthy(reason, lost),
      remote: server.entry.command === undefined,
      logLevel: this.policy.logLevel ?? server.entry.logLevel ?? 'info',
      ping: { intervalMs: this.policy.pingIntervalMs, timeoutMs: this.policy.pingTimeoutMs },
      ...(deps.requests ? { requests: deps.requests } : {}),
      ...(deps.sampler ? { sampler: deps.sampler } : {}),
      ...(deps.audit ? { audit: deps.audit } : {}),
      ...(deps.answerSource ? { answerSource: deps.answerSource } : {}),
      roots: () => this.server.roots ?? [],
      samplingPolicy: () => ({
        mode: this.server.entry.sampling?.mode ?? 'ask',
        ...(this.server.entry.sampling?.perMinute !== undefined ? { perMinute: this.server.entry.sampling.perMinute } : {}),
      }),
      pins: deps.pins,
      skillPins: deps.skillPins,
      ...(deps.samplingContext ? { samplingContext: (scope: 'thisServer' | 'allServers') => deps.samplingContext?.(this.server.name, scope) } : {}),
    };
    this.features = createFeatures(context);
    this.auth = deps.auth?.forServer(server, () => {
      if (!this.disposed) this.changed.fire();
    });
  }

  /**
   * The same server with a new definition that needs no restart (only its roots or sampling policy changed): the
   * running session keeps going; changed roots are announced to it (`notifications/roots/list_changed`).
   */
  update(server: ResolvedServer): void {
    this.server = server;
    void this.features.roots.changed();
  }

  /** A request's timeout: the entry's own, else the policy's. */
  private requestTimeoutMs(): number {
    return this.server.entry.timeout ?? this.policy.requestTimeoutMs;
  }

  get name(): string {
    return this.server.name;
  }

  get currentStatus(): ServerStatus {
    return this.status;
  }

  get currentPid(): number | undefined {
    return this.pid;
  }

  get consent(): ConsentView | undefined {
    return this.pendingConsent;
  }

  /** Set by the ServerFleet: the entry's pending approval, or undefined once approved (then `start` starts it). */
  setConsent(consent: ConsentView | undefined, start = false): void {
    this.pendingConsent = consent;
    if (consent?.enforced) {
      if (this.status === 'stopped' || this.status === 'needs-approval') this.setStatus('needs-approval', consentExplained(consent));
      return;
    }
    if (this.status === 'needs-approval') this.setStatus('stopped');
    if (start) void this.start();
  }

  view(): ServerView {
    const entry = this.server.entry;
    const ready = this.status === 'ready';
    const session = ready ? this.session : undefined;
    const { resources, prompts, logging, health, skills } = this.features;
    const resourceCounts = resources.counts();
    const promptCount = prompts.count();
    const skillCount = skills.count();
    const logLevel = logging.level();
    const healthView = health.view();
    return {
      name: this.name,
      transport: this.session?.transportKind ?? this.lastKind,
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(this.error !== undefined && this.errorInfo !== undefined ? { errorInfo: this.errorInfo } : {}),
      ...(session ? session.view() : {}),
      ...(pinnedRevision(entry.protocolVersion) !== undefined ? { protocolPin: entry.protocolVersion } : {}),
      ...(session && this.pushStyle !== undefined ? { eraFallback: this.pushStyle } : {}),
      disabled: entry.disabled === true,
      tools: this.features.tools.items,
      target: entry.command !== undefined ? [entry.command, ...(entry.args ?? [])].join(' ') : (entry.url ?? ''),
      stderrTail: this.stderr.tail(50),
      ...(this.launch ? { launch: this.launch } : {}),
      ...(this.pid !== undefined ? { pid: this.pid } : {}),
      ...(this.readyMs !== undefined ? { readyMs: this.readyMs } : {}),
      restarts: this.schedule.restarts,
      ...(this.schedule.nextRestartAt !== undefined ? { nextRestartAt: this.schedule.nextRestartAt } : {}),
      ...(this.deps.log ? { logFile: this.deps.log.file } : {}),
      ...(this.server.needsInput !== undefined ? { needsInput: this.server.needsInput } : {}),
      ...(logLevel !== undefined ? { logLevel } : {}),
      ...(healthView !== undefined ? { health: healthView } : {}),
      ...(resourceCounts !== undefined || promptCount !== undefined
        ? {
            counts: {
              resources: resourceCounts?.resources ?? 0,
              templates: resourceCounts?.templates ?? 0,
              prompts: promptCount ?? 0,
              ...(skillCount !== undefined ? { skills: skillCount } : {}),
            },
          }
        : {}),
      ...(this.pendingConsent ? { consent: this.pendingConsent } : {}),
      ...(this.auth ? { auth: this.auth.view() } : {}),
    };
  }

  /** Connects; resolves when ready or failed (the failure is recorded in the status, not thrown). */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.pendingConsent?.enforced) {
      // Never started before a person approved this exact launch (SEP-1024): not by a restart, not by a retry.
      this.setStatus('needs-approval', consentExplained(this.pendingConsent));
      return Promise.resolve();
    }
    // A start still running for a session that was since closed (a restart meanwhile) does not count.
    if (this.starting && this.session && !this.session.isClosed) return this.starting;
    const starting: Promise<void> = this.run().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private newSession(): Session {
    const session: Session = new Session({
      server: this.server,
      policy: this.policy,
      features: this.features,
      eraCache: this.deps.eraCache,
      pushStyle: this.pushStyle,
      ledger: this.deps.ledger,
      decorate: this.deps.decorateTransport,
      decorateFetch: this.deps.decorateFetch,
      requestSpans: this.deps.requestSpans,
      auth: this.auth,
      hooks: {
        note: (line) => this.noteStderr(line),
        stderr: (text) => {
          for (const line of this.stderr.write(text)) this.keepStderr(line);
          this.changed.fire();
        },
        stderrEnded: () => {
          const line = this.stderr.flush();
          if (line === undefined) return;
          this.keepStderr(line);
          this.changed.fire();
        },
        log: (line) => this.deps.log?.write(line),
        launch: (info) => {
          this.launch = info;
        },
        spawned: (pid, containment) => {
          this.pid = pid;
          // A line the previous process left unfinished is its, not this one's.
          const left = this.stderr.flush();
          if (left !== undefined) this.keepStderr(left);
          this.stderrMark = this.stderr.written;
          if (this.launch) this.launch = { ...this.launch, containment };
        },
        exited: (exit, current) => {
          this.pid = undefined;
          if (current && session === this.session) this.onProcessExit(exit);
        },
        remoteClosed: () => {
          if (session === this.session) this.onRemoteClosed();
        },
        tail: () => this.tailText(),
      },
    });
    return session;
  }

  private async run(): Promise<void> {
    const started = performance.now();
    // A start replaces whatever session is left (one that failed or crashed is already closed).
    const previous = this.session;
    const session = this.newSession();
    this.session = session;
    // Synchronously, so that whoever called start() sees `starting` at once (ServerFleet.settled relies on it).
    this.setStatus('starting');
    const timeout = this.server.entry.timeout ?? this.policy.startTimeoutMs;
    // Set when the deadline passes, so that work still in flight starts nothing new (no retry, no fallback).
    const abandoned = new AbortController();
    const current = (): boolean => session === this.session && !this.disposed;
    if (previous) await previous.close();
    if (!current()) return;
    try {
      if (this.server.problem !== undefined)
        throw new CoreError('config-invalid', this.server.problem, this.server.problemData !== undefined ? { data: this.server.problemData } : undefined);
      await withDeadline(session.connect(timeout, abandoned.signal), timeout, () => {
        abandoned.abort();
        return session.timeoutReason(timeout);
      });
      if (!current()) return;
      this.lastKind = session.transportKind;
      this.pushStyle = session.pushStyle;
      this.schedule.ready();
      this.readyMs = Math.round(performance.now() - started);
      this.setStatus('ready');
    } catch (error) {
      if (!current()) return;
      const reason = session.explain(error, timeout);
      const explained = this.startFailure(error, session, timeout, reason);
      this.deps.log?.write(`[switchboard] start failed: ${reason}`);
      // A fallback that does not connect is not kept for the next start (which negotiates afresh, as the era cache
      // forgets it too).
      this.pushStyle = undefined;
      await session.close();
      if (!current()) return;
      // Wanting a sign-in is not a failure: no restart loop, the person signs in (then the server restarts).
      // (Also when it surfaced later in the connect, e.g. on the first tools/list of a server whose AS moved.)
      const signIn = error instanceof SignInRequired ? explained : this.auth?.needsLogin(error);
      if (signIn !== undefined) {
        this.setStatus('needs-login', signIn);
        return;
      }
      this.setStatus('error', explained);
      this.schedule.startFailed();
    }
  }

  /** A ready session stopped answering (a missed ping): close it and reconnect, waiting longer each time it recurs. */
  private onUnhealthy(reason: string, lost: Explained): void {
    if (this.disposed || this.status !== 'ready') return;
    this.schedule.healthLost();
    const text = `${reason}${this.policy.autoRestart ? '; reconnecting' : ''}`;
    this.deps.log?.write(`[switchboard] ${text}`);
    const session = this.session;
    if (session) void session.close();
    // The ping's own code and data, quoted as the cause: `health-lost`, `how` says what follows.
    const how = this.policy.autoRestart ? 'reconnecting' : 'stopped';
    this.setStatus('error', { text, reason: { code: 'health-lost', data: { server: this.name, how }, cause: { text: lost.text, ...lost.reason } } });
    this.schedule.reconnect();
  }

  private onRemoteClosed(): void {
    if (this.disposed || this.status !== 'ready') return;
    this.session?.detach();
    this.setStatus('error', { text: 'The remote server closed the connection.', reason: { code: 'remote-closed', data: { server: this.name } } });
  }

  /** The child ended on its own: fail its calls (the SDK does, on close), record why, and maybe restart. */
  private onProcessExit(exit: ProcessExit): void {
    if (this.disposed) return;
    if (this.status !== 'ready') return; // during start, run() reports the failure
    const reason = `${exitText(this.name, exit)}.${this.tailText()}`;
    const lines = this.tailLines();
    this.deps.log?.write(`[switchboard] ${reason}`);
    const session = this.session;
    if (session) void session.close();
    const deaths = this.schedule.died();
    if (this.schedule.isCrashLoop(deaths)) {
      const text = `${reason}\nIt died ${deaths} times within ${this.policy.stableMs / 1000} s of starting, so it is left stopped. Fix the cause, then press Restart.`;
      const data = { ...exitFacts(this.name, exit), deaths, seconds: this.policy.stableMs / 1000 };
      this.setStatus('crash-loop', { text, reason: { code: 'crash-loop', data, ...(lines.length ? { lines } : {}) } });
      return;
    }
    const exited = exitExplained(this.name, exit);
    this.setStatus('error', { text: reason, reason: { ...exited.reason, ...(lines.length ? { lines } : {}) } });
    this.schedule.restartAfterDeath();
  }

  private tailText(): string {
    const tail = this.tailLines();
    return tail.length ? ` Last stderr lines:\n${tail.join('\n')}` : '';
  }

  /**
   * The server's own last stderr lines (not our `[switchboard]` notes), as quoted in explanations: of its latest
   * process only, so that a start tried twice (the era probe's fallbacks) does not quote the first one's lines again.
   */
  private tailLines(): string[] {
    return this.stderr
      .since(this.stderrMark)
      .filter((l) => !l.startsWith('[switchboard]'))
      .slice(-5);
  }

  /**
   * A failed start's code and data beside the session's English `text`: only when they explain that same text (the
   * session may word a failure this module does not know; then the UI shows the English text as it is).
   */
  private startFailure(error: unknown, session: Session, timeout: number, text: string): Explained | string {
    const timedOut = timeoutExplained(this.name, timeout);
    // The session's own timeout (with what it saw on stdout: `stdout-noise`), when that is the text it gave.
    const sessionTimeout = session.timeoutExplained(timeout);
    if (text === sessionTimeout.text) return sessionTimeout;
    const found = startFailureExplained(error, {
      server: this.name,
      entry: this.server.entry,
      timeoutText: () => timedOut.text,
      exit: session.lastExit ?? session.transportExit,
      tail: () => this.tailText(),
      tailLines: () => this.tailLines(),
    });
    if (found.text !== text) return text;
    if (found.reason !== undefined) return { text, reason: found.reason };
    // A timeout: the session words it (with what it saw on stdout); the plain one is known here.
    return text === timedOut.text ? timedOut : text;
  }

  /** The ready session, or a `server-not-ready` error saying why there is none. */
  requireReady(what: string): Session {
    const session = this.session;
    if (this.status !== 'ready' || !session || session.isClosed) {
      throw new CoreError(
        'server-not-ready',
        `Server "${this.name}" is ${this.status}${this.error ? ` (${this.error.split('\n')[0]})` : ''}; it cannot ${what} now.`,
        {
          data: { server: this.name, status: this.status },
        },
      );
    }
    return session;
  }

  /**
   * Calls a tool. A call that fails because the server sent the host a request push-style on a 2026-07-28
   * connection (see era-fallback.ts) reconnects the server on the `initialize` era — remembered for it; not when the
   * entry pins a revision. The call is made once more there only when the tool says repeating it is harmless
   * (`readOnlyHint` or `idempotentHint`): the server may have done part of the work before it asked, and doing that
   * twice is the person's choice, so any other tool answers with an error that says to run it again.
   */
  async callTool(tool: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<ToolResult> {
    const session = this.requireReady(`run "${tool}"`);
    // One async step per call: the fallback is looked for only once a call has failed (thrown, or `isError`).
    let result: ToolResult;
    try {
      result = await this.send(tool, args, options);
    } catch (error) {
      const failure = this.callFailure(session, tool, error, options);
      const method = this.mayFallBack(session, options.signal) ? pushStyleFailure(failure) : undefined;
      if (method === undefined) throw failure;
      return this.afterFallBack(session, method, tool, args, options);
    }
    if (result.isError !== true) return result;
    const method = this.mayFallBack(session, options.signal) ? pushStyleFailure(result) : undefined;
    if (method === undefined) return result;
    return this.afterFallBack(session, method, tool, args, options);
  }

  private async afterFallBack(session: Session, method: string, tool: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
    await this.fallBack(session, method);
    const annotations = this.features.tools.items.find((item) => item.name === tool)?.annotations;
    if (annotations?.readOnlyHint === true || annotations?.idempotentHint === true) {
      return this.callOn(this.requireReady(`run "${tool}"`), tool, args, options);
    }
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: `"${this.name}" asked the host for ${method} in a way protocol 2026-07-28 has no channel for, so Switchboard reconnected it with the 2025-11-25 handshake (remembered for this server). "${tool}" was not repeated on its own because it may already have done part of its work: run it again.`,
        },
      ],
    };
  }

  /** A call on this session may trigger the fallback: negotiated (no pin), on 2026-07-28, not cancelled. */
  private mayFallBack(session: Session, signal: AbortSignal | undefined): boolean {
    if (signal?.aborted || this.policy.versionMode !== 'auto' || pinnedRevision(this.server.entry.protocolVersion) !== undefined) return false;
    return session.view().era === 'modern';
  }

  /** Reconnects on the `initialize` era (once, however many calls failed meanwhile) and waits for the start. */
  private async fallBack(session: Session, method: string): Promise<void> {
    this.fallingBack ??= (async () => {
      if (this.session !== session) return;
      this.pushStyle = method;
      this.noteStderr(
        `[switchboard] the server sent ${method} to the host push-style, which protocol 2026-07-28 has no channel for; reconnecting it with the 2025-11-25 handshake (remembered for this server; "protocolVersion" in its entry pins an era)`,
      );
      await this.closeSession();
      await this.start();
    })().finally(() => {
      this.fallingBack = undefined;
    });
    await this.fallingBack;
    if (this.starting) await this.starting;
  }

  /** A call once more (after the fallback): no second fallback, failures explained as {@link callTool}'s. */
  private async callOn(session: Session, tool: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
    try {
      return await this.send(tool, args, options);
    } catch (error) {
      throw this.callFailure(session, tool, error, options);
    }
  }

  private send(tool: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
    const timeoutMs = this.requestTimeoutMs();
    // In the call's context, so that what the server asks meanwhile (sampling, a form) names this call.
    return runWithCallId(options.callId, () => callFeatureTool(this.features, tool, args, options, timeoutMs));
  }

  /** What a failed call throws: the SDK's error explained (a sign-in needed, a cancel, the server's exit); a CoreError as it is. */
  private callFailure(session: Session, tool: string, error: unknown, options: { signal?: AbortSignal }): Error {
    if (error instanceof CoreError) return error;
    const data = { server: this.name, tool };
    const signIn = this.auth?.needsLogin(error);
    if (signIn !== undefined) {
      // No tokens left (a revoked refresh token): the whole server needs a sign-in, once — not each call.
      // (A step-up keeps the server ready: only calls that need more access wait for the person.)
      if (this.auth?.view().state === 'signed-out' && this.session === session) {
        void session.close();
        this.setStatus('needs-login', signIn);
      }
      return new CoreError('server-not-ready', `Calling ${this.name}/${tool} needs a sign-in first. ${signIn.text}`, {
        cause: error,
        data: { ...data, status: 'needs-login' },
      });
    }
    if (options.signal?.aborted) return new CoreError('cancelled', `Cancelled ${this.name}/${tool}.`, { cause: error, data });
    const exit = session.transportExit ?? session.lastExit;
    if (exit) {
      // `how` picks the wording (errors.tool-call-failed.code|signal), `stderr`: the lines the text quotes.
      const lines = this.tailLines();
      const facts = { ...data, ...exitData(exit), how: exitFacts(this.name, exit).how, ...(lines.length ? { stderr: lines } : {}) };
      return new CoreError('tool-call-failed', `Calling ${this.name}/${tool} failed: ${exitText(this.name, exit)} during the call.${this.tailText()}`, {
        cause: error,
        data: facts,
      });
    }
    return new CoreError('tool-call-failed', `Calling ${this.name}/${tool} failed: ${messageOf(error)}`, { cause: error, data });
  }

  /** A manual restart: forgets crash history, closes the session (and the child's tree), starts again. */
  async restart(): Promise<void> {
    this.schedule.reset();
    await this.closeSession();
    this.setStatus('stopped');
    await this.start();
  }

  /** Stops the server (session first, then its process tree) without disposing the supervisor. */
  async stop(): Promise<void> {
    this.schedule.cancel();
    await this.closeSession();
    this.setStatus('stopped');
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    this.lastKind = session.transportKind;
    await session.close();
  }

  /** Session first, then the transport (and with it the child's tree), then the feature modules. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.schedule.cancel();
    await this.closeSession();
    this.status = 'stopped';
    for (const feature of [...this.features.all].reverse()) feature.dispose();
    this.deps.log?.dispose();
    this.changed.dispose();
    this.featureChanged.dispose();
  }

  private noteStderr(line: string): void {
    this.keepStderr(this.stderr.push(line));
    this.changed.fire();
  }

  /** A line the ring kept (redacted, cut) goes to the log file and the Logs tab too. */
  private keepStderr(line: string): void {
    this.deps.log?.write(line);
    this.features.logging.stderr(line);
  }

  /** `error`: the English text, or the text with its code and data. */
  private setStatus(status: ServerStatus, error?: string | Explained): void {
    this.status = status;
    this.error = typeof error === 'string' ? error : error?.text;
    this.errorInfo = typeof error === 'string' ? undefined : error?.reason;
    this.changed.fire();
  }
}

function consentExplained(consent: ConsentView): Explained {
  const what =
    consent.reason === 'changed'
      ? 'What it runs, the secrets it is given, where it sends them or its sampling policy changed since it was approved'
      : 'This server has not been approved in Switchboard';
  return {
    text: `${what}: review exactly what would run and approve it to start the server.`,
    reason: { code: 'needs-approval', data: { reason: consent.reason } },
  };
}
