import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type SamplingMessage,
} from '@modelcontextprotocol/client';
import type { SamplingAuditDecision } from '../../../../src-shared/contract/chat';
import type { AcceptContent, RequestAnswer, RequestFollowUpStage, SamplingPayload } from '../../../../src-shared/contract/requests';
import { AuditLog, type SamplingRecord } from '../../chat/audit-log';
import { messageOf } from '../../errors';
import { blocksOf, messageViews, noSamplingProviderText, type SamplingContentBlock, type SamplingOutput, type SamplingRun } from '../../chat/sampler';
import { McpClient, holdingCalls } from '../mcp-client';
import { clientTaskRequests, type FeatureContext, type SamplingPolicy, type SessionFeature } from './feature';

type CreateMessageParams = CreateMessageRequest['params'];

/** The code the spec gives a sampling request the user rejected. */
export const userRejectedCode = -1;

function rejected(reason: string): ProtocolError {
  return new ProtocolError(userRejectedCode, `User rejected sampling request: ${reason}`);
}

/** The call a server request came from, when the connection can tell (see McpClient). */
export function originOf(client: Client): { callId?: string } {
  const callId = client instanceof McpClient ? client.originCallId() : undefined;
  return callId !== undefined ? { callId } : {};
}

/**
 * `sampling/createMessage` (legacy requests and 2026-07-28 `input_required` rounds alike, through the same handler):
 * the server's per-entry policy (`sampling.mode` ask / allow / never, `perMinute`), then — when asked — a person
 * approves the request (editing prompt, system prompt, model, maxTokens) through the request queue, the chat's
 * providers run it, and the person approves (or edits) the answer before it goes back. Declared with `tools`: the
 * model's tool calls go back as `tool_use` content, for the server to run. Every request leaves one audit entry.
 */
export class SamplingFeature implements SessionFeature {
  readonly name = 'sampling' as const;
  private readonly arrivals: number[] = [];
  private session = new AbortController();

  constructor(private readonly context: FeatureContext) {}

  attach(client: Client): void {
    // `tasks.requests.sampling`: a task-augmented request (2025-11-25) becomes a task the server polls (McpClient).
    // `sampling.context`: `includeContext` is acted on (soft-deprecated in 2025-11-25, still honoured; see contextFor).
    client.registerCapabilities({ sampling: { tools: {}, context: {} }, ...clientTaskRequests });
    // The call that caused the request waits on it: its timeout is held meanwhile (see McpClient.holdingCalls).
    client.setRequestHandler('sampling/createMessage', (request, ctx) => {
      const callId = originOf(client).callId;
      return holdingCalls(client, callId, () => this.handle(request.params, ctx.mcpReq.signal, callId));
    });
  }

  disconnected(): void {
    this.session.abort();
    this.session = new AbortController();
  }

  dispose(): void {
    this.session.abort();
  }

  private policy(): SamplingPolicy {
    return this.context.samplingPolicy?.() ?? { mode: 'ask' };
  }

  /**
   * The context `includeContext` asks for, as system-prompt text: `thisServer` — this server's name, instructions and
   * tool names; `allServers` — every ready server's. Other servers' details reach this server's model request only
   * when a person approves it: with `"mode": "allow"` (no one asked) `allServers` is narrowed to `thisServer`.
   */
  private contextFor(scope: CreateMessageParams['includeContext'], policy: SamplingPolicy): string | undefined {
    if (scope !== 'thisServer' && scope !== 'allServers') return undefined;
    const narrowed = scope === 'allServers' && policy.mode !== 'ask' ? 'thisServer' : scope;
    if (narrowed !== scope)
      this.context.note(
        `[switchboard] a sampling request's includeContext "allServers" was narrowed to "thisServer": no one approves sharing other servers' details with "${this.context.server}" ("sampling": {"mode": "${policy.mode}"})`,
      );
    return this.context.samplingContext?.(narrowed);
  }

  /** Counts this request; true when it is over the per-minute limit. */
  private overLimit(perMinute: number | undefined, now: number): boolean {
    while (this.arrivals.length > 0 && (this.arrivals[0] ?? 0) <= now - 60_000) this.arrivals.shift();
    if (perMinute !== undefined && this.arrivals.length >= perMinute) return true;
    this.arrivals.push(now);
    return false;
  }

