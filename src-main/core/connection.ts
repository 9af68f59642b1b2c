import { EventEmitter } from 'node:events';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import { transportOf, type ServerEntry, type TransportKind } from '../../src-shared/config-schema';
import type { LaunchInfo, ServerStatus, ServerView, ToolInfo, ToolResult } from '../../src-shared/host-api';
import { EraCache } from './era-cache';
import { CoreError, messageOf } from './errors';
import type { ChildEnv } from './env';
import type { ChildLedger } from './ledger';
import type { RotatingLog } from './log-file';
import { defaultMaxMessageBytes, formatBytes, ProcessTransport, type OversizedLine, type ProcessExit } from './process-transport';
import { resolveCommand } from './resolve-command';
import { LineRing } from './ring-buffer';

export const clientInfo = { name: 'switchboard', version: '0.1.0' };

/** Supervision knobs; the defaults suit a desktop host. */
export interface SupervisionPolicy {
  /** Connect + handshake + tools/list must finish within this (a server's `timeout` overrides). */
  startTimeoutMs: number;
  /** Each request (reset by progress notifications); a server's `timeout` overrides. */
  requestTimeoutMs: number;
  /**
   * The largest single stdio message (one stdout line) accepted, in bytes; a longer line is dropped as it streams
   * and reported. (The era probe has no timeout of its own: it may take the whole connect timeout.)
   */
  maxMessageBytes: number;
  autoRestart: boolean;
  restartBaseDelayMs: number;
  restartMaxDelayMs: number;
  /** A server that dies within `stableMs` of being ready this many times in a row is a crash loop. */
  crashLoopCount: number;
  stableMs: number;
  /** How long close() waits after ending stdin before signalling the process tree. */
  graceMs: number;
  /** Protocol era negotiation: `auto` (probe, cached) or `legacy` (initialize only; benchmarks compare). */
  versionMode: 'auto' | 'legacy';
}

export const defaultPolicy: SupervisionPolicy = {
  startTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  maxMessageBytes: defaultMaxMessageBytes,
  autoRestart: true,
  restartBaseDelayMs: 500,
  restartMaxDelayMs: 30_000,
  crashLoopCount: 3,
  stableMs: 10_000,
  graceMs: 1000,
  versionMode: 'auto',
};

/** Everything a Connection needs, already resolved (env references, child environment). */
export interface ResolvedServer {
  name: string;
  entry: ServerEntry;
  /** For stdio: the child's whole environment (built by the whitelist rule). */
  childEnv?: ChildEnv;
  /** For remote: headers with references resolved. */
  headers?: Record<string, string>;
  /** A problem found while resolving (e.g. an unset ${env:NAME}); the server fails with it. */
  problem?: string;
  /** The `${input:ID}` the user must answer before this server can start. */
  needsInput?: string;
}

export interface ConnectionDeps {
  policy?: Partial<SupervisionPolicy>;
  eraCache?: EraCache;
  ledger?: ChildLedger;
  /** This server's stderr log (rotating). */
  log?: RotatingLog;
}

export interface ConnectionEvents {
  changed: [];
}

/**
 * One configured server: the SDK client, its transport, a status machine, the stderr ring buffer, and its
 * supervision (crash detection, backoff restarts, crash-loop). UI-free; the Registry owns and disposes it.
 */
