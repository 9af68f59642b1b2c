import type { SamplingMessage, Tool as McpTool } from '@modelcontextprotocol/client';
import type { AssistantContent, ModelMessage, ToolSet, UserContent } from 'ai';
import type { SamplingMessageView } from '../../../src-shared/contract/requests';
import { CoreError, messageOf } from '../errors';
import { addProviderHow, parseModelSpec, type Providers } from './providers';

/**
 * Runs a server's `sampling/createMessage` on the chat's providers: the same keys, the same `provider:model` specs,
 * the chat settings' model as the default. With tools (2025-11-25), the model's tool calls come back as `tool_use`
 * content (the server runs its own tools and samples again with the results); nothing is executed here.
 */

export type SamplingContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface SamplingRun {
  /** `provider:model`. */
  model: string;
  systemPrompt?: string;
  messages: readonly SamplingMessage[];
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** Tools the server offers the model (it runs them itself). */
  tools?: readonly McpTool[];
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
}

export interface SamplingOutput {
  model: string;
  content: SamplingContentBlock[];
  /** The text blocks joined (what a person reviews and may edit). */
  text: string;
  stopReason: string;
}

/** What the sampling handler needs of the models. */
export interface Sampler {
  /** The models a person may pick (`provider:model`), the default first; empty when no provider is configured. */
  models(): string[];
  /** The model to use for a request's `modelPreferences` (its hints, matched by name), else the default. */
  pickModel(preferences: unknown): string | undefined;
  /** Why no model can run (no provider configured: how to add one); undefined when one can. */
  unavailable(): string | undefined;
  run(request: SamplingRun, signal?: AbortSignal): Promise<SamplingOutput>;
}

export const noSamplingProviderText = `No LLM provider is configured, so Switchboard cannot run this server's sampling request. To allow it, ${addProviderHow}`;

/** The provider-backed sampler. */
export class ProviderSampler implements Sampler {
  constructor(private readonly providers: Providers) {}

  private usable(spec: string): boolean {
    try {
      this.providers.model(spec);
      return true;
    } catch {
      return false;
    }
  }

  models(): string[] {
    const list = this.providers.list();
    const out: string[] = [];
    const add = (spec: string): void => {
      if (!out.includes(spec) && this.usable(spec)) out.push(spec);
    };
    if (list.model !== undefined) add(list.model);
    for (const provider of list.providers) {
      if (!provider.configured) continue;
      for (const model of provider.models) add(`${provider.id}:${model}`);
    }
    return out;
  }

  pickModel(preferences: unknown): string | undefined {
    const models = this.models();
    const hints = hintNames(preferences);
    for (const hint of hints) {
      const wanted = hint.toLowerCase();
      const match = models.find((spec) => spec.toLowerCase() === wanted || (parseModelSpec(spec)?.model ?? spec).toLowerCase().includes(wanted));
      if (match) return match;
    }
    return models[0];
  }

  unavailable(): string | undefined {
    return this.models().length === 0 ? noSamplingProviderText : undefined;
  }

  async run(request: SamplingRun, signal?: AbortSignal): Promise<SamplingOutput> {
    // The AI SDK loads with the first sampling run: a host whose servers never sample never loads it.
    const [ai, { describeProviderError, redactKeys }] = await Promise.all([import('ai'), import('../chat/provider-errors')]);
    const spec = request.model;
    const model = this.providers.model(spec);
    const provider = parseModelSpec(spec)?.provider ?? spec;
    const tools = toolSet(ai, request.tools);
    const mode = request.toolChoice?.mode;
    try {
      // Streamed (as the chat does), collected whole: the person reviews the full answer before it goes back.
      let failure: unknown;
      const result = ai.streamText({
        model,
        ...(request.systemPrompt !== undefined && request.systemPrompt !== '' ? { system: request.systemPrompt } : {}),
        messages: toModelMessages(request.messages),
        maxOutputTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences !== undefined && request.stopSequences.length > 0 ? { stopSequences: request.stopSequences } : {}),
        ...(tools ? { tools, ...(mode !== undefined ? { toolChoice: mode } : {}) } : {}),
        maxRetries: 1,
        ...(signal ? { abortSignal: signal } : {}),
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      await result.consumeStream();
      if (failure !== undefined) throw failure;
      const [text, toolCalls, finishReason] = await Promise.all([result.text, result.toolCalls, result.finishReason]);
      const content: SamplingContentBlock[] = [];
      if (text !== '') content.push({ type: 'text', text });
      for (const call of toolCalls) {
        const input = typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
        content.push({ type: 'tool_use', id: call.toolCallId, name: call.toolName, input });
      }
      if (content.length === 0) content.push({ type: 'text', text: '' });
      return { model: spec, content, text, stopReason: stopReasonOf(finishReason, toolCalls.length > 0) };
    } catch (error) {
      if (signal?.aborted) throw new CoreError('cancelled', 'The sampling request was withdrawn while the model ran.', { cause: error });
      const readable = describeProviderError(error, provider);
      throw new CoreError('provider-error', redactKeys(readable.message || messageOf(error), this.providers.keyValues()), { cause: error });
    }
  }
}

function hintNames(preferences: unknown): string[] {
  if (typeof preferences !== 'object' || preferences === null) return [];
  const hints = (preferences as { hints?: unknown }).hints;
  if (!Array.isArray(hints)) return [];
  return hints.flatMap((h: unknown) =>
    typeof h === 'object' && h !== null && typeof (h as { name?: unknown }).name === 'string' ? [(h as { name: string }).name] : [],
  );
}

function stopReasonOf(finish: string, calledTools: boolean): string {
  if (calledTools || finish === 'tool-calls') return 'toolUse';
  if (finish === 'length') return 'maxTokens';
  if (finish === 'stop') return 'endTurn';
  return finish;
}

function toolSet(ai: typeof import('ai'), tools: readonly McpTool[] | undefined): ToolSet | undefined {
  if (!tools || tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.name] = ai.tool({
      ...(t.description !== undefined ? { description: t.description } : {}),
      inputSchema: ai.jsonSchema({ ...(t.inputSchema as Record<string, unknown>), type: 'object' }),
    });
  }
  return set;
}

