import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import spawn from 'cross-spawn';
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ContainmentInfo } from '../../../src-shared/host-api';
import type { CgroupScope, Containment } from './containment';
import { isAlive } from '../support/alive';
import { LineReader } from './line-reader';
import { groupMembers, killProcesses, killTree, processStartTime, signalTree, until } from './tree';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ProcessTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Each chunk the server writes to stderr. */
  onStderr?: (text: string) => void;
  /** The child's stderr ended (after its last chunk): an unfinished last line is complete now. */
  onStderrEnd?: () => void;
  /** A stdout line that is not JSON-RPC (a banner, a debug print): surfaced, then skipped. */
  onStdoutNoise?: (line: string) => void;
  /** The child started (pid known) / ended (with its code or signal). */
  onSpawn?: (pid: number) => void;
  onExit?: (exit: ProcessExit) => void;
  /** How long close() waits after ending stdin before signalling the tree. */
  graceMs?: number;
  /** Where the server's tree is held (a cgroup per start where one can be had); without it, its process group. */
  containment?: Containment;
  /** Names the server's cgroup. */
  label?: string;
  /** The largest stdout line (one JSON-RPC message) accepted, in UTF-8 bytes; default {@link defaultMaxMessageBytes}. */
  maxMessageBytes?: number;
  /** A stdout line grew past `maxMessageBytes` without a newline: it is dropped as it streams, up to its newline. */
  onOversizedLine?: (info: OversizedLine) => void;
  /** Runs the server in a sandbox (process/sandbox/index.ts): the argv (and extra env) that start it inside one. Inside the cgroup wrapper. */
  sandbox?: (command: string, args: readonly string[]) => { command: string; args: string[]; env?: Record<string, string>; cwd?: string };
}

export interface OversizedLine {
  /** The limit it exceeded. */
  limit: number;
  /** The line's first characters (for the log). */
  head: string;
  /** The JSON-RPC id, when the line's head shows it was a response (that request is failed at once). */
  id?: string | number;
}

/** 16 MiB: far above any sane message, small enough that one runaway line cannot take the host's memory. */
export const defaultMaxMessageBytes = 16 * 1024 * 1024;

