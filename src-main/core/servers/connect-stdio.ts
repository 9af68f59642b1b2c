import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { homedir } from 'node:os';
import type { ContainmentInfo, LaunchInfo } from '../../../src-shared/host-api';
import type { ResolvedServer } from '../config/resolve';
import { messageOf } from '../errors';
import type { ChildLedger } from '../process/ledger';
import { resolveCommand } from '../process/resolve-command';
import { deniedHint, planSandbox, type SandboxPlan } from '../process/sandbox/index';
import type { ProcessExit, ProcessTransport } from '../process/transport';
import type { AttemptSlot } from './attempt';
import { DeadlineError, ExitedOnProbe, oversizedText, ReasonError } from './diagnosis';
import { pinnedRevision } from '../../../src-shared/schemas/config';
import { EraCache, priorOf, pushStyleOf, type EraVerdict } from './era-cache';
import { failedOnItsOwn } from './own-failure';
import type { SupervisionPolicy } from './policy';
import { createTransport, type OpenedTransport, type TransportDecorator } from './transports';

/** What the stdio path reports to its session's supervisor. */
export interface StdioHooks {
  /** A `[switchboard] …` line (stderr tail and log). */
  note(line: string): void;
  /** A chunk the child wrote to stderr. */
  stderr(text: string): void;
  /** The child's stderr ended: its unfinished last line, if any, is complete. */
  stderrEnded(): void;
  launch(info: LaunchInfo): void;
  spawned(pid: number, containment: ContainmentInfo): void;
  /**
   * A child of this session ended (during connect too). `current`: it was the session's live transport's (not an
   * attempt already given up); the supervisor acts only on a ready session's.
   */
  exited(exit: ProcessExit, current: boolean): void;
}

export interface StdioConnectOptions {
  server: ResolvedServer;
  policy: SupervisionPolicy;
  hooks: StdioHooks;
  eraCache?: EraCache | undefined;
  /**
   * The server fell back to the `initialize` era because it sent this request to the host push-style (see
   * era-fallback.ts): connect on that era, whatever is cached.
   */
  pushStyle?: string | undefined;
  ledger?: ChildLedger | undefined;
  decorate?: TransportDecorator | undefined;
}

/**
 * A stdio server's connect: the command resolved and shown as launched, the sandbox planned (a server that asks for
 * one is never run without), the child started over our ProcessTransport, and the era probe with its fallbacks — a
 * stale cached verdict is forgotten and probed afresh; a legacy server that exits on the in-place `server/discover`
 * probe is started once more, pinned to the legacy handshake. The verdict is cached per command line. An entry's
 * `protocolVersion` pin bypasses all of that: the pinned revision or a failed connect.
 */
export class StdioConnect {
  /** The child's exit, once it ended (for explanations). */
  lastExit: ProcessExit | undefined;
  /** The push-style request that keeps this server on the `initialize` era (given, or remembered in the cache). */
  pushStyle: string | undefined;
  /** The sandbox of this start, and the denied-access hints already given. */
  private sandbox: SandboxPlan | undefined;
  private readonly hints = new Set<string>();

  constructor(
    private readonly options: StdioConnectOptions,
    private readonly slot: AttemptSlot,
  ) {}

  private get name(): string {
    return this.options.server.name;
  }

