import { dynamicTool, jsonSchema, NoSuchToolError, stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { ToolInfo, ToolResult } from '../../../src-shared/host-api';
import { toolResourceUri } from '../../../src-shared/tool-ui';
import type { ApprovalDecision, ApprovalMode, AssistantMessage, AuditDecision, ToolPart } from '../../../src-shared/contract/chat';
import { CoreError, messageOf } from '../errors';
import { AuditLog } from './audit-log';
import { deniedReason, toModelOutput, type OutputOptions, type ToolOutcome } from './model-messages';
import { PartialInputs } from './partial-input';
import { describeProviderError } from './provider-errors';
import { ToolNameMap, toolKey, type ToolRef } from './tool-names';
import { searchTool, searchToolName, searchSystemNote, type ToolSearchOptions } from './tool-search/search-tool';
import { loadSkillTool, loadSkillToolName, skillsSystemNote, type SkillsTurn } from './skills/load-skill';
import { freeCallId } from './call-ids';

/**
 * One turn of the tool loop: the model streams text and tool calls; each call is approved (or not) and goes
 * through MCP; its result goes back to the model; up to `maxSteps` model calls. Stopping aborts the model's
 * stream and every in-flight tool call. The same function serves the app (approvals as cards) and the CLI
 * (approvals on the terminal).
 */

export interface OfferedTool extends ToolRef {
  info: ToolInfo;
}

export interface ApprovalRequest extends ToolRef {
  callId: string;
  args: Record<string, unknown>;
  readOnly: boolean;
  /** The tool's display title, when it has one. */
  title?: string;
}

/** The person's answer to an approval; `reason`: why, when no person decided (no one to ask, the server stopped). */
export interface ApprovalAnswer {
  decision: ApprovalDecision | 'cancelled';
  reason?: string;
}

export interface TurnOptions {
  model: LanguageModel;
  /** For readable errors: "Anthropic", "OpenAI at http://…". */
  providerLabel: string;
  system?: string;
  messages: ModelMessage[];
  tools: OfferedTool[];
  /**
   * The id to run the model's call `modelCallId` under, unique among the host's running calls and not `taken` (the
   * ids of this turn's earlier cards): a local model may repeat ids like `call_0` across turns that run at once, and
   * from one step to the next; `release` frees it when the call is over.
   */
  claimCallId?(modelCallId: string, taken: (callId: string) => boolean): { callId: string; release(): void };
  /** `callId`: the call's id from claimCallId (progress and task status are pushed as `calls:progress` under it). */
  callTool(ref: ToolRef, args: Record<string, unknown>, signal: AbortSignal, callId: string): Promise<ToolResult>;
  /** Read at each call, so a change (an "Always allow") applies to the calls after it. */
  policy(): { mode: ApprovalMode; alwaysAllow: ReadonlySet<string> };
  /** Asks the person; resolves `cancelled` when the signal aborts first. Never rejects. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** "Always allow this tool" was chosen. */
  allowAlways(key: string): void;
  audit: AuditLog;
  source: 'app' | 'cli';
  conversationId?: string;
  maxSteps: number;
  maxRetries?: number;
  /**
   * Search mode: the model is offered `search_tools` and the loaded tools only; a search loads what it finds, from
   * the next step on. Absent: every tool of `tools` is offered.
   */
  search?: ToolSearchOptions;
  /** Skills the model may load (`load_skill`), listed in the system prompt. Absent or empty: none. */
  skills?: SkillsTurn;
  output: OutputOptions;
  signal: AbortSignal;
  /** The message being built: its parts are updated in place. */
  message: AssistantMessage;
  onText(delta: string): void;
  onTool(part: ToolPart): void;
  /** A call's arguments as the model writes them (parsed so far), for tools with an app (`_meta.ui.resourceUri`). */
  onToolInput?(input: ToolRef & { modelCallId: string; args: Record<string, unknown> }): void;
}

export interface TurnResult {
  status: 'done' | 'stopped' | 'error';
  error?: { code: string; message: string };
}

export const defaultSystemPrompt =
  "You are the assistant in Switchboard, a desktop host for MCP servers. You can call the tools of the user's MCP servers; " +
  'each tool name is the server name and the tool name joined by "__". The user approves every call and may deny one: ' +
  'when a call is denied, do not retry it. Answer in Markdown; keep answers short.';

function autoDecision(mode: ApprovalMode, alwaysAllow: ReadonlySet<string>, key: string, readOnly: boolean): AuditDecision | undefined {
  if (mode === 'none') return 'auto-deny';
  if (alwaysAllow.has(key)) return 'auto-always';
  if (mode === 'all') return 'auto-all';
  if (mode === 'readonly' && readOnly) return 'auto-readonly';
  return undefined;
}

const allowed = (decision: AuditDecision): boolean => decision !== 'deny' && decision !== 'auto-deny';

export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const { message, signal, audit } = options;
  const names = new ToolNameMap(options.tools);
  const parts = message.parts;
  const upsert = (part: ToolPart): void => {
    const at = parts.findIndex((p) => p.type === 'tool' && p.callId === part.callId);
    if (at >= 0) parts[at] = part;
    else parts.push(part);
    options.onTool(part);
  };
  const auditBase = (part: ToolPart) => ({
    source: options.source,
    ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    callId: part.callId,
    server: part.server,
    tool: part.tool,
    args: AuditLog.shorten(part.args),
  });

  // Read by the SDK at each step (no `activeTools`): a tool added here by a search is offered from the next step.
  const tools: ToolSet = {};
  const byName = new Map<string, OfferedTool>();
  const load = (offered: OfferedTool): boolean => {
    const name = names.nameOf(offered);
    if (name === undefined || tools[name] !== undefined) return false;
    tools[name] = toolFor(offered, name);
    return true;
  };
  const toolFor = (offered: OfferedTool, name: string): ToolSet[string] => {
    const readOnly = offered.info.annotations?.readOnlyHint === true;
    const description = [offered.info.title, offered.info.description].filter(Boolean).join(' — ');
    const tool = dynamicTool({
      description: `${description}${description ? ' ' : ''}(server "${offered.server}", tool "${offered.tool}")`,
      inputSchema: jsonSchema(normalizeSchema(offered.info.inputSchema)),
      execute: async (input, { toolCallId: modelCallId }): Promise<ToolOutcome> => {
        // A later step that repeats an earlier step's id gets a card of its own, not the earlier one's.
        const taken = (id: string): boolean => parts.some((p) => p.type === 'tool' && p.callId === id);
        const claim = options.claimCallId?.(modelCallId, taken) ?? { callId: freeCallId(modelCallId, taken), release: () => undefined };
        try {
          return await execute(input, claim.callId, modelCallId);
        } finally {
          claim.release();
        }
      },
      toModelOutput: ({ output }) => toModelOutput(output as ToolOutcome, options.output),
    });
    const execute = async (input: unknown, toolCallId: string, modelCallId: string): Promise<ToolOutcome> => {
      const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      const part: ToolPart = {
        type: 'tool',
        callId: toolCallId,
        server: offered.server,
        tool: offered.tool,
        ...(modelCallId !== toolCallId ? { modelCallId } : {}),
        modelName: name,
        args,
        status: 'awaiting-approval',
        readOnly,
      };
      if (signal.aborted) {
        upsert({ ...part, status: 'cancelled' });
        return { kind: 'cancelled' };
      }
      const key = toolKey(offered);
      const policy = options.policy();
      let decision = autoDecision(policy.mode, policy.alwaysAllow, key, readOnly);
      let reason: string | undefined;
      if (decision === undefined) {
        // Registered before the card goes out, so an answer that comes at once finds it.
        const title = offered.info.title;
        const asked = options.ask(
          { callId: toolCallId, server: offered.server, tool: offered.tool, args, readOnly, ...(title !== undefined ? { title } : {}) },
          signal,
        );
        upsert(part);
        const answer = await asked;
        reason = answer.reason;
        if (answer.decision === 'cancelled') {
          upsert({ ...part, status: 'cancelled' });
          audit.append({ ...auditBase(part), kind: 'decision', outcome: 'cancelled', detail: reason ?? 'stopped while waiting for approval' });
          return { kind: 'cancelled' };
        }
        if (answer.decision === 'always') options.allowAlways(key);
        decision = answer.decision === 'once' ? 'allow-once' : answer.decision === 'always' ? 'always-allow' : 'deny';
      }
      audit.append({ ...auditBase(part), kind: 'decision', decision, ...(reason !== undefined ? { detail: reason } : {}) });
      if (!allowed(decision)) {
        upsert({ ...part, status: 'denied', decision });
        return { kind: 'denied', reason: deniedReason(offered.server, offered.tool) };
      }
      upsert({ ...part, status: 'running', decision });
      const started = performance.now();
      let outcome: ToolOutcome;
      try {
        const result = await options.callTool(offered, args, signal, toolCallId);
        outcome = { kind: 'result', result };
        const durationMs = Math.round(performance.now() - started);
        upsert({ ...part, status: result.isError === true ? 'error' : 'done', decision, result, durationMs });
        audit.append({ ...auditBase(part), kind: 'call', outcome: result.isError === true ? 'tool-error' : 'ok', durationMs });
      } catch (error) {
        const durationMs = Math.round(performance.now() - started);
        // Stop (the turn's signal), or this call alone (the tool card's Cancel: tools:cancel with its id).
        const cancelled = signal.aborted || (error instanceof CoreError && error.code === 'cancelled');
        outcome = cancelled ? { kind: 'cancelled' } : { kind: 'failed', message: messageOf(error) };
        upsert({ ...part, status: cancelled ? 'cancelled' : 'error', decision, durationMs, ...(cancelled ? {} : { error: messageOf(error) }) });
        audit.append({
          ...auditBase(part),
          kind: 'call',
          outcome: cancelled ? 'cancelled' : 'failed',
          durationMs,
          ...(cancelled ? {} : { detail: messageOf(error) }),
        });
      }
      return outcome;
    };
    return tool;
  };
  for (const offered of options.tools) {
    const name = names.nameOf(offered);
    if (name !== undefined) byName.set(name, offered);
  }
  const search = options.search;
  if (search) {
    const loaded = new Set(search.loaded);
    for (const offered of options.tools) if (loaded.has(toolKey(offered))) load(offered);
    search.bindUnload?.((keys) => {
      for (const key of keys) {
        const offered = options.tools.find((t) => toolKey(t) === key);
        const name = offered && names.nameOf(offered);
        if (name !== undefined) delete tools[name];
      }
    });
    tools[searchToolName] = searchTool({
      search,
      tools: options.tools,
      nameOf: (ref) => names.nameOf(ref),
      load: (ref) => {
        const offered = options.tools.find((t) => t.server === ref.server && t.tool === ref.tool);
        const added = offered !== undefined && load(offered);
        if (added) search.onLoad([toolKey(ref)]);
        return added;
      },
      signal,
      upsert,
      output: options.output,
    });
  } else {
    for (const offered of options.tools) load(offered);
  }

  const skills = options.skills !== undefined && options.skills.skills.length > 0 ? options.skills : undefined;
  if (skills) tools[loadSkillToolName] = loadSkillTool({ ...options, turn: skills, upsert });

  // Only for tools with an app: nothing else shows a call before its arguments are complete.
  const streaming = new Map<string, OfferedTool>();
  const onToolInput = options.onToolInput;
  const partialInputs = new PartialInputs(({ modelCallId, args }) => {
    const offered = streaming.get(modelCallId);
    if (offered && onToolInput) onToolInput({ server: offered.server, tool: offered.tool, modelCallId, args });
  });
  let failure: unknown;
  let aborted = false;
  let steps = 0;
  let lastFinish: string | undefined;
  try {
    const result = streamText({
      model: options.model,
      system: `${options.system ?? defaultSystemPrompt}${search ? `\n\n${searchSystemNote}` : ''}${skills ? `\n\n${skillsSystemNote(skills.skills)}` : ''}`,
      messages: options.messages,
      ...(Object.keys(tools).length > 0 ? { tools } : {}),
      // Search mode: a tool the model names without searching (it knows it from earlier, or guessed the name right)
      // is loaded and run, when it is one the model may use at all.
      ...(search
        ? {
            experimental_repairToolCall: async ({ toolCall, error }) => {
              if (!NoSuchToolError.isInstance(error)) return null;
              const offered = byName.get(toolCall.toolName);
              if (!offered || !load(offered)) return null;
              search.onLoad([toolKey(offered)]);
              return toolCall;
            },
          }
        : {}),
      stopWhen: stepCountIs(options.maxSteps),
      abortSignal: signal,
      maxRetries: options.maxRetries ?? 2,
      // Errors arrive as stream parts below; the SDK would otherwise print them.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text === '') break;
          appendText(parts, part.text);
          options.onText(part.text);
          break;
        case 'tool-input-start': {
          const offered = byName.get(part.toolName);
          if (onToolInput && offered && toolResourceUri(offered.info) !== undefined) {
            streaming.set(part.id, offered);
            partialInputs.start(part.id);
          }
          break;
        }
        case 'tool-input-delta':
          partialInputs.delta(part.id, part.delta);
          break;
        case 'tool-input-end':
          await partialInputs.end(part.id);
          streaming.delete(part.id);
          break;
        case 'tool-error': {
          // A call the SDK could not run: a name we never gave out, unparsable input, or execute threw.
          const ref = names.resolve(part.toolName);
          const existing = parts.findLast((p): p is ToolPart => p.type === 'tool' && (p.modelCallId ?? p.callId) === part.toolCallId);
          const args = typeof part.input === 'object' && part.input !== null ? (part.input as Record<string, unknown>) : {};
          upsert({
            ...(existing ?? {
              type: 'tool',
              callId: part.toolCallId,
              server: ref?.server ?? '?',
              tool: ref?.tool ?? part.toolName,
              modelName: part.toolName,
              args,
            }),
            status: signal.aborted ? 'cancelled' : 'error',
            error: messageOf(part.error),
          });
          break;
        }
        case 'error':
          failure = part.error;
          break;
        case 'abort':
          aborted = true;
          break;
        case 'finish-step':
          steps++;
          lastFinish = part.finishReason;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    partialInputs.dispose();
  }
  // Cards still waiting or running when the turn ended did not finish.
  for (const p of parts) {
    if (p.type === 'tool' && (p.status === 'awaiting-approval' || p.status === 'running')) upsert({ ...p, status: 'cancelled' });
  }
  if (signal.aborted || aborted) return { status: 'stopped' };
  if (failure !== undefined) return { status: 'error', error: describeProviderError(failure, options.providerLabel) };
  if (steps >= options.maxSteps && lastFinish === 'tool-calls') {
    // The model still wanted to go on: say why the answer ends here rather than just stopping.
    const note = `${parts[parts.length - 1]?.type === 'text' ? '\n\n' : ''}_Stopped after ${steps} model step${steps === 1 ? '' : 's'}, the limit per message (Settings → Chat: approvals and tools → Most model steps per message). Send again to continue, or raise the limit._`;
    appendText(parts, note);
    options.onText(note);
  }
  return { status: 'done' };
}

function appendText(parts: AssistantMessage['parts'], delta: string): void {
  const last = parts[parts.length - 1];
  if (last?.type === 'text') last.text += delta;
  else parts.push({ type: 'text', text: delta });
}

/** Providers want an object schema; MCP servers sometimes omit `type` or `properties`. */
function normalizeSchema(schema: Record<string, unknown>): Record<string, unknown> & { type: 'object' } {
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  return { ...schema, type: 'object', properties };
}