  /**
   * `fromApp`: the request came from the server's MCP App (its frame's tool), not the server; the same policy holds,
   * the person is told it is the app asking, and the audit entry says `mcp-app`.
   */
  async handle(
    params: CreateMessageParams,
    requestSignal: AbortSignal,
    callId: string | undefined,
    fromApp?: { tool: string },
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const { server } = this.context;
    const asker = fromApp ? `the app of ${server}/${fromApp.tool}` : undefined;
    const started = Date.now();
    const signal = AbortSignal.any([requestSignal, this.session.signal]);
    const views = messageViews(params.messages);
    const size = AuditLog.samplingSize(views, params.systemPrompt);
    const base: SamplingRecord = {
      server,
      decision: 'declined',
      ...size,
      maxTokens: params.maxTokens,
      ...(callId !== undefined ? { callId } : {}),
      ...(fromApp ? { source: 'mcp-app' as const, tool: fromApp.tool } : this.context.answerSource ? { source: this.context.answerSource } : {}),
    };
    const record = (decision: SamplingAuditDecision, extra: Partial<SamplingRecord> = {}): void => {
      this.context.audit?.recordSampling({ ...base, ...extra, decision, durationMs: Date.now() - started });
    };
    const policy = this.policy();
    if (policy.mode === 'never') {
      const detail = `sampling is turned off for "${server}" ("sampling": {"mode": "never"} in its config entry)`;
      record('auto-declined', { detail });
      this.context.note(`[switchboard] declined a sampling request${asker ? ` from ${asker}` : ''}: ${detail}`);
      throw rejected(detail);
    }
    if (this.overLimit(policy.perMinute, started)) {
      const detail = `more than ${policy.perMinute ?? 0} sampling request(s) per minute from "${server}" (its "sampling.perMinute")`;
      record('rate-limited', { detail });
      this.context.note(`[switchboard] declined a sampling request${asker ? ` from ${asker}` : ''}: ${detail}`);
      throw rejected(detail);
    }
    const sampler = this.context.sampler;
    const unavailable = sampler ? sampler.unavailable() : noSamplingProviderText;
    if (!sampler || unavailable !== undefined) {
      const detail = unavailable ?? noSamplingProviderText;
      record('declined', { detail });
      this.context.note(`[switchboard] declined a sampling request${asker ? ` from ${asker}` : ''}: ${detail}`);
      throw rejected(detail);
    }
    const models = sampler.models();
    const picked = sampler.pickModel(params.modelPreferences);
    // The asked-for context goes after the server's own system prompt; the person sees it there, and may edit it.
    const context = this.contextFor(params.includeContext, policy);
    const systemPrompt = context === undefined ? params.systemPrompt : params.systemPrompt ? `${params.systemPrompt}\n\n${context}` : context;
    let run: SamplingRun = {
      model: picked ?? models[0] ?? '',
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      messages: params.messages,
      maxTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
      ...(params.tools !== undefined ? { tools: params.tools } : {}),
      ...(params.toolChoice !== undefined ? { toolChoice: params.toolChoice } : {}),
    };
    const asking = policy.mode === 'ask';
    const queue = this.context.requests;
    let edited = false;
    // The approved request's card says what became of it, to the end (the model answered, failed, …).
    let asked: string | undefined;
    const followUp = (stage: RequestFollowUpStage, message?: string): void => {
      if (asked !== undefined) queue?.followUp({ id: asked, server, kind: 'sampling', stage, ...(message !== undefined ? { message } : {}) });
    };
    if (asking) {
      const payload: SamplingPayload = {
        messages: views,
        ...(systemPrompt !== undefined ? { systemPrompt } : {}),
        maxTokens: params.maxTokens,
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
        ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
        ...(params.modelPreferences !== undefined ? { modelPreferences: params.modelPreferences } : {}),
        ...(params.includeContext !== undefined ? { includeContext: params.includeContext } : {}),
        ...(params.tools !== undefined
          ? { tools: params.tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}) })) }
          : {}),
        models,
        ...(run.model !== '' ? { model: run.model } : {}),
      };
      const answer: RequestAnswer = queue
        ? await queue.ask(
            {
              kind: 'sampling',
              server,
              title: fromApp ? `The app of ${server}/${fromApp.tool} asks to run a model` : `${server} asks to run a model`,
              payload,
              origin: callId !== undefined ? { callId } : {},
            },
            { signal, onPending: (id) => (asked = id) },
          )
        : { action: 'decline', reason: 'no one is there to answer' };
      if (answer.action !== 'accept') {
        const reason = answer.reason ?? (answer.action === 'decline' ? 'declined' : 'cancelled');
        record(decisionOf(answer), { model: run.model, detail: reason });
        throw rejected(reason);
      }
      const edits = (answer.content ?? {}) as AcceptContent['sampling'];
      const next = applyEdits(run, views, edits);
      edited = next.edited;
      run = next.run;
    }
    if (run.model === '') {
      record('failed', { detail: 'no model to run' });
      followUp('failed', 'no model to run');
      throw rejected(noSamplingProviderText);
    }
    let output: SamplingOutput;
    try {
      output = await sampler.run(run, signal);
    } catch (error) {
      const detail = messageOf(error);
      if (signal.aborted) {
        record('cancelled', { model: run.model, detail });
        followUp('cancelled', 'the request was withdrawn');
        throw rejected('the request was withdrawn');
      }
      record('failed', { model: run.model, detail });
      followUp('failed', detail);
      this.context.note(`[switchboard] a sampling request failed: ${detail}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Sampling failed: ${detail}`);
    }
    let content = output.content;
    if (asking && queue) {
      followUp('model-answered');
      const answer = await queue.ask(
        {
          kind: 'sampling-result',
          server,
          title: `The model's answer for ${server}`,
          payload: { model: output.model, text: reviewText(output), stopReason: output.stopReason },
          origin: callId !== undefined ? { callId } : {},
        },
        { signal },
      );
      if (answer.action !== 'accept') {
        const reason = answer.reason ?? (answer.action === 'decline' ? "the model's answer was declined" : 'cancelled');
        record(decisionOf(answer), { model: output.model, detail: reason, resultChars: output.text.length, stopReason: output.stopReason, edited });
        followUp(answer.action === 'decline' ? 'declined' : 'cancelled', reason);
        throw rejected(reason);
      }
      const text = ((answer.content ?? {}) as AcceptContent['sampling-result']).text;
      if (text !== undefined && text !== reviewText(output)) {
        edited = true;
        // The tool calls are named in the reviewed text; they go back as they are, so their lines are not text.
        const named = toolCallLines(output);
        const own = named !== '' && text.endsWith(named) ? text.slice(0, -named.length).trimEnd() : text;
        content = [{ type: 'text', text: own }, ...content.filter((b) => b.type !== 'text')];
      }
    }
    const resultChars = content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0);
    record(asking ? 'approved' : 'auto', { model: output.model, resultChars, stopReason: output.stopReason, edited });
    followUp('done');
    const withTools = params.tools !== undefined && params.tools.length > 0;
    if (withTools)
      return {
        role: 'assistant',
        model: output.model,
        stopReason: output.stopReason,
        content: content.length === 1 && content[0] ? content[0] : content,
      } as CreateMessageResultWithTools;
    const text = content
      .filter((b): b is Extract<SamplingContentBlock, { type: 'text' }> => b.type === 'text')
      .map((b) => b.text)
      .join('');
    return { role: 'assistant', model: output.model, stopReason: output.stopReason, content: { type: 'text', text } };
  }
}