  async connect(timeout: number, abandoned: AbortSignal): Promise<void> {
    const { entry, childEnv } = this.options.server;
    const env = childEnv?.env ?? {};
    const args = entry.args ?? [];
    const cwd = entry.cwd ?? process.cwd();
    const launchEnv = Object.entries(childEnv?.sources ?? {}).map(([name, source]) => ({ name, source }));
    // Shown even when the command cannot be found, so a person sees what was tried.
    this.options.hooks.launch({ command: entry.command ?? '', args, cwd, env: launchEnv });
    const command = resolveCommand(entry.command ?? '', env.PATH, this.options.server.commandBase ?? cwd);
    const request = this.options.server.sandbox;
    // A sandboxed server without a cwd of its own runs in an empty private folder, never in the host's.
    const sandbox = request
      ? planSandbox(request, {
          command,
          args,
          ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
          home: env.HOME ?? homedir(),
          baseDir: cwd,
          path: env.PATH,
          runtimeDir: env.XDG_RUNTIME_DIR,
        })
      : undefined;
    this.options.hooks.launch({ command, args, cwd: sandbox?.cwd ?? cwd, env: launchEnv, ...(sandbox ? { sandbox: sandbox.info } : {}) });
    if (sandbox && !sandbox.wrap) {
      const where = entry.sandbox !== undefined ? `mcpServers.${this.name}.sandbox` : 'the settings default "sandbox"';
      const detail = sandbox.info.reason ?? 'none is available here';
      const cause = sandbox.info.reasonInfo !== undefined ? { cause: { text: detail, ...sandbox.info.reasonInfo } } : {};
      throw new ReasonError(
        `Not started: ${where} asks for a sandbox, but ${detail}. It is never run unsandboxed instead: install one, or set "sandbox": false on this server to run it without.`,
        {
          reason: { code: 'sandbox-unavailable', data: { server: this.name, reason: entry.sandbox !== undefined ? 'entry' : 'settings', detail }, ...cause },
        },
      );
    }
    this.sandbox = sandbox;
    const { eraCache, policy } = this.options;
    const key = EraCache.key(command, args, cwd);
    // A pinned revision is not negotiated: no cached verdict, no fallback, no retry.
    if (pinnedRevision(entry.protocolVersion) !== undefined) {
      await this.connectProcess(command, args, env, cwd, timeout, abandoned, undefined);
      return;
    }
    const negotiated = policy.versionMode === 'auto';
    const cached = negotiated ? eraCache?.get(key) : undefined;
    this.pushStyle = this.options.pushStyle ?? pushStyleOf(cached);
    const prior: EraVerdict | undefined = negotiated && this.pushStyle !== undefined ? { kind: 'legacy', pushStyle: this.pushStyle } : cached;
    // A stale verdict: once more with it forgotten (probing). A legacy server that exits on the in-place
    // `server/discover` probe (seen from the transport: the process ended while the probe was unanswered): once
    // more, pinned to the legacy handshake.
    let attempt = priorOf(prior);
    for (let retry = 0; ; retry++) {
      try {
        await this.connectProcess(command, args, env, cwd, timeout, abandoned, attempt);
        break;
      } catch (error) {
        if (this.slot.isClosing() || abandoned.aborted) throw error;
        const exitedOnProbe = error instanceof ExitedOnProbe;
        const staleVerdict = retry === 0 && prior !== undefined;
        if (!exitedOnProbe && !staleVerdict) throw error;
        eraCache?.delete(key);
        await this.slot.closeCurrent();
        if (abandoned.aborted) throw error;
        this.lastExit = undefined;
        this.options.hooks.note(
          exitedOnProbe
            ? '[switchboard] the server exited while the server/discover probe was unanswered (some legacy servers quit on it); starting it again with the legacy handshake'
            : `[switchboard] retrying without the cached protocol verdict (${messageOf(error)})`,
        );
        attempt = exitedOnProbe ? { kind: 'legacy' } : undefined;
        // Probing afresh: whichever era the server now answers in is the one kept.
        if (!exitedOnProbe) this.pushStyle = undefined;
      }
    }
    const client = this.slot.currentClient();
    if (client && eraCache && negotiated) {
      const discover = client.getDiscoverResult();
      const pushStyle = this.pushStyle;
      eraCache.set(
        key,
        client.getProtocolEra() === 'modern' && discover
          ? { kind: 'modern', discover }
          : pushStyle !== undefined
            ? { kind: 'legacy', pushStyle }
            : { kind: 'legacy' },
      );
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
    if (abandoned.aborted || this.slot.isClosing()) throw new DeadlineError('abandoned');
    const { hooks, ledger, policy } = this.options;
    let exitedOnProbe = false;
    // What this process wrote to stderr (its start), read when it exits during the probe.
    let stderr = '';
    let raw: ProcessTransport | undefined;
    let pid: number | undefined;
    const opened: OpenedTransport = createTransport(
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
            if (stderr.length < 16_384) stderr += text;
            hooks.stderr(text);
            this.hintDenied(text);
          },
          onStderrEnd: () => hooks.stderrEnded(),
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
            hooks.exited(exit, this.slot.holds(opened));
          },
        },
      },
      { server: this.name, decorate: this.options.decorate },
    );
    if (opened.kind === 'stdio') raw = opened.raw;
    const client = this.slot.newClient(timeout);
    this.slot.hold(opened, client);
    try {
      await client.connect(opened.transport, { timeout, ...(prior ? { prior } : {}) });
    } catch (error) {
      // Read here, not at the exit: the connect fails once the child's pipes closed, so its last stderr is in.
      if (exitedOnProbe && !failedOnItsOwn(stderr)) throw new ExitedOnProbe(messageOf(error), { cause: error });
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
}