type Block = Record<string, unknown> & { type: string };

export function blocksOf(message: Pick<SamplingMessage, 'content'>): Block[] {
  const content = message.content as unknown;
  const list = Array.isArray(content) ? content : [content];
  return list.filter((b): b is Block => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string');
}

function kb(data: unknown): string {
  return typeof data === 'string' ? `${Math.max(1, Math.round((data.length * 3) / 4 / 1024))} KB` : '?';
}

/** One block as a person reads it: text as it is, other kinds named. */
export function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio':
      return `[${block.type} ${String(block.mimeType)}, ${kb(block.data)}]`;
    case 'tool_use':
      return `[tool call ${String(block.name)} ${JSON.stringify(block.input ?? {})}]`;
    case 'tool_result': {
      const inner = Array.isArray(block.content) ? (block.content as Block[]).map(describeBlock).join(' ') : '';
      return `[tool result${block.isError === true ? ' (error)' : ''}: ${inner}]`;
    }
    default:
      return `[${block.type}]`;
  }
}

/** The messages as the queue shows them. */
export function messageViews(messages: readonly SamplingMessage[]): SamplingMessageView[] {
  return messages.map((m) => ({ role: m.role, text: blocksOf(m).map(describeBlock).join('\n'), content: m.content }));
}

function textOf(blocks: readonly Block[]): string {
  return blocks.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : describeBlock(b))).join('\n');
}

/** MCP sampling messages as AI SDK messages (tool_use → tool-call parts, tool_result → a `tool` message). */
export function toModelMessages(messages: readonly SamplingMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const content: Exclude<AssistantContent, string> = [];
      for (const b of blocks) {
        if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
          toolNames.set(b.id, b.name);
          content.push({ type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input ?? {} });
        } else content.push({ type: 'text', text: describeBlock(b) });
      }
      out.push({ role: 'assistant', content });
      continue;
    }
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length > 0) {
      out.push({
        role: 'tool',
        content: results.map((b) => {
          const id = typeof b.toolUseId === 'string' ? b.toolUseId : '';
          const inner = Array.isArray(b.content) ? textOf(b.content as Block[]) : '';
          const value = inner !== '' ? inner : b.structuredContent !== undefined ? JSON.stringify(b.structuredContent) : '';
          return {
            type: 'tool-result' as const,
            toolCallId: id,
            toolName: toolNames.get(id) ?? 'tool',
            output: b.isError === true ? { type: 'error-text' as const, value } : { type: 'text' as const, value },
          };
        }),
      });
    }
    const rest = blocks.filter((b) => b.type !== 'tool_result');
    if (rest.length === 0) continue;
    const content: Exclude<UserContent, string> = rest.map((b) => {
      if (b.type === 'image' && typeof b.data === 'string')
        return { type: 'image' as const, image: b.data, ...(typeof b.mimeType === 'string' ? { mediaType: b.mimeType } : {}) };
      if (b.type === 'audio' && typeof b.data === 'string')
        return { type: 'file' as const, data: b.data, mediaType: typeof b.mimeType === 'string' ? b.mimeType : 'audio/wav' };
      return { type: 'text' as const, text: describeBlock(b) };
    });
    out.push({ role: 'user', content });
  }
  return out;
}
