import type { Client, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ToolIcon, ToolInfo, ToolResult } from '../../../../src-shared/host-api';
import { loadAppResource, type LoadedApp } from '../../apps/ui-resource';
import { isAppOnly, toolResourceUri } from '../../../../src-shared/tool-ui';
import { CoreError } from '../../errors';
import { currentInstructions, isTrusted, reviewMessage, reviewTools, trustTools } from '../../trust/pins';
import type { ConnectedInfo } from './feature';
import { ListFeature, type CacheHints } from './list-feature';
import { deliverProgressFirst } from './progress-order';

/** The server's tools: listed as part of every start (a failure fails it), re-listed on `tools/list_changed`. */
/** The longest wait for one UI resource read while the tools are listed. */
const appReadTimeoutMs = 10_000;

export class ToolsFeature extends ListFeature<ToolInfo> {
  readonly name = 'tools' as const;
  override readonly blocking = true;
  protected readonly changedMethod = 'notifications/tools/list_changed' as const;
  protected readonly listenKey = 'toolsListChanged' as const;
  /** Late progress notifications dropped (see attach). */
  lateProgress = 0;

  /** Listed whatever the server advertises (servers that forget `tools: {}` still get their tools shown). */
  protected offered(): boolean {
    return true;
  }

  protected announcesChanges(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.tools?.listChanged === true;
  }

  protected async fetch(client: Client, timeoutMs: number, hints: CacheHints): Promise<ToolInfo[]> {
    const rediscover = this.rediscover;
    this.rediscover = false;
    const [listed] = await Promise.all([
      client.listTools(undefined, { timeout: timeoutMs, cacheMode: 'refresh' }),
      // A failure keeps the adopted result (the listing is what matters here).
      rediscover ? client.discover({ timeout: timeoutMs }).catch(() => undefined) : undefined,
    ]);
    hints.note(listed);
    // In the server's order, as listed (nothing on the way to the app or the CLI sorts them).
    const tools = await this.withApps(client, listed.tools.map(toolInfo), timeoutMs);
    // Each tool's review state against its pinned definition (a server's first listing pins them).
    const pins = this.context.pins;
    return pins ? reviewTools(pins, this.context.server, tools, currentInstructions(client)) : tools;
  }

  /**
   * MCP Apps: each UI resource a listed tool names, read once per URI and kept until the server says its resources
   * changed (`appsChanged`) or the session ends. A read that fails or does not validate makes the tool's app
   * `invalid` (with the reason); it never fails the listing.
   */
  private readonly appCache = new Map<string, Promise<LoadedApp>>();

  private async withApps(client: Client, tools: ToolInfo[], timeoutMs: number): Promise<ToolInfo[]> {
    if (!tools.some((t) => toolResourceUri(t) !== undefined)) return tools;
    // Bounded apart from the server's request timeout: a UI resource that does not answer delays the listing (and the
    // server's readiness) by at most this, then shows as invalid with the reason.
    const read = (uri: string): Promise<unknown> => client.readResource({ uri }, { timeout: Math.min(timeoutMs, appReadTimeoutMs) });
    return Promise.all(
      tools.map(async (tool) => {
        const uri = toolResourceUri(tool);
        if (uri === undefined) return tool;
        let loading = this.appCache.get(uri);
        if (!loading) {
          loading = loadAppResource(read, uri, `${this.context.server}/${tool.name}`);
          this.appCache.set(uri, loading);
        }
        const loaded = await loading;
        return { ...tool, app: loaded.app };
      }),
    );
  }

  /** The validated HTML of a UI resource as last read (undefined when it was not read or is invalid). */
  async appHtml(uri: string): Promise<string | undefined> {
    return (await this.appCache.get(uri))?.html;
  }

  /** The server's resources changed (list, or one updated): apps are read again with the tools, if any tool has one. */
  appsChanged(uri?: string): void {
    if (uri !== undefined && !this.appCache.has(uri)) return;
    if (uri === undefined && this.appCache.size === 0) return;
    if (uri !== undefined) this.appCache.delete(uri);
    else this.appCache.clear();
    this.scheduleRefresh();
  }