/**
 * stdio MCP transport that owns the server's whole process tree. Unlike the SDK's, it starts the server as the
 * leader of a new process group (POSIX) so that launchers' grandchildren (`npx`, `uvx`, shell wrappers) end with
 * it, tolerates non-JSON lines on stdout (reported, not fatal), and reports the exit code or signal. Its stdout is
 * split into lines by ./line-reader.ts.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private scope: CgroupScope | undefined;
  /** The server's kernel start time: session members are only ever ones that started after it. */
  private startTime: string | undefined;
  /** The id of our `server/discover` probe while it is unanswered. */
  private probeId: string | number | undefined;
  private closed = false;
  /** close() has begun: stdin is ending, and what the server asks from now on cannot be answered. */
  private closing = false;
  /** Ids of the server's own requests to us (roots/list, sampling…) not answered yet. */
  private readonly asked = new Set<string | number>();
  /** Told when the server asks something once close() has begun (it then waits on an answer that cannot come). */
  private askedWhileClosing: (() => void) | undefined;
  private exitInfo: ProcessExit | undefined;
  private exited: Promise<void> = Promise.resolve();
  private draining: Promise<void> | undefined;
  /** stdin is corked until the end of this turn (see send()). */
  private corked = false;
  /** Counts for diagnosis: a server that wrote only noise fails with that reason. */
  messages = 0;
  noiseLines = 0;
  firstNoise: string | undefined;

  constructor(private readonly options: ProcessTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** The cgroup of this start, when the server runs in one. */
  get cgroup(): string | undefined {
    return this.scope?.path;
  }

  /** How this start's tree is contained (for doctor). */
  get containment(): ContainmentInfo {
    if (this.scope) return { kind: 'cgroup', path: this.scope.path };
    const info = this.options.containment?.describe();
    if (info && info.kind !== 'cgroup') return info;
    if (process.platform === 'win32') return { kind: 'taskkill', reason: 'Windows: the tree is ended with taskkill /T' };
    return { kind: 'process-group', reason: info ? 'could not create a cgroup for this start' : 'no containment configured' };
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    // A cgroup only for a command that can be executed: otherwise spawn's own ENOENT/EACCES says what is wrong.
    const scope =
      process.platform === 'linux' && isAbsoluteExecutableFile(this.options.command)
        ? this.options.containment?.scope(this.options.label ?? 'server')
        : undefined;
    this.scope = scope;
    // cgroup shell → sandbox → server: the cgroup holds the sandbox's whole tree, and the process group is the sandbox's.
    const inner = this.options.sandbox
      ? this.options.sandbox(this.options.command, this.options.args)
      : { command: this.options.command, args: this.options.args };
    const env = 'env' in inner && inner.env ? { ...this.options.env, ...inner.env } : this.options.env;
    const cwd = 'cwd' in inner && inner.cwd !== undefined ? inner.cwd : this.options.cwd;
    const launch = scope ? scope.wrap(inner.command, inner.args, env) : inner;
    return new Promise((resolve, reject) => {
      const child = spawn(launch.command, launch.args, {
        env,
        ...(cwd !== undefined ? { cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('exit', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.finish();
        this.releaseScope();
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          this.startTime = processStartTime(child.pid);
          this.options.onSpawn?.(child.pid);
        }
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.options.onExit?.(this.exitInfo);
      });
      child.once('close', () => this.finish());
      child.stdout?.setEncoding('utf8');
      const reader = new LineReader({
        maxBytes: this.maxMessageBytes,
        ...(child.stdout ? { stream: child.stdout } : {}),
        closed: () => this.closed,
        line: (text) => this.line(text),
        oversized: (head) => this.oversized(head),
      });
      child.stdout?.on('data', (chunk: string) => reader.push(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.options.onStderr?.(chunk));
      child.stderr?.once('end', () => this.options.onStderrEnd?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  private get maxMessageBytes(): number {
    return this.options.maxMessageBytes ?? defaultMaxMessageBytes;
  }

  /** A stdout line too large to keep (its head): noise, or, when it was a response, that request's failure. */
  private oversized(head: string): void {
    const id = responseIdOf(head);
    this.noiseLines++;
    this.firstNoise ??= `${head}… (over ${this.maxMessageBytes} bytes without a newline)`;
    this.options.onOversizedLine?.({ limit: this.maxMessageBytes, head, ...(id !== undefined ? { id } : {}) });
    if (id === undefined) return;
    // The line was the reply to one of our requests: fail that request now rather than at its timeout.
    if (id === this.probeId) this.probeId = undefined;
    this.messages++;
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: -32603, message: `The server's reply was larger than the ${formatBytes(this.maxMessageBytes)} per-message limit and was discarded.` },
    });
  }

  private line(line: string): void {
    // Only a line that starts like JSON is parsed: a long banner or dump is not handed to JSON.parse.
    const first = firstNonSpace(line);
    if (first === -1) return;
    let message: JSONRPCMessage;
    try {
      if (first !== 123 && first !== 91) throw new Error('not JSON'); // '{' or '['
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      this.noise(line);
      return;
    }
    if (this.probeId !== undefined && 'id' in message && message.id === this.probeId && !('method' in message)) this.probeId = undefined;
    if ('method' in message && 'id' in message) {
      this.asked.add(message.id);
      if (this.closing) this.askedWhileClosing?.();
    }
    this.messages++;
    this.onmessage?.(message);
  }

  private noise(line: string): void {
    this.noiseLines++;
    this.firstNoise ??= line.slice(0, 500);
    this.options.onStdoutNoise?.(line);
  }

  /**
   * Our `server/discover` probe is unanswered and we have not begun to close the server: read when the server
   * exits, it tells a legacy server that quits on the unknown method from our own close (or a probe timeout).
   */
  get probeUnansweredWhileOpen(): boolean {
    return this.probeId !== undefined && this.child?.stdin?.writableEnded !== true;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    const answered = !('method' in message) && 'id' in message ? message.id : undefined;
    if (answered !== undefined) this.asked.delete(answered);
    // An answer that comes after close() began was already given (close answers what is asked) or cannot be.
    if (answered !== undefined && this.closing) return Promise.resolve();
    if (!stdin || this.closed || !stdin.writable) return Promise.reject(new Error('the server process is not running'));
    if ('method' in message && message.method === 'server/discover' && 'id' in message) this.probeId = message.id;
    // One write queue: the messages sent in one turn of the event loop go out as one write (stdin is corked until
    // the turn's microtasks are done), and while the pipe is full every sender waits on the same single 'drain'
    // (never one listener per blocked write, which is what Node warns about at 11).
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    if (stdin.write(serializeMessage(message)) && !this.draining) return Promise.resolve();
    this.draining ??= new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.draining = undefined;
        resolve();
      };
      stdin.on('drain', done);
      // A pipe that closes while full never drains: its senders are released (the close fails their requests).
      stdin.on('close', done);
    });
    return this.draining;
  }

  /** Ends stdin, waits a grace period, then ends the whole tree (TERM, then KILL). Idempotent. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) {
      this.finish();
      return;
    }
    const pid = child.pid;
    const grace = this.options.graceMs ?? 1000;
    // The grace is for a server finishing its own work, not for one waiting on us: what it asked and we have not
    // answered is answered now (an error: we are closing), and once stdin ends, a server that asks anything more
    // waits for an answer that cannot come, so it is ended then rather than at the end of the grace.
    const waitingOnUs = new Promise<void>((resolve) => (this.askedWhileClosing = resolve));
    this.closing = true;
    try {
      if (child.stdin?.writable === true)
        for (const id of this.asked)
          child.stdin.write(serializeMessage({ jsonrpc: '2.0', id, error: { code: -32000, message: 'The client closed the session' } }));
      this.asked.clear();
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (child.exitCode === null && child.signalCode === null) {
      // A ref'd timer: this wait is teardown, and must keep the process alive until the tree is ended.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, waitingOnUs, new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
    }
    this.askedWhileClosing = undefined;
    const scope = this.scope;
    if (scope) {
      // Everything in the cgroup, wherever it moved (setsid, setpgid, double fork): TERM, grace, then cgroup.kill.
      if (pid !== undefined) signalTree(pid, 'SIGTERM');
      scope.terminate();
      await until(() => !scope.populated(), grace);
      await scope.kill();
    }
    // Even when the leader has exited, members of its group (grandchildren) may remain. (An emptied cgroup held them
    // all: what is left of the group then is zombies, for their new parent to reap.)
    if (pid !== undefined && !(scope && !scope.populated())) await killTree(pid, grace);
    // Without a cgroup, a helper that only left the process group (setpgid) is still in the server's session (Linux).
    if (pid !== undefined && !scope && this.startTime !== undefined) await killProcesses(groupMembers(pid, this.startTime), grace);
    if (pid !== undefined && process.platform !== 'win32' && isAlive(pid)) await this.exited;
    this.releaseScope();
    this.finish();
  }

  private releaseScope(): void {
    const scope = this.scope;
    if (!scope) return;
    // Removable once empty; a crash of ours in between leaves it to the next start's reaper.
    if (!scope.populated()) this.options.containment?.release(scope);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.onclose?.();
  }
}

function firstNonSpace(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return c;
  }
  return -1;
}

const responseHead = [
  /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,\s*"(?:result|error)"\s*:/,
  /^\s*\{\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"(?:result|error)"\s*:/,
];

/** The id of a JSON-RPC response, read from the head of a line too large to parse; undefined if it is not one. */
function responseIdOf(head: string): string | number | undefined {
  for (const pattern of responseHead) {
    const raw = pattern.exec(head)?.[1];
    if (raw === undefined) continue;
    try {
      const id: unknown = JSON.parse(raw);
      if (typeof id === 'number' || typeof id === 'string') return id;
    } catch {
      // not a usable id
    }
  }
  return undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** An absolute path we may execute (resolveCommand makes commands absolute before they get here). */
function isAbsoluteExecutableFile(command: string): boolean {
  try {
    accessSync(command, constants.X_OK);
    return isAbsolute(command) && statSync(command).isFile();
  } catch {
    return false;
  }
}
