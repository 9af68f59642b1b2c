import { EventEmitter } from 'node:events';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import {
  Client,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { transportOf, type ServerEntry, type TransportKind } from '../../src-shared/config-schema';
import type { ServerStatus, ServerView, ToolInfo, ToolResult } from '../../src-shared/host-api';
import { CoreError, messageOf } from './errors';
import type { ChildEnv } from './env';
import { LineRing } from './ring-buffer';

export const clientInfo = { name: 'switchboard', version: '0.1.0' };
const defaultStartTimeoutMs = 30_000;
const defaultProbeTimeoutMs = 10_000;

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
}

export interface ConnectionEvents {
  changed: [];
}

/**
 * One configured server: the SDK client, its transport, a status machine, and the stderr ring buffer.
 * UI-free; the Registry owns it and disposes it.
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

  constructor(readonly server: ResolvedServer) {
    super();
    const kind = transportOf(server.entry);
    this.transportKind = kind === 'auto-remote' ? 'http' : kind;
  }

  get name(): string {
    return this.server.name;
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
    this.setStatus('starting');
    try {
      if (this.server.problem !== undefined) throw new CoreError('config-invalid', this.server.problem);
      const timeout = this.server.entry.timeout ?? defaultStartTimeoutMs;
      if (this.server.entry.command !== undefined) await this.connectStdio(timeout);
      else await this.connectRemote(timeout);
      if (generation !== this.generation || this.disposed) return;
      const client = this.client;
      if (!client) throw new Error('no client after connect');
      const listed = await client.listTools(undefined, { timeout });
      this.tools = listed.tools.map((tool) => ({
        name: tool.name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
      }));
      this.setStatus('ready');
    } catch (error) {
      if (generation !== this.generation || this.disposed) return;
      const reason = this.explain(error);
      await this.closeSession();
      this.setStatus('error', reason);
    }
  }

  private newClient(): Client {
    const client = new Client(clientInfo, {
      capabilities: {},
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: defaultProbeTimeoutMs } },
    });
    client.onerror = (error) => this.noteStderr(`[switchboard] protocol error: ${messageOf(error)}`);
    client.onclose = () => this.onClosed();
    return client;
  }

  private async connectStdio(timeout: number): Promise<void> {
    const entry = this.server.entry;
    const command = entry.command ?? '';
    const env = this.server.childEnv?.env ?? {};
    await assertCommandExists(command, env.PATH, entry.cwd);
    const transport = new StdioClientTransport({
      command,
      args: entry.args ?? [],
      env,
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderr.write(chunk.toString('utf8'));
      this.emit('changed');
    });
    this.transport = transport;
    this.client = this.newClient();
    await this.client.connect(transport, { timeout });
  }

  private async connectRemote(timeout: number): Promise<void> {
    const entry = this.server.entry;
    const url = new URL(entry.url ?? '');
    const requestInit: RequestInit = { headers: this.server.headers ?? {} };
    const kind = transportOf(entry);
    if (kind !== 'sse') {
      this.transportKind = 'http';
      const transport = new StreamableHTTPClientTransport(url, { requestInit });
      this.transport = transport;
      this.client = this.newClient();
      try {
        await this.client.connect(transport, { timeout });
        return;
      } catch (error) {
        if (kind === 'http' || !isClientHttpError(error)) throw error;
        this.noteStderr(`[switchboard] Streamable HTTP answered ${httpStatus(error)}; falling back to legacy HTTP+SSE`);
        await this.closeSession();
      }
    }
    this.transportKind = 'sse';
    // requestInit headers go on the POSTs and on the SSE GET alike.
    const transport = new SSEClientTransport(url, { requestInit });
    this.transport = transport;
    this.client = this.newClient();
    await this.client.connect(transport, { timeout });
  }

  private onClosed(): void {
    if (this.disposed || this.status !== 'ready') return;
    const tail = this.stderr.tail(5).join('\n');
    this.tools = [];
    this.client = undefined;
    this.transport = undefined;
    this.setStatus('error', `The server closed the connection.${tail ? ` Last stderr lines:\n${tail}` : ''}`);
  }

  async callTool(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    const client = this.client;
    if (this.status !== 'ready' || !client) {
      throw new CoreError(
        'server-not-ready',
        `Server "${this.name}" is ${this.status}${this.error ? ` (${this.error})` : ''}; it cannot run "${tool}" now.`,
      );
    }
    if (!this.tools.some((t) => t.name === tool)) {
      const names = this.tools.map((t) => t.name).join(', ');
      throw new CoreError('unknown-tool', `Server "${this.name}" has no tool "${tool}". Its tools: ${names || 'none'}.`);
    }
    try {
      const result = await client.callTool(
        { name: tool, arguments: args },
        { timeout: this.server.entry.timeout ?? 60_000, resetTimeoutOnProgress: true, ...(options.signal ? { signal: options.signal } : {}) },
      );
      return normalizeResult(result);
    } catch (error) {
      throw new CoreError('tool-call-failed', `Calling ${this.name}/${tool} failed: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Closes the session (which ends the child), and starts again. */
  async restart(): Promise<void> {
    this.generation++;
    await this.closeSession();
    this.setStatus('stopped');
    await this.start();
  }

  private async closeSession(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    if (client) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
    }
    // A transport whose client never connected is closed directly (that also ends a stdio child).
    if (transport) await transport.close().catch(() => undefined);
  }

  /** Session first, then the transport (and with it the child). Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    await this.closeSession();
    this.status = 'stopped';
    this.removeAllListeners();
  }

  private noteStderr(line: string): void {
    this.stderr.push(line);
    this.emit('changed');
  }

  private setStatus(status: ServerStatus, error?: string): void {
    this.status = status;
    this.error = error;
    this.emit('changed');
  }

  private explain(error: unknown): string {
    if (error instanceof CoreError) return error.message;
    let message = messageOf(error);
    if (error instanceof SdkHttpError) message = `the server answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''} (${message})`;
    const causes = causeChain(error);
    const last = causes[causes.length - 1];
    if (last !== undefined && last !== error && !message.includes(messageOf(last))) message += ` (${messageOf(last)})`;
    const code = causes.map((c) => (c as { code?: unknown }).code).find((c) => typeof c === 'string');
    if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) message = `nothing is listening at ${this.server.entry.url ?? 'the URL'} (connection refused). Is the server running?`;
    else if (code === 'ENOTFOUND') message = `cannot resolve the host of ${this.server.entry.url ?? 'the URL'} (DNS lookup failed)`;
    const tail = this.stderr.tail(5).join('\n');
    return tail && this.server.entry.command !== undefined ? `${message}. Last stderr lines:\n${tail}` : message;
  }
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

/** Looks the command up the way spawn will (PATH of the child), so a missing one gets a readable reason. */
async function assertCommandExists(command: string, pathVar: string | undefined, cwd: string | undefined): Promise<void> {
  const hasSlash = command.includes('/') || command.includes('\\');
  const candidates: string[] = [];
  if (hasSlash || isAbsolute(command)) candidates.push(isAbsolute(command) ? command : join(cwd ?? process.cwd(), command));
  else {
    const exts = process.platform === 'win32' ? ['', '.exe', '.cmd', '.bat', '.com'] : [''];
    for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
      for (const ext of exts) candidates.push(join(dir, command + ext));
    }
  }
  for (const candidate of candidates) {
    try {
      await access(candidate, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return;
    } catch {
      // next
    }
  }
  if (hasSlash) {
    throw new CoreError('config-invalid', `Cannot start "${command}": no executable file at ${candidates[0]}. Check the "command" path in the config.`);
  }
  throw new CoreError(
    'config-invalid',
    `Cannot start "${command}": command not found in the PATH the server gets (${pathVar ?? 'PATH is empty'}). Install it, or put its absolute path in "command".`,
  );
}