  override disconnected(): void {
    this.appCache.clear();
    super.disconnected();
  }

  /** Judges the listed tools against the pins file again (it may have changed since the listing); answers `tool` as it is now. */
  private recheck(tool: string): ToolInfo | undefined {
    const pins = this.context.pins;
    const client = this.context.client();
    if (!pins || !client) return undefined;
    const items = reviewTools(pins, this.context.server, this.items, currentInstructions(client));
    if (items.some((t, i) => t.review?.state !== this.items[i]?.review?.state)) this.replaceItems(items);
    return items.find((t) => t.name === tool);
  }

  /**
   * Accepts the current definitions of the tools named (all that need review when none are), and the server's
   * current instructions: they are pinned, become trusted, and the list is announced again. Answers the names.
   */
  trust(names?: readonly string[]): string[] {
    const pins = this.context.pins;
    const client = this.context.client();
    if (!client || !this.known)
      throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; start it to see and trust its current tools.`, {
        data: { server: this.context.server },
      });
    const unknown = (names ?? []).filter((name) => !this.items.some((t) => t.name === name));
    if (unknown.length > 0) {
      const listed = this.items.map((t) => t.name).join(', ');
      throw new CoreError(
        'unknown-tool',
        `Server "${this.context.server}" has no tool ${unknown.map((n) => `"${n}"`).join(', ')}. Its tools: ${listed || 'none'}.`,
        { data: { server: this.context.server, tools: unknown } },
      );
    }
    if (!pins) return [];
    const instructions = currentInstructions(client);
    let trusted: string[];
    try {
      trusted = trustTools(pins, this.context.server, this.items, instructions, names);
    } catch (error) {
      throw new CoreError(
        'internal',
        `Could not save the accepted tool definitions to ${pins.file ?? 'memory'}: ${error instanceof Error ? error.message : String(error)}. Check that the data folder is writable.`,
        { cause: error, data: { server: this.context.server } },
      );
    }
    this.replaceItems(reviewTools(pins, this.context.server, this.items, instructions));
    return trusted;
  }

  /**
   * Also drops, quietly, the SDK's report of a `notifications/progress` whose call already ended (cancelled or
   * timed out): late progress is normal, and as a "protocol error" it would push the server's real stderr out of
   * the tail. The notification itself is still in the protocol trace. Runs after the session set `onerror`.
   */
  override attach(client: Client): void {
    super.attach(client);
    const report = client.onerror;
    client.onerror = (error) => {
      if (isLateProgress(error)) {
        this.lateProgress++;
        return;
      }
      report?.(error);
    };
  }

  /** After connect: the server's last progress of a call is delivered before its result (see progress-order.ts). */
  override async connected(info: ConnectedInfo): Promise<void> {
    deliverProgressFirst(info.client);
    // A warm 2026-07-28 start adopts the era cache's server/discover result, instructions included: with pins, the
    // connect-time listing asks the server again (alongside tools/list), so that changed instructions are seen.
    this.rediscover = info.era === 'modern' && this.context.pins !== undefined;
    await super.connected(info);
  }

  private rediscover = false;

  /** The listed tool, whatever its review state (a re-list pending settled first), or `unknown-tool`. */
  async resolveListed(tool: string): Promise<ToolInfo> {
    if (!this.context.client())
      throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; start it to see its tools.`, {
        data: { server: this.context.server, tool },
      });
    await this.settle();
    const info = this.find(tool);
    if (info) return info;
    const names = this.items.map((t) => t.name).join(', ');
    throw new CoreError('unknown-tool', `Server "${this.context.server}" has no tool "${tool}". Its tools: ${names || 'none'}.`, {
      data: { server: this.context.server, tool },
    });
  }

  /**
   * The listed tool (one added by a `list_changed` moments ago included), or `unknown-tool`. `fromApp`: asked by the
   * tool's own app, so a tool only for its app is not refused (every other check is the same).
   */
  async resolve(tool: string, fromApp = false): Promise<ToolInfo> {
    if (!this.context.client())
      throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; it cannot run "${tool}" now.`, {
        data: { server: this.context.server, tool },
      });
    // A call is a use of the list: past its ttl (2026-07-28) it is listed again first.
    await this.freshen();
    let info = this.find(tool);
    if (!info) {
      await this.settle();
      info = this.find(tool);
    }
    if (!info) {
      const names = this.items.map((t) => t.name).join(', ');
      throw new CoreError('unknown-tool', `Server "${this.context.server}" has no tool "${tool}". Its tools: ${names || 'none'}.`, {
        data: { server: this.context.server, tool },
      });
    }
    // Accepted meanwhile by another host on the same data folder (`switchboard trust` while the app runs)?
    if (!isTrusted(info)) info = this.recheck(tool) ?? info;
    // Changed, new or hiding text since it was trusted: refused, saying what changed, until a person accepts it.
    if (!isTrusted(info)) {
      const review = info.review;
      throw new CoreError('needs-review', reviewMessage(this.context.server, info, currentInstructions(this.context.client())), {
        data: {
          server: this.context.server,
          tool,
          state: review?.state ?? 'new',
          // Picks the wording (errors.needs-review.changed | new | flagged) in another language.
          reason: review?.state ?? 'new',
          ...(review?.changed ? { changed: review.changed } : {}),
          ...(review?.pinned ? { pinned: review.pinned } : {}),
          ...(review?.hidden ? { hidden: review.hidden } : {}),
        },
      });
    }
    // MCP Apps: a tool whose visibility leaves out "model" is its app's alone (the spec keeps it from the agent; a
    // person's direct call is refused the same way, so that no path reaches it but its own app's).
    if (isAppOnly(info) && !fromApp)
      throw new CoreError(
        'not-supported',
        `${this.context.server}/${tool} is only for its app (its _meta.ui.visibility leaves out "model"): the server's app calls it, not the model or a person. Call the server's other tools instead.`,
        { data: { server: this.context.server, tool, reason: 'app-only' } },
      );
    return info;
  }

  /**
   * Calls a tool (not as a task) and answers the raw CallToolResult. With a `callId`, each `notifications/progress`
   * becomes a `calls:progress` event (and resets the timeout). The SDK's own outputSchema check is left out (the
   * definition given to callTool has none), so that a mismatch is shown with the result, not thrown. SDK errors
   * are rethrown as they are.
   */
  call(info: ToolInfo, args: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs: number; callId?: string }): Promise<Record<string, unknown>> {
    const client = this.context.client();
    if (!client)
      return Promise.reject(
        new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; it cannot run "${info.name}" now.`, {
          data: { server: this.context.server, tool: info.name },
        }),
      );
    const { callId } = options;
    const requestOptions: CallOptions = {
      timeout: options.timeoutMs,
      // Progress always resets the timeout (the SDK sends a progress token only with an `onprogress`); without a
      // callId nobody follows it, so the handler is a shared no-op rather than a closure per call.
      resetTimeoutOnProgress: true,
      onprogress: callId === undefined ? ignoreProgress : (p: Progress) => this.progress(callId, info.name, p),
      toolDefinition: definitionOf(info),
    };
    if (options.signal) requestOptions.signal = options.signal;
    // The SDK's promise as it is (no async frame of ours around it).
    return client.callTool({ name: info.name, arguments: args }, requestOptions) as Promise<Record<string, unknown>>;
  }

  private progress(callId: string, tool: string, p: Progress): void {
    this.context.emit('calls:progress', {
      callId,
      server: this.context.server,
      tool,
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(p.message !== undefined ? { message: p.message } : {}),
    });
  }

  /**
   * The listed tool named `tool`, found without waiting when it is listed and trusted (the common case: no async
   * step of its own); undefined otherwise — resolve() then says why, after a pending re-list settled.
   */
  listed(tool: string, fromApp = false): ToolInfo | undefined {
    // A list past its ttl: the long way, which lists the tools again first.
    if (!this.context.client() || this.stale) return undefined;
    const info = this.find(tool);
    return info !== undefined && isTrusted(info) && (fromApp || !isAppOnly(info)) ? info : undefined;
  }

  /** The listed tools by name (the first of a name, as a listing is read), made once per list. */
  private index: { items: readonly ToolInfo[]; byName: Map<string, ToolInfo> } | undefined;

  private find(tool: string): ToolInfo | undefined {
    const items = this.items;
    let index = this.index;
    if (index?.items !== items) {
      const byName = new Map<string, ToolInfo>();
      for (const t of items) if (!byName.has(t.name)) byName.set(t.name, t);
      index = { items, byName };
      this.index = index;
    }
    return index.byName.get(tool);
  }
}