function decisionOf(answer: RequestAnswer): SamplingAuditDecision {
  if (answer.action === 'accept') return 'approved';
  if (answer.action === 'decline') return 'declined';
  return answer.reason?.startsWith('timed out') === true ? 'timed-out' : 'cancelled';
}

function toolCallLines(output: SamplingOutput): string {
  return output.content.flatMap((b) => (b.type === 'tool_use' ? [`[tool call ${b.name} ${JSON.stringify(b.input)}]`] : [])).join('\n');
}

/** What the person reviews: the model's text, with its tool calls named (they are sent as they are). */
function reviewText(output: SamplingOutput): string {
  const named = toolCallLines(output);
  if (named === '') return output.text;
  return output.text === '' ? named : `${output.text}\n${named}`;
}

/**
 * The person's edits applied: a picked model, system prompt and maxTokens as given; edited messages replace the text
 * of the messages they change (their other content — images, tool calls and results — kept) when the list has the
 * same length, else the conversation becomes the edited text messages.
 */
export function applyEdits(
  run: SamplingRun,
  views: readonly { role: string; text: string }[],
  edits: AcceptContent['sampling'],
): { run: SamplingRun; edited: boolean } {
  let edited = false;
  const next: SamplingRun = { ...run };
  if (edits.model !== undefined && edits.model !== run.model) {
    next.model = edits.model;
    edited = true;
  }
  if (edits.systemPrompt !== undefined && edits.systemPrompt !== (run.systemPrompt ?? '')) {
    next.systemPrompt = edits.systemPrompt;
    edited = true;
  }
  if (edits.maxTokens !== undefined && edits.maxTokens !== run.maxTokens && Number.isInteger(edits.maxTokens) && edits.maxTokens > 0) {
    next.maxTokens = edits.maxTokens;
    edited = true;
  }
  const messages = edits.messages;
  if (messages !== undefined) {
    if (messages.length === run.messages.length) {
      const out: SamplingMessage[] = run.messages.map((message, index) => {
        const edit = messages[index];
        if (!edit || (edit.text === views[index]?.text && edit.role === message.role)) return message;
        edited = true;
        const others = blocksOf(message).filter((b) => b.type !== 'text');
        return { role: edit.role, content: [{ type: 'text', text: edit.text }, ...others] } as SamplingMessage;
      });
      next.messages = out;
    } else {
      edited = true;
      next.messages = messages.map((m) => ({ role: m.role, content: { type: 'text', text: m.text } }));
    }
  }
  return { run: next, edited };
}