export class Connection extends EventEmitter<ConnectionEvents> {
  private status: ServerStatus = 'stopped';
  private error: string | undefined;
  private tools: ToolInfo[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private transportKind: TransportKind;
  private readonly stderr = new LineRing(200);
  private generation = 0;
  private disposed = false;
  private starting: Promise<void> | undefined;
  private readonly policy: SupervisionPolicy;
  private launch: LaunchInfo | undefined;
  private pid: number | undefined;
  private readyAt = 0;
  private readyMs: number | undefined;
  private restarts = 0;
  private quickDeaths = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private nextRestartAt: number | undefined;
  private lastExit: ProcessExit | undefined;

  constructor(
    readonly server: ResolvedServer,
    private readonly deps: ConnectionDeps = {},
  ) {
    super();
    const kind = transportOf(server.entry);
    this.transportKind = kind === 'auto-remote' ? 'http' : kind;
    this.policy = { ...defaultPolicy, ...deps.policy };
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

  view(): ServerView {
    const entry = this.server.entry;
    const serverInfo = this.client?.getServerVersion();
    const ready = this.status === 'ready';
    return {
      name: this.name,
      transport: this.transportKind,
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(ready && this.client ? protocolOf(this.client) : {}),
      ...(ready && serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
      disabled: entry.disabled === true,
      tools: this.tools,
      target: entry.command !== undefined ? [entry.command, ...(entry.args ?? [])].join(' ') : (entry.url ?? ''),
      stderrTail: this.stderr.tail(50),
      ...(this.launch ? { launch: this.launch } : {}),
      ...(this.pid !== undefined ? { pid: this.pid } : {}),
      ...(this.readyMs !== undefined ? { readyMs: this.readyMs } : {}),
      restarts: this.restarts,
      ...(this.nextRestartAt !== undefined ? { nextRestartAt: this.nextRestartAt } : {}),
      ...(this.deps.log ? { logFile: this.deps.log.file } : {}),
      ...(this.server.needsInput !== undefined ? { needsInput: this.server.needsInput } : {}),
    };
  }

  /** Connects; resolves when ready or failed (the failure is recorded in the status, not thrown). */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.starting) return this.starting;
    this.starting = this.run().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async run(): Promise<void> {
    const generation = ++this.generation;
    const started = performance.now();
    this.lastExit = undefined;
    this.setStatus('starting');
    const timeout = this.server.entry.timeout ?? this.policy.startTimeoutMs;
    // Set when the deadline passes, so that work still in flight starts nothing new (no retry, no fallback).
    const abandoned = new AbortController();
    try {
      if (this.server.problem !== undefined) throw new CoreError('config-invalid', this.server.problem);
      await withDeadline(
        (async () => {
          if (this.server.entry.command !== undefined) await this.connectStdio(timeout, generation, abandoned.signal);
          else await this.connectRemote(timeout, abandoned.signal);
          if (generation !== this.generation || this.disposed) return;
          const client = this.client;
          if (!client) throw new Error('no client after connect');
          const listed = await client.listTools(undefined, { timeout });
          this.tools = listed.tools.map(toolInfo);
        })(),
        timeout,
        () => {
          abandoned.abort();
          return this.timeoutReason(timeout);
        },
      );
      if (generation !== this.generation || this.disposed) return;
      this.readyAt = Date.now();
      this.readyMs = Math.round(performance.now() - started);
      this.setStatus('ready');
    } catch (error) {
      if (generation !== this.generation || this.disposed) return;
      const reason = this.explain(error);
      this.deps.log?.write(`[switchboard] start failed: ${reason}`);
      await this.closeSession();
      this.setStatus('error', reason);
    }
  }

  private timeoutReason(timeout: number): string {
    const transport = this.transport;
    if (transport instanceof ProcessTransport && transport.messages === 0 && transport.noiseLines > 0) {
      return `The server wrote only non-JSON to stdout (${transport.noiseLines} line${transport.noiseLines === 1 ? '' : 's'}, first: ${JSON.stringify(transport.firstNoise)}), so no MCP message arrived within ${timeout} ms. stdout belongs to the protocol: the server must log to stderr.`;
    }
    return `Server "${this.name}" did not finish connecting within ${timeout} ms. If it is only slow to start (a first npx or uvx download, a JVM, a busy machine), raise "timeout" (in ms) in its config entry.`;
  }

  /**
   * The era probe may wait as long as the connect itself (`timeout`): SDK 2.4.0 treats a probe timeout as a hard
   * failure on every transport it does not take for its own stdio one (ours included), so a shorter probe would
   * fail every slow first start (npx, uvx, a JVM) whatever the server's `timeout` says.
   */
  private newClient(timeout: number): Client {
    const client = new Client(clientInfo, {
      capabilities: {},
      versionNegotiation: { mode: this.policy.versionMode, probe: { timeoutMs: timeout } },
    });
    client.onerror = (error) => this.noteStderr(`[switchboard] protocol error: ${messageOf(error)}`);
    return client;
  }

  private async connectStdio(timeout: number, generation: number, abandoned: AbortSignal): Promise<void> {
    const entry = this.server.entry;
    const env = this.server.childEnv?.env ?? {};
    const args = entry.args ?? [];
    const cwd = entry.cwd ?? process.cwd();
    const launchEnv = Object.entries(this.server.childEnv?.sources ?? {}).map(([name, source]) => ({ name, source }));
    // Shown even when the command cannot be found, so a person sees what was tried.
    this.launch = { command: entry.command ?? '', args, cwd, env: launchEnv };
    const command = resolveCommand(entry.command ?? '', env.PATH, entry.cwd);
    this.launch = { command, args, cwd, env: launchEnv };
    const key = EraCache.key(command, args, cwd);
    const prior = this.policy.versionMode === 'auto' ? this.deps.eraCache?.get(key) : undefined;
    // A stale verdict: once more with it forgotten (probing). A legacy server that exits on the in-place
    // `server/discover` probe (seen from the transport: the process ended while the probe was unanswered): once
    // more, pinned to the legacy handshake.
    let attempt = prior;
    for (let retry = 0; ; retry++) {
      try {
        await this.connectProcess(command, args, env, cwd, timeout, generation, abandoned, attempt);
        break;
      } catch (error) {
        if (generation !== this.generation || this.disposed || abandoned.aborted) throw error;
        const exitedOnProbe = error instanceof ExitedOnProbe;
        const staleVerdict = retry === 0 && prior !== undefined;
        if (!exitedOnProbe && !staleVerdict) throw error;
        this.deps.eraCache?.delete(key);
        await this.closeSession();
        if (abandoned.aborted) throw error;
        this.lastExit = undefined;
        this.noteStderr(
          exitedOnProbe
            ? '[switchboard] the server exited while the server/discover probe was unanswered (some legacy servers quit on it); starting it again with the legacy handshake'
            : `[switchboard] retrying without the cached protocol verdict (${messageOf(error)})`,
        );
        attempt = exitedOnProbe ? { kind: 'legacy' } : undefined;
      }
    }
    const client = this.client;
    if (client && this.deps.eraCache && this.policy.versionMode === 'auto') {
      const discover = client.getDiscoverResult();
      this.deps.eraCache.set(key, client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' });
    }
  }

  private async connectProcess(
    command: string,
    args: string[],
    env: Record<string, string>,
    cwd: string,
    timeout: number,
    generation: number,
    abandoned: AbortSignal,
    prior: PriorDiscovery | undefined,
  ): Promise<void> {
    if (abandoned.aborted) throw new DeadlineError('abandoned');
    let exitedOnProbe = false;
    const transport = new ProcessTransport({
      command,
      args,
      env,
      cwd,
      graceMs: this.policy.graceMs,
      ...(this.deps.ledger ? { containment: this.deps.ledger.containment } : {}),
      label: this.name,
      onStderr: (text) => {
        for (const line of this.stderr.write(text)) this.deps.log?.write(line);
        this.emit('changed');
      },
      onStdoutNoise: (line) => {
        const shown = line.length > 300 ? `${line.slice(0, 300)}…` : line;
        this.noteStderr(`[switchboard] warning: non-JSON line on stdout (ignored): ${shown}`);
      },
      maxMessageBytes: this.policy.maxMessageBytes,
      onOversizedLine: (info) => this.noteStderr(`[switchboard] error: ${this.oversizedText(info)}`),
      onSpawn: (pid) => {
        this.pid = pid;
        this.deps.ledger?.add(pid, this.name, transport.cgroup);
        if (this.launch) this.launch = { ...this.launch, containment: transport.containment };
      },
      onExit: (exit) => {
        exitedOnProbe = transport.probeUnansweredWhileOpen;
        if (this.pid !== undefined) this.deps.ledger?.remove(this.pid);
        this.pid = undefined;
        this.lastExit = exit;
        if (generation === this.generation && transport === this.transport) this.onProcessExit(exit);
      },
    });
    this.transport = transport;
    const client = this.newClient(timeout);
    this.client = client;
    try {
      await client.connect(transport, { timeout, ...(prior ? { prior } : {}) });
    } catch (error) {
      if (exitedOnProbe) throw new ExitedOnProbe(messageOf(error), { cause: error });
      throw error;
    }
  }

  private oversizedText(info: OversizedLine): string {
    const limit = formatBytes(info.limit);
    const what = info.id !== undefined ? `its reply to request ${JSON.stringify(info.id)} as a stdout line of over ${limit}` : `a stdout line of over ${limit} without a newline`;
    return `server "${this.name}" wrote ${what}; it was discarded (it begins ${JSON.stringify(info.head.slice(0, 80))}). One MCP message may be at most ${limit} (the maxMessageBytes limit)${info.id !== undefined ? '; that request failed' : ''}.`;
  }

  private async connectRemote(timeout: number, abandoned: AbortSignal): Promise<void> {
    const entry = this.server.entry;
    const url = new URL(entry.url ?? '');
    const requestInit: RequestInit = { headers: this.server.headers ?? {} };
    // Every response passes here first, so a sign-in wall (401, or 403 with a challenge) is seen with its
    // WWW-Authenticate header, which the SDK's errors do not carry.
    let challenge: AuthChallenge | undefined;
    const watchedFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      const header = response.headers.get('www-authenticate') ?? undefined;
      if (response.status === 401 || (response.status === 403 && header !== undefined)) {
        challenge ??= { status: response.status, method: init?.method ?? 'GET', ...(header !== undefined ? { header } : {}) };
      }
      return response;
    };
    const kind = transportOf(entry);
    if (kind !== 'sse') {
      this.transportKind = 'http';
      const transport = new StreamableHTTPClientTransport(url, { requestInit, fetch: watchedFetch });
      this.transport = transport;
      this.client = this.newClient(timeout);
      this.client.onclose = () => this.onRemoteClosed();
      try {
        await this.client.connect(transport, { timeout });
        return;
      } catch (error) {
        // Needs sign-in: not a sign that the server speaks only legacy HTTP+SSE, so no fallback (and no GET).
        if (challenge) throw new ReasonError(this.signInText(url, challenge), { cause: error });
        if (kind === 'http' || !isClientHttpError(error) || abandoned.aborted) throw error;
        this.noteStderr(`[switchboard] Streamable HTTP answered ${httpStatus(error)}; falling back to legacy HTTP+SSE`);
        await this.closeSession();
        if (abandoned.aborted) throw error;
      }
    }
    this.transportKind = 'sse';
    // requestInit headers go on the POSTs and on the SSE GET alike.
    const transport = new SSEClientTransport(url, { requestInit, fetch: watchedFetch });
    this.transport = transport;
    this.client = this.newClient(timeout);
    this.client.onclose = () => this.onRemoteClosed();
    try {
      await this.client.connect(transport, { timeout });
    } catch (error) {
      if (challenge) throw new ReasonError(this.signInText(url, challenge), { cause: error });
      throw error;
    }
  }

  private signInText(url: URL, challenge: AuthChallenge): string {
    const params = challenge.header !== undefined ? challengeParams(challenge.header) : {};
    const details = [
      params.realm !== undefined ? `realm "${params.realm}"` : undefined,
      params.resource_metadata !== undefined ? `resource metadata at ${params.resource_metadata}` : undefined,
      params.scope !== undefined ? `scope "${params.scope}"` : undefined,
      params.error !== undefined ? `error "${params.error}"${params.error_description !== undefined ? ` (${params.error_description})` : ''}` : undefined,
    ].filter((d): d is string => d !== undefined);
    const sentToken = Object.keys(this.server.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
    const answer = challenge.status === 401 ? 'HTTP 401 Unauthorized' : 'HTTP 403 Forbidden with a WWW-Authenticate challenge';
    return [
      `Server "${this.name}" needs sign-in: ${url.href} answered ${answer}${details.length ? ` (${details.join('; ')})` : ''}.`,
      sentToken
        ? 'It refused the Authorization header in its config entry: check that the token is valid and not expired.'
        : 'Switchboard cannot sign in with OAuth yet. As a workaround, get a token from the service and add it to the entry: "headers": { "Authorization": "Bearer <token>" }.',
    ].join(' ');
  }

  private onRemoteClosed(): void {
    if (this.disposed || this.status !== 'ready') return;
    this.generation++;
    this.tools = [];
    this.client = undefined;
    this.transport = undefined;
    this.setStatus('error', 'The remote server closed the connection.');
  }

  /** The child ended on its own: fail its calls (the SDK does, on close), record why, and maybe restart. */
  private onProcessExit(exit: ProcessExit): void {
    if (this.disposed) return;
    const wasReady = this.status === 'ready';
    if (!wasReady) return; // during start, run() reports the failure
    const reason = `${this.exitText(exit)}.${this.tailText()}`;
    this.deps.log?.write(`[switchboard] ${reason}`);
    this.generation++;
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    if (client) void client.close().catch(() => undefined);
    const quick = Date.now() - this.readyAt < this.policy.stableMs;
    this.quickDeaths = quick ? this.quickDeaths + 1 : 1;
    if (this.quickDeaths >= this.policy.crashLoopCount) {
      this.setStatus('crash-loop', `${reason}\nIt died ${this.quickDeaths} times within ${this.policy.stableMs / 1000} s of starting, so it is left stopped. Fix the cause, then press Restart.`);
      return;
    }
    this.setStatus('error', reason);
    if (this.policy.autoRestart) this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = Math.min(this.policy.restartMaxDelayMs, this.policy.restartBaseDelayMs * 2 ** Math.max(0, this.quickDeaths - 1));
    this.nextRestartAt = Date.now() + delay;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.nextRestartAt = undefined;
      this.restarts++;
      void this.start();
    }, delay);
    this.restartTimer.unref?.();
    this.emit('changed');
  }

  private exitText(exit: ProcessExit | undefined): string {
    if (!exit) return `Server "${this.name}" closed the connection`;
    return exit.signal ? `Server "${this.name}" was ended by signal ${exit.signal}` : `Server "${this.name}" exited with code ${exit.code ?? 'unknown'}`;
  }

  private tailText(): string {
    const tail = this.stderr.tail(5).filter((l) => !l.startsWith('[switchboard]'));
    return tail.length ? ` Last stderr lines:\n${tail.join('\n')}` : '';
  }

  async callTool(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    const client = this.client;
    if (this.status !== 'ready' || !client) {
      throw new CoreError(
        'server-not-ready',
        `Server "${this.name}" is ${this.status}${this.error ? ` (${this.error.split('\n')[0]})` : ''}; it cannot run "${tool}" now.`,
      );
    }
    if (!this.tools.some((t) => t.name === tool)) {
      const names = this.tools.map((t) => t.name).join(', ');
      throw new CoreError('unknown-tool', `Server "${this.name}" has no tool "${tool}". Its tools: ${names || 'none'}.`);
    }
    const transport = this.transport;
    try {
      const result = await client.callTool(
        { name: tool, arguments: args },
        {
          timeout: this.server.entry.timeout ?? this.policy.requestTimeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: () => undefined,
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      return normalizeResult(result);
    } catch (error) {
      if (options.signal?.aborted) throw new CoreError('cancelled', `Cancelled ${this.name}/${tool}.`, { cause: error });
      if (transport instanceof ProcessTransport && transport.exit) {
        // Wait a moment for the exit to be recorded before explaining it.
        throw new CoreError('tool-call-failed', `Calling ${this.name}/${tool} failed: ${this.exitText(transport.exit)} during the call.${this.tailText()}`, { cause: error });
      }
      throw new CoreError('tool-call-failed', `Calling ${this.name}/${tool} failed: ${messageOf(error)}`, { cause: error });
    }
  }

  /** A manual restart: forgets crash history, closes the session (and the child's tree), starts again. */
  async restart(): Promise<void> {
    this.generation++;
    this.clearRestartTimer();
    this.quickDeaths = 0;
    this.restarts = 0;
    await this.closeSession();
    this.setStatus('stopped');
    await this.start();
  }

  /** Stops the server (session first, then its process tree) without disposing the connection. */
  async stop(): Promise<void> {
    this.generation++;
    this.clearRestartTimer();
    await this.closeSession();
    this.setStatus('stopped');
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.nextRestartAt = undefined;
  }

  private async closeSession(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    if (client) client.onclose = undefined;
    // A Streamable HTTP session is ended explicitly (DELETE with its Mcp-Session-Id), or the server keeps it
    // until it expires; bounded, so that an unreachable server cannot hold up a stop or quit.
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      await withDeadline(transport.terminateSession(), terminateSessionMs, () => 'session DELETE timed out').catch((error: unknown) => {
        this.deps.log?.write(`[switchboard] ending the HTTP session failed: ${messageOf(error)}`);
      });
    }
    if (client) await client.close().catch(() => undefined);
    // A transport whose client never connected is closed directly (that also ends a stdio child's tree).
    if (transport) await transport.close().catch(() => undefined);
  }

  /** Session first, then the transport (and with it the child's tree). Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    this.clearRestartTimer();
    await this.closeSession();
    this.status = 'stopped';
    this.deps.log?.dispose();
    this.removeAllListeners();
  }

  private noteStderr(line: string): void {
    this.stderr.push(line);
    this.deps.log?.write(line);
    this.emit('changed');
  }

  private setStatus(status: ServerStatus, error?: string): void {
    this.status = status;
    this.error = error;
    this.emit('changed');
  }

  private explain(error: unknown): string {
    if (error instanceof CoreError || error instanceof DeadlineError || error instanceof ReasonError) return error.message;
    // The era probe or the handshake ran out of the connect timeout (and beat the deadline timer to it).
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return this.timeoutReason(this.server.entry.timeout ?? this.policy.startTimeoutMs);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') {
      return `Cannot start "${this.server.entry.command ?? ''}": ${code === 'ENOENT' ? 'not found' : 'permission denied'} (${messageOf(error)}).`;
    }
    let message = messageOf(error);
    if (error instanceof SdkHttpError) message = `the server answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''} (${message})`;
    const causes = causeChain(error);
    const last = causes[causes.length - 1];
    if (last !== undefined && last !== error && !message.includes(messageOf(last))) message += ` (${messageOf(last)})`;
    const causeCode = causes.map((c) => (c as { code?: unknown }).code).find((c) => typeof c === 'string');
    if (causeCode === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) {
      return `nothing is listening at ${this.server.entry.url ?? 'the URL'} (connection refused). Is the server running?`;
    }
    if (causeCode === 'ENOTFOUND') return `cannot resolve the host of ${this.server.entry.url ?? 'the URL'} (DNS lookup failed)`;
    if (this.server.entry.command !== undefined) {
      const exit = this.lastExit ?? (this.transport instanceof ProcessTransport ? this.transport.exit : undefined);
      if (exit) return `${this.exitText(exit)} before it was ready (${message}).${this.tailText()}`;
      return `${message}.${this.tailText()}`;
    }
    return message;
  }
}

class DeadlineError extends Error {}
/** A failure whose message is already the whole explanation. */
class ReasonError extends Error {}
/** The stdio server exited while our `server/discover` probe was unanswered. */
class ExitedOnProbe extends Error {}

/** How long stop/restart/quit wait for a Streamable HTTP session's DELETE. */
const terminateSessionMs = 2000;

interface AuthChallenge {
  status: number;
  method: string;
  header?: string;
}

/** The auth-params of a WWW-Authenticate header (`Bearer realm="x", resource_metadata="…"`), names lower-cased. */
export function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    const name = match[1]?.toLowerCase();
    if (name === undefined || name in params) continue;
    params[name] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return params;
}

/** Rejects with `reason()` when `ms` pass first. */
async function withDeadline<T>(work: Promise<T>, ms: number, reason: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(reason())), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function toolInfo(tool: { name: string; title?: string; description?: string; inputSchema: unknown; annotations?: unknown }): ToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

/** The parts of a CallToolResult a person and a model use; transport `_meta` stays behind. */
function normalizeResult(result: unknown): ToolResult {
  const r = result as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  // 2024-11-05 servers may answer with the compatibility shape `{ toolResult }`.
  if (r.content === undefined && r.toolResult !== undefined) {
    return { content: [{ type: 'text', text: JSON.stringify(r.toolResult) }] };
  }
  return {
    content: Array.isArray(r.content) ? (r.content as ToolResult['content']) : [],
    ...(r.structuredContent !== undefined && typeof r.structuredContent === 'object' ? { structuredContent: r.structuredContent as Record<string, unknown> } : {}),
    ...(r.isError === true ? { isError: true } : {}),
  };
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [error];
  let current: unknown = error;
  while (chain.length < 8 && typeof current === 'object' && current !== null && 'cause' in current) {
    current = (current as { cause?: unknown }).cause;
    if (current === undefined) break;
    chain.push(current);
  }
  return chain;
}

function protocolOf(client: Client): { protocolVersion?: string; era?: 'modern' | 'legacy' } {
  const version = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  return { ...(version !== undefined ? { protocolVersion: version } : {}), ...(era !== undefined ? { era } : {}) };
}

function httpStatus(error: unknown): string {
  return error instanceof SdkHttpError ? `HTTP ${error.status}` : messageOf(error);
}

/** A 4xx from the initial POST: the server does not speak Streamable HTTP (legacy HTTP+SSE servers answer 404/405). */
function isClientHttpError(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status >= 400 && error.status < 500;
  const message = messageOf(error);
  return /\b(HTTP )?4\d\d\b/.test(message) && !/ECONNREFUSED/.test(message);
}