type Progress = { progress: number; total?: number; message?: string };
type CallOptions = NonNullable<Parameters<Client['callTool']>[1]>;
const ignoreProgress = (): void => undefined;

/**
 * The definition given to the SDK's callTool, made once per listed tool (a re-list makes new ToolInfo objects):
 * without outputSchema, so the SDK does not validate (a mismatch is shown with the result instead). The input
 * schema is there for the 2026-07-28 x-mcp-header mirroring, which the SDK scans it for on every call (a walk that
 * allocates per property): a schema that declares no `x-mcp-header` anywhere is given as a bare object schema,
 * which scans to the same "no headers" at once.
 */
const definitions = new WeakMap<ToolInfo, Tool>();
const bareInputSchema: Tool['inputSchema'] = Object.freeze({ type: 'object' as const });
export function definitionOf(info: ToolInfo): Tool {
  let definition = definitions.get(info);
  if (!definition) {
    definition = { name: info.name, inputSchema: declaresHeaders(info.inputSchema) ? (info.inputSchema as Tool['inputSchema']) : bareInputSchema };
    definitions.set(info, definition);
  }
  return definition;
}

/** Whether an `x-mcp-header` key occurs anywhere in the schema (where the SDK would look, and anywhere else). */
function declaresHeaders(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null || depth > 64) return depth > 64;
  if (Array.isArray(schema)) return schema.some((item) => declaresHeaders(item, depth + 1));
  for (const key in schema) {
    if (key === 'x-mcp-header') return true;
    if (declaresHeaders((schema as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/** The SDK's report of a progress notification for a request it no longer tracks. */
export function isLateProgress(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Received a progress notification for an unknown token');
}

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  icons?: ReadonlyArray<{ src: string; mimeType?: string; sizes?: string[] }>;
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: Record<string, unknown>;
}

export function toolInfo(tool: ListedTool): ToolInfo {
  const icons: ToolIcon[] | undefined = tool.icons?.map((icon) => ({
    src: icon.src,
    ...(icon.mimeType !== undefined ? { mimeType: icon.mimeType } : {}),
    ...(icon.sizes !== undefined ? { sizes: [...icon.sizes] } : {}),
  }));
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
    ...(icons !== undefined && icons.length > 0 ? { icons } : {}),
    ...(tool.execution?.taskSupport !== undefined ? { execution: { taskSupport: tool.execution.taskSupport } } : {}),
    ...(tool._meta !== undefined && typeof tool._meta === 'object' && tool._meta !== null ? { _meta: tool._meta } : {}),
  };
}

/** The parts of a CallToolResult a person, a model and an app use (the model is given only content; see chat). */
export function normalizeResult(result: unknown): ToolResult {
  const r = result as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown; _meta?: unknown };
  // 2024-11-05 servers may answer with the compatibility shape `{ toolResult }`.
  if (r.content === undefined && r.toolResult !== undefined) {
    return { content: [{ type: 'text', text: JSON.stringify(r.toolResult) }] };
  }
  // One object, no spreads (it is made for every call).
  const normalized: ToolResult = { content: Array.isArray(r.content) ? (r.content as ToolResult['content']) : [] };
  if (r.structuredContent !== undefined && typeof r.structuredContent === 'object')
    normalized.structuredContent = r.structuredContent as Record<string, unknown>;
  if (r.isError === true) normalized.isError = true;
  if (typeof r._meta === 'object' && r._meta !== null && !Array.isArray(r._meta)) normalized._meta = r._meta as Record<string, unknown>;
  return normalized;
}
