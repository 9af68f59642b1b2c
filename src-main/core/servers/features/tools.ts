import type { Client, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ToolIcon, ToolInfo, ToolResult } from '../../../../src-shared/host-api';
import { CoreError } from '../../errors';
import { ListFeature } from './list-feature';

/** The server's tools: listed as part of every start (a failure fails it), re-listed on `tools/list_changed`. */
export class ToolsFeature extends ListFeature<ToolInfo> {
  readonly name = 'tools' as const;
  override readonly blocking = true;
  protected readonly changedMethod = 'notifications/tools/list_changed' as const;
  protected readonly listenKey = 'toolsListChanged' as const;

  /** Listed whatever the server advertises (servers that forget `tools: {}` still get their tools shown). */
  protected offered(): boolean {
    return true;
  }

  protected announcesChanges(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.tools?.listChanged === true;
  }

  protected async fetch(client: Client, timeoutMs: number): Promise<ToolInfo[]> {
    const listed = await client.listTools(undefined, { timeout: timeoutMs, cacheMode: 'refresh' });
    return listed.tools.map(toolInfo);
  }

  /** Calls a tool of this list (one added by a `list_changed` moments ago included). SDK errors are rethrown as they are. */
  async call(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolResult> {
    const client = this.context.client();
    if (!client) throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; it cannot run "${tool}" now.`, { data: { server: this.context.server, tool } });
    if (!this.has(tool)) await this.settle();
    if (!this.has(tool)) {
      const names = this.items.map((t) => t.name).join(', ');
      throw new CoreError('unknown-tool', `Server "${this.context.server}" has no tool "${tool}". Its tools: ${names || 'none'}.`, { data: { server: this.context.server, tool } });
    }
    const result = await client.callTool(
      { name: tool, arguments: args },
      {
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    return normalizeResult(result);
  }

  private has(tool: string): boolean {
    return this.items.some((t) => t.name === tool);
  }
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
  };
}

/** The parts of a CallToolResult a person and a model use; transport `_meta` stays behind. */
export function normalizeResult(result: unknown): ToolResult {
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
