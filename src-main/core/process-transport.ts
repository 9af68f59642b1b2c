import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import spawn from 'cross-spawn';
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ContainmentInfo } from '../../src-shared/host-api';
import type { CgroupScope, Containment } from './containment';
import { groupMembers, isAlive, killProcesses, killTree, processStartTime, signalTree, until } from './process-tree';

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
}

const maxLineBytes = 64 * 1024 * 1024;

/**
 * stdio MCP transport that owns the server's whole process tree. Unlike the SDK's, it starts the server as the
 * leader of a new process group (POSIX) so that launchers' grandchildren (`npx`, `uvx`, shell wrappers) end with
 * it, tolerates non-JSON lines on stdout (reported, not fatal), and reports the exit code or signal.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private scope: CgroupScope | undefined;
  /** The server's kernel start time: session members are only ever ones that started after it. */
  private startTime: string | undefined;
  private buffer = '';
  private closed = false;
  private exitInfo: ProcessExit | undefined;
  private exited: Promise<void> = Promise.resolve();
  private draining: Promise<void> | undefined;
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
    const scope = process.platform === 'linux' && executable(this.options.command) ? this.options.containment?.scope(this.options.label ?? 'server') : undefined;
    this.scope = scope;
    const launch = scope ? scope.wrap(this.options.command, this.options.args) : { command: this.options.command, args: this.options.args };
    return new Promise((resolve, reject) => {
      const child = spawn(launch.command, launch.args, {
        env: this.options.env,
        ...(this.options.cwd !== undefined ? { cwd: this.options.cwd } : {}),
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
      child.stdout?.on('data', (chunk: string) => this.read(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.options.onStderr?.(chunk));
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    // One pass over the buffer, one slice at the end: a chunk holding many messages stays linear.
    let start = 0;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n', start)) !== -1) {
      const end = newline > start && this.buffer.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      this.line(this.buffer.slice(start, end));
      start = newline + 1;
    }
    this.buffer = start === 0 ? this.buffer : this.buffer.slice(start);
    if (this.buffer.length > maxLineBytes) {
      this.noise(`${this.buffer.slice(0, 200)}… (${this.buffer.length} bytes without a newline, dropped)`);
      this.buffer = '';
    }
  }

  private line(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      this.noise(line);
      return;
    }
    this.messages++;
    this.onmessage?.(message);
  }

  private noise(line: string): void {
    this.noiseLines++;
    this.firstNoise ??= line.slice(0, 500);
    this.options.onStdoutNoise?.(line);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return Promise.reject(new Error('the server process is not running'));
    if (stdin.write(serializeMessage(message))) return this.draining ?? Promise.resolve();
    // Backpressure: every sender waits for the same 'drain'.
    this.draining ??= new Promise<void>((resolve) => {
      stdin.once('drain', () => {
        this.draining = undefined;
        resolve();
      });
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
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    const grace = this.options.graceMs ?? 1000;
    if (child.exitCode === null && child.signalCode === null) {
      // A ref'd timer: this wait is teardown, and must keep the process alive until the tree is ended.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
    }
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

/** An absolute path we may execute (resolveCommand makes commands absolute before they get here). */
function executable(command: string): boolean {
  try {
    accessSync(command, constants.X_OK);
    return isAbsolute(command) && statSync(command).isFile();
  } catch {
    return false;
  }
}
