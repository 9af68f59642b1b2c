import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { AcceptContent, RequestAnswer } from '../../../../src-shared/contract/requests';
import { McpClient, holdingCalls } from '../mcp-client';
import { describeErrors, elicitationFields, validateElicitation, type FieldError } from '../../requests/elicitation-schema';
import { clientTaskRequests, type FeatureContext, type SessionFeature } from './feature';
import { originOf } from './sampling';

type ElicitParams = ElicitRequest['params'];

/** How many times a form is asked again when the answer does not fit its schema. */
const formAttempts = 3;

/** A URL a person may be asked to open: https, or http on this machine (a local sign-in page). */
export function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) return undefined;
  return `only https links are opened (this one is ${parsed.protocol.replace(/:$/, '')})`;
}

/**
 * `elicitation/create` (legacy requests and 2026-07-28 `input_required` rounds alike): form mode puts the
 * requested schema on the request queue as a form, checks the accepted answer against it (defaults filled in,
 * SEP-1034) and asks again, saying what is wrong, when it does not fit; URL mode asks the person's consent to open
 * the link — core never opens it, the UI or CLI does after consent. `notifications/elicitation/complete` withdraws a
 * URL request still waiting for consent.
 */
export class ElicitationFeature implements SessionFeature {
  readonly name = 'elicitation' as const;
  private session = new AbortController();
  /** Pending URL requests by elicitationId: withdrawn when the server says the step is complete. */
  private readonly waiting = new Map<string, AbortController>();

  constructor(private readonly context: FeatureContext) {}

  attach(client: Client): void {
    // `tasks.requests.elicitation`: a task-augmented request (2025-11-25) becomes a task the server polls (McpClient).
    client.registerCapabilities({ elicitation: { form: {}, url: {} }, ...clientTaskRequests });
    // The call that caused the request waits on the person: its timeout is held meanwhile (McpClient.holdingCalls).
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      const callId = originOf(client).callId;
      return holdingCalls(client, callId, () => this.handle(request.params, ctx.mcpReq.signal, callId));
    });
    // A call refused until the person opens a page (-32042): asked here too, as a URL elicitation of that call.
    if (client instanceof McpClient)
      client.urlElicitation = (params, signal) => this.handle(params, signal ?? new AbortController().signal, client.originCallId());
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      const id = notification.params.elicitationId;
      this.context.log(`[switchboard] the server reports elicitation ${id} complete`);
      this.waiting.get(id)?.abort();
    });
  }

  disconnected(): void {
    this.session.abort();
    this.session = new AbortController();
  }

  dispose(): void {
    this.session.abort();
  }

  async handle(params: ElicitParams, requestSignal: AbortSignal, callId: string | undefined): Promise<ElicitResult> {
    const queue = this.context.requests;
    if (!queue) return { action: 'decline' };
    const { server } = this.context;
    const origin = callId !== undefined ? { callId } : {};
    if (params.mode === 'url') {
      const problem = urlProblem(params.url);
      if (problem !== undefined) {
        this.context.note(`[switchboard] declined a link from the server: ${problem}`);
        return { action: 'decline' };
      }
      const host = new URL(params.url).host;
      const completed = new AbortController();
      const id = params.elicitationId;
      this.waiting.set(id, completed);
      try {
        const answer = await queue.ask(
          {
            kind: 'elicitation-url',
            server,
            title: `${server} asks you to open a page on ${host}`,
            payload: { message: params.message, url: params.url, host, elicitationId: id },
            origin,
          },
          { signal: AbortSignal.any([requestSignal, this.session.signal, completed.signal]) },
        );
        return resultOf(answer);
      } finally {
        if (this.waiting.get(id) === completed) this.waiting.delete(id);
      }
    }
    const schema = params.requestedSchema as Record<string, unknown>;
    const fields = elicitationFields(schema);
    // Asked again after an answer that did not fit: the server's message as it was, and what was wrong as codes and
    // data (the UI and the CLI word them in the person's language).
    let problems: FieldError[] | undefined;
    for (let attempt = 1; ; attempt++) {
      const payload = { message: params.message, requestedSchema: schema, ...(problems !== undefined ? { problems } : {}) };
      const answer = await queue.ask(
        { kind: 'elicitation-form', server, title: `${server} asks you to fill in a form`, payload, origin },
        { signal: AbortSignal.any([requestSignal, this.session.signal]) },
      );
      if (answer.action !== 'accept') return resultOf(answer);
      const given = ((answer.content ?? { content: {} }) as AcceptContent['elicitation-form']).content;
      const checked = validateElicitation(schema, given ?? {});
      if (checked.ok) return { action: 'accept', content: checked.content };
      this.context.note(
        `[switchboard] the form's answer does not fit what ${server} asked (${describeErrors(fields, checked.errors)})${attempt < formAttempts ? '; asking again' : '; cancelled'}`,
      );
      if (attempt >= formAttempts) return { action: 'cancel' };
      problems = checked.errors;
    }
  }
}

function resultOf(answer: RequestAnswer): ElicitResult {
  return { action: answer.action };
}
