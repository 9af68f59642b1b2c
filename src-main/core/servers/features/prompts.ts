import type { Client, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ContentBlock, GetPromptView, PromptInfo, PromptListView, PromptMessageView } from '../../../../src-shared/host-api';
import { CoreError, messageOf } from '../../errors';
import { ListFeature, type CacheHints } from './list-feature';

/**
 * Prompts (`prompts/list` every page, `prompts/get`), re-listed on `prompts/list_changed` in both eras. A `get`
 * checks the arguments against the listed prompt first (an unknown prompt or a missing required argument is refused
 * naming what is wrong) and returns the messages with their content blocks normalised to the shared ContentBlock.
 * (`completion/complete` for prompt arguments is CompletionsFeature's.)
 */
export class PromptsFeature extends ListFeature<PromptInfo> {
  readonly name = 'prompts' as const;
  protected readonly changedMethod = 'notifications/prompts/list_changed' as const;
  protected readonly listenKey = 'promptsListChanged' as const;

  protected offered(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.prompts !== undefined;
  }

  protected announcesChanges(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.prompts?.listChanged === true;
  }

  protected async fetch(client: Client, timeoutMs: number, hints: CacheHints): Promise<PromptInfo[]> {
    const listed = await client.listPrompts(undefined, { timeout: timeoutMs, cacheMode: 'refresh' });
    hints.note(listed);
    return listed.prompts.map(promptInfo);
  }

  /** The list as last loaded (a refresh in flight is waited for); empty while not connected. */
  async list(): Promise<PromptListView> {
    await this.settle();
    const error = this.error;
    return { server: this.context.server, prompts: this.items, ...(error !== undefined ? { error } : {}) };
  }

  async get(name: string, args: Record<string, string>): Promise<GetPromptView> {
    const { server } = this.context;
    const client = this.context.client();
    if (!client)
      throw new CoreError('server-not-ready', `Server "${server}" is not connected; it cannot give the prompt "${name}" now.`, {
        data: { server, prompt: name },
      });
    let prompt = this.find(name);
    if (!prompt) {
      await this.settle();
      prompt = this.find(name);
    }
    if (!prompt) {
      const names = this.items.map((p) => p.name).join(', ');
      throw new CoreError('invalid-argument', `Server "${server}" has no prompt "${name}". Its prompts: ${names || 'none'}.`, {
        data: { server, prompt: name },
      });
    }
    const missing = prompt.arguments.filter((a) => a.required === true && (args[a.name] === undefined || args[a.name] === '')).map((a) => a.name);
    if (missing.length > 0) {
      throw new CoreError(
        'invalid-argument',
        `The prompt "${name}" of server "${server}" needs ${missing.length === 1 ? 'the argument' : 'the arguments'} ${missing.map((m) => `"${m}"`).join(', ')}.`,
        { data: { server, prompt: name, missing } },
      );
    }
    const unknown = Object.keys(args).filter((key) => !prompt.arguments.some((a) => a.name === key));
    if (unknown.length > 0) {
      const known = prompt.arguments.map((a) => a.name).join(', ');
      throw new CoreError(
        'invalid-argument',
        `The prompt "${name}" of server "${server}" has no argument ${unknown.map((u) => `"${u}"`).join(', ')}. Its arguments: ${known || 'none'}.`,
        {
          data: { server, prompt: name, unknown },
        },
      );
    }
    try {
      const result = await client.getPrompt({ name, arguments: args }, { timeout: this.context.requestTimeoutMs() });
      return {
        ...(result.description !== undefined ? { description: result.description } : {}),
        messages: result.messages.map((m): PromptMessageView => ({ role: m.role, content: contentBlock(m.content) })),
      };
    } catch (error) {
      throw new CoreError('tool-call-failed', `Getting the prompt "${name}" from server "${server}" failed: ${messageOf(error)}`, {
        cause: error,
        data: { server, prompt: name },
      });
    }
  }

  /** For ServerView.counts; undefined until loaded. */
  count(): number | undefined {
    return this.known ? this.items.length : undefined;
  }

  private find(name: string): PromptInfo | undefined {
    return this.items.find((p) => p.name === name);
  }
}

interface ListedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: ReadonlyArray<{ name: string; title?: string; description?: string; required?: boolean }>;
}

export function promptInfo(prompt: ListedPrompt): PromptInfo {
  return {
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.title !== undefined ? { title: a.title } : {}),
      ...(a.description !== undefined ? { description: a.description } : {}),
      ...(a.required !== undefined ? { required: a.required } : {}),
    })),
  };
}

/** A prompt message's content as the shared ContentBlock: the fields a person and a model use, `_meta` and annotations left behind. */
export function contentBlock(raw: unknown): ContentBlock {
  const c = (raw ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  switch (c.type) {
    case 'text':
      return { type: 'text', text: str(c.text) ?? '' };
    case 'image':
    case 'audio':
      return { type: c.type, data: str(c.data) ?? '', mimeType: str(c.mimeType) ?? 'application/octet-stream' };
    case 'resource': {
      const r = (c.resource ?? {}) as Record<string, unknown>;
      const mimeType = str(r.mimeType);
      const text = str(r.text);
      const blob = str(r.blob);
      return {
        type: 'resource',
        resource: {
          uri: str(r.uri) ?? '',
          ...(mimeType !== undefined ? { mimeType } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(blob !== undefined ? { blob } : {}),
        },
      };
    }
    case 'resource_link': {
      const description = str(c.description);
      const mimeType = str(c.mimeType);
      return {
        type: 'resource_link',
        uri: str(c.uri) ?? '',
        name: str(c.name) ?? str(c.uri) ?? '',
        ...(description !== undefined ? { description } : {}),
        ...(mimeType !== undefined ? { mimeType } : {}),
      };
    }
    default:
      // A block type this build does not know: shown as its JSON, not dropped.
      return { type: 'text', text: JSON.stringify(raw) };
  }
}
