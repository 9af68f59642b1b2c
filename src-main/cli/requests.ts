import type {
  AcceptContent,
  ElicitationFormPayload,
  ElicitationUrlPayload,
  PendingRequestView,
  RequestAnswer,
  SamplingPayload,
  SamplingResultPayload,
} from '../../src-shared/contract/requests';
import type { Disposable } from '../../src-shared/lifecycle';
import { describeErrors, elicitationFields, parseFieldText, validateElicitation, type ElicitationContent } from '../core/requests/elicitation-schema';
import type { RequestQueue } from '../core/requests/queue';
import type { CliArgs } from './args';
import { formProblemText, formProblemsText } from '../../src-shared/i18n/forms.words';
import { cliNumber, cliT } from './i18n';
import { displayWidth } from './output';
import { canAskOn, terminalFor, type Terminal, type TerminalIo } from './terminal';
import {
  describeField,
  fieldHint,
  indent,
  isHttps,
  kindWord,
  labelled,
  noTerminalReason,
  oneLine,
  openInBrowser,
  outcomeWord,
  reasonText,
  samplingSummary,
  titleOf,
} from './request-text';

export { fieldHint, noTerminalReason, openInBrowser } from './request-text';

/**
 * The CLI face of the request queue: what servers ask of the person (sampling, elicitation forms, URL consent),
 * answered on a terminal one request at a time, in the order they arrived, with the question on stderr.
 *
 * `--approve` governs sampling for every command that connects: `all` accepts it (and the model's answer) without
 * asking, `none` declines it, `ask` (the default; `readonly` too, which only matters for the chat's tool calls)
 * prompts on a terminal. Without a terminal the host is made non-interactive, so every request is declined at once
 * with a reason saying how to fix it, and nothing waits for an answer that cannot come. The chat's own tool
 * approvals keep their prompt in commands/chat-run.ts (on the same Terminal), so this answerer leaves `tool-approval` alone.
 */

export type SamplingApproval = 'ask' | 'all' | 'none';

/** `--approve` as it applies to sampling (`readonly` concerns chat tools only: sampling is asked). */
export function samplingApproval(approve: CliArgs['approve']): SamplingApproval {
  return approve === 'all' || approve === 'none' ? approve : 'ask';
}

/**
 * The createHost options for a command: interactive on a terminal, or with `--approve all` (sampling is then
 * answered without asking, and anything else declined at once); otherwise non-interactive with the reason.
 */
export function answeringOptions(
  args: Pick<CliArgs, 'approve'>,
  io: TerminalIo = process,
): { interactive: boolean; noAnswererReason: string; answerSource: 'cli' } {
  const interactive = canAskOn(io) || samplingApproval(args.approve) === 'all';
  // answerSource: the audit log says these were answered (or declined) by the CLI, not the app.
  return { interactive, noAnswererReason: noTerminalReason, answerSource: 'cli' };
}

export interface AnswererOptions {
  approve: SamplingApproval;
  io?: TerminalIo;
  /** Opens an https URL in the person's browser; resolves whether a browser was started. */
  openUrl?: (url: string) => Promise<boolean>;
}

/** Subscribes to the queue and answers what is added; dispose() stops listening and gives the terminal back. */
export class RequestAnswerer implements Disposable {
  private readonly terminal: Terminal;
  private readonly openUrl: (url: string) => Promise<boolean>;
  private readonly backlog: PendingRequestView[] = [];
  /** Ids added and not settled yet: a settled id never added was declined at once (no one can answer). */
  private readonly seen = new Set<string>();
  private readonly subscription: Disposable;
  private current: { id: string; abort: AbortController; answered: boolean } | undefined;
  private running: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly queue: RequestQueue,
    private readonly options: AnswererOptions,
  ) {
    this.terminal = terminalFor(options.io ?? process);
    this.openUrl = options.openUrl ?? openInBrowser;
    this.subscription = queue.onDidChange((change) => {
      if (change.added) {
        this.seen.add(change.added.id);
        this.backlog.push(change.added);
        this.running = this.running.then(() => this.drain());
      }
      const settled = change.settled;
      if (!settled) return;
      const wasAdded = this.seen.delete(settled.id);
      if (!wasAdded && settled.outcome === 'declined' && settled.kind !== 'tool-approval') {
        // Declined at once (no one can answer): say what was declined and how to answer next time.
        this.terminal.say(
          `  ✗ ${cliT('cliOut.requests.declinedBecause', { server: settled.server, kind: kindWord(settled.kind), reason: reasonText(settled) ?? cliT('cliOut.requests.noOneToAnswer') })}`,
        );
      } else if (this.current?.id === settled.id && !this.current.answered) {
        // Settled while it was being asked (timed out, withdrawn, the server went away): stop asking.
        this.current.abort.abort();
        const message = reasonText(settled);
        this.terminal.say(
          `  ✗ ${cliT('cliOut.requests.settled', { server: settled.server, kind: kindWord(settled.kind), outcome: outcomeWord(settled.outcome), message: message ? ` — ${message}` : '' })}`,
        );
      }
    });
  }

  /** Resolves when everything added so far has been answered (or skipped). */
  idle(): Promise<void> {
    return this.running;
  }

  private async drain(): Promise<void> {
    const request = this.backlog.shift();
    // Answered elsewhere, timed out or withdrawn before its turn: nothing to ask.
    if (!request || this.disposed || !this.queue.get(request.id)) return;
    if (request.kind === 'tool-approval') return;
    const abort = new AbortController();
    const current = { id: request.id, abort, answered: false };
    this.current = current;
    try {
      const answer = await this.answerOf(request, abort.signal);
      current.answered = true;
      if (answer && !abort.signal.aborted) this.queue.answer(request.id, answer);
    } catch (error) {
      current.answered = true;
      this.queue.answer(request.id, { action: 'cancel', reason: `the terminal prompt failed: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      this.current = undefined;
    }
  }

  /** The answer to one request, or undefined when the request went away while it was being asked. */
  private async answerOf(request: PendingRequestView, signal: AbortSignal): Promise<RequestAnswer | undefined> {
    const approve = this.options.approve;
    if (request.kind === 'sampling' || request.kind === 'sampling-result') {
      if (approve === 'none') {
        this.terminal.say(`  ✗ ${cliT('cliOut.requests.declinedByFlag', { server: request.server, kind: kindWord(request.kind) })}`);
        return { action: 'decline', reason: 'sampling is declined by --approve none' };
      }
      if (approve === 'all') {
        this.terminal.say(
          request.kind === 'sampling'
            ? `  ✓ ${cliT('cliOut.requests.samplingAllowed', { server: request.server, summary: samplingSummary(request.payload) })}`
            : `  ✓ ${cliT('cliOut.requests.answerSent', { server: request.server, text: oneLine(request.payload.text, 120) })}`,
        );
        return { action: 'accept', content: {} };
      }
    }
    if (!this.terminal.canAsk) {
      this.terminal.say(
        `  ✗ ${cliT('cliOut.requests.declinedBecause', { server: request.server, kind: kindWord(request.kind), reason: cliT('cliOut.requests.noTerminal') })}`,
      );
      return { action: 'decline', reason: noTerminalReason };
    }
    const ask = (question: string): Promise<string | undefined> => this.terminal.ask(question, signal);
    switch (request.kind) {
      case 'sampling':
        return this.askSampling(request, request.payload, ask);
      case 'sampling-result':
        return this.askSamplingResult(request, request.payload, ask);
      case 'elicitation-form':
        return this.askForm(request, request.payload, ask);
      case 'elicitation-url':
        return this.askUrl(request, request.payload, ask);
      default:
        return undefined;
    }
  }

  private header(request: PendingRequestView): void {
    const left = request.deadline !== undefined ? Math.max(0, Math.round((request.deadline - Date.now()) / 1000)) : undefined;
    const time =
      left === undefined
        ? ''
        : left >= 120
          ? cliT('cliOut.requests.minutes', { n: cliNumber(Math.round(left / 60)) })
          : cliT('cliOut.requests.seconds', { n: cliNumber(left) });
    this.terminal.say(`\n${titleOf(request)}${left !== undefined ? cliT('cliOut.requests.within', { time }) : ''}`);
  }

  private async askSampling(request: PendingRequestView, payload: SamplingPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    this.header(request);
    const labels = {
      server: cliT('cliOut.requests.serverLabel'),
      systemPrompt: cliT('cliOut.requests.systemPromptLabel'),
      maxTokens: cliT('cliOut.requests.maxTokensLabel'),
      preferences: cliT('cliOut.requests.preferencesLabel'),
      tools: cliT('cliOut.requests.toolsLabel'),
      model: cliT('cliOut.requests.modelLabel'),
    };
    // The values in one column (includeContext's longer label only pushes its own line); roles are labels too.
    const width = Math.max(...Object.values(labels).map(displayWidth));
    const say = labelled(this.terminal, width);
    say(labels.server, request.server);
    if (payload.systemPrompt !== undefined) say(labels.systemPrompt, payload.systemPrompt);
    for (const message of payload.messages) say(`${message.role}:`, message.text);
    const temperature = payload.temperature !== undefined ? cliT('cliOut.requests.temperature', { temperature: cliNumber(payload.temperature) }) : '';
    const stop = payload.stopSequences?.length ? cliT('cliOut.requests.stop', { stop: JSON.stringify(payload.stopSequences) }) : '';
    say(labels.maxTokens, `${cliNumber(payload.maxTokens)}${temperature}${stop}`);
    if (payload.includeContext !== undefined) say(cliT('cliOut.requests.includeContextLabel'), payload.includeContext);
    if (payload.modelPreferences !== undefined) say(labels.preferences, oneLine(JSON.stringify(payload.modelPreferences), 200));
    if (payload.tools?.length) say(labels.tools, payload.tools.map((t) => t.name).join(', '));
    say(labels.model, payload.model ?? (payload.models.length ? (payload.models[0] ?? '') : cliT('cliOut.requests.noModel')));
    const pick = payload.models.length > 1 ? cliT('cliOut.requests.pickModel') : '';
    for (;;) {
      const reply = await ask(cliT('cliOut.requests.runModel', { server: request.server, pick }));
      if (reply === undefined) return signalledOrDecline();
      const key = reply.toLowerCase();
      if (key === 'y' || key === 'yes') return { action: 'accept', content: {} };
      if ((key === 'm' || key === 'model') && payload.models.length > 1) {
        payload.models.forEach((model, i) =>
          this.terminal.say(`  ${String(i + 1).padStart(2)}) ${model}${model === payload.model ? cliT('cliOut.requests.defaultModel') : ''}`),
        );
        const chosen = await ask(cliT('cliOut.requests.modelNumber', { model: payload.model ?? payload.models[0] ?? '' }));
        if (chosen === undefined) return signalledOrDecline();
        const model = chosen === '' ? payload.model : payload.models[Number(chosen) - 1];
        if (model === undefined) {
          this.terminal.say(`  ${cliT('cliOut.requests.notANumber', { chosen })}`);
          continue;
        }
        const content: AcceptContent['sampling'] = { model };
        return { action: 'accept', content };
      }
      return { action: 'decline', reason: 'the person declined' };
    }
  }

  private async askSamplingResult(request: PendingRequestView, payload: SamplingResultPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    this.header(request);
    const labels = { model: cliT('cliOut.requests.answerModelLabel'), answer: cliT('cliOut.requests.answerLabel') };
    const say = labelled(this.terminal, Math.max(...Object.values(labels).map(displayWidth)));
    say(labels.model, `${payload.model}${payload.stopReason ? cliT('cliOut.requests.stopReason', { reason: payload.stopReason }) : ''}`);
    say(labels.answer, payload.text);
    const reply = await ask(cliT('cliOut.requests.sendAnswer', { server: request.server }));
    if (reply === undefined) return signalledOrDecline();
    const key = reply.toLowerCase();
    if (key === 'y' || key === 'yes' || key === 's' || key === 'send') return { action: 'accept', content: {} };
    if (key === 'e' || key === 'edit') {
      const text = await ask(cliT('cliOut.requests.yourAnswer'));
      if (text === undefined) return signalledOrDecline();
      const content: AcceptContent['sampling-result'] = { text };
      return { action: 'accept', content };
    }
    return { action: 'decline', reason: 'the person declined to send the model’s answer' };
  }

  private async askForm(request: PendingRequestView, payload: ElicitationFormPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    const say = (line: string): void => this.terminal.say(line);
    const schema = payload.requestedSchema;
    this.header(request);
    const asks = cliT('cliOut.requests.formAsks', { server: request.server });
    say(`${asks}${indent(payload.message, displayWidth(asks))}`);
    // Asked again by the host after an answer that did not fit: what was wrong, in the CLI's language.
    if (payload.problems !== undefined && payload.problems.length > 0) say(cliT('forms.notAccepted', { problems: formProblemsText(cliT, payload.problems) }));
    const fields = elicitationFields(schema);
    const properties = typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
    const leftOut = properties.filter((name) => !fields.some((f) => f.name === name));
    if (leftOut.length) say(cliT('cliOut.requests.leftOut', { names: leftOut.join(', ') }));
    say(cliT('cliOut.requests.fields', { fields: fields.map((f) => `${f.title}${f.required ? ' *' : ''}`).join(', ') || cliT('cliOut.none') }));
    const start = await ask(cliT('cliOut.requests.fillIn'));
    if (start === undefined) return signalledOrDecline();
    const key = start.toLowerCase();
    if (key === 'c' || key === 'cancel') return { action: 'cancel', reason: 'the person cancelled' };
    if (key !== 'y' && key !== 'yes') return { action: 'decline', reason: 'the person declined' };
    say(cliT('cliOut.requests.formHelp'));
    const content: ElicitationContent = {};
    let asking = fields;
    for (;;) {
      for (const field of asking) {
        describeField(field, say);
        for (;;) {
          const raw = await ask(cliT('cliOut.requests.fieldPrompt', { title: field.title, required: field.required ? ' *' : '', hint: fieldHint(field) }));
          if (raw === undefined) return signalledOrDecline();
          const parsed = parseFieldText(field, raw);
          if (!parsed.ok) {
            say(`    ${cliT('forms.refused', { problem: formProblemText(cliT, parsed) })}`);
            continue;
          }
          if (parsed.value === undefined) delete content[field.name];
          else content[field.name] = parsed.value;
          break;
        }
      }
      // The whole answer, as core checks it before it goes back (defaults filled in); what fails is asked again.
      const checked = validateElicitation(schema, content);
      if (checked.ok) {
        const answer: AcceptContent['elicitation-form'] = { content: checked.content };
        return { action: 'accept', content: answer };
      }
      say(cliT('cliOut.requests.notAccepted', { errors: formProblemsText(cliT, checked.errors) }));
      const failing = fields.filter((f) => checked.errors.some((e) => e.field === f.name));
      if (failing.length === 0) return { action: 'decline', reason: `the form cannot be filled in here: ${describeErrors(fields, checked.errors)}` };
      asking = failing;
    }
  }

  private async askUrl(request: PendingRequestView, payload: ElicitationUrlPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    const say = (line: string): void => this.terminal.say(line);
    this.header(request);
    say(cliT('cliOut.requests.linkAsks', { server: request.server, message: indent(payload.message, 4) }));
    const labels = { host: cliT('cliOut.requests.hostLabel'), url: cliT('cliOut.requests.urlLabel') };
    const line = labelled(this.terminal, Math.max(...Object.values(labels).map(displayWidth)));
    line(labels.host, payload.host);
    line(labels.url, payload.url);
    const secure = isHttps(payload.url);
    if (!secure) say(cliT('cliOut.requests.notHttps'));
    const reply = await ask(secure ? cliT('cliOut.requests.openIt') : cliT('cliOut.requests.consent'));
    if (reply === undefined) return signalledOrDecline();
    const key = reply.toLowerCase();
    if (key !== 'y' && key !== 'yes') return { action: 'decline', reason: 'the person declined to open the link' };
    if (secure) {
      const opened = await this.openUrl(payload.url).catch(() => false);
      say(opened ? cliT('cliOut.requests.opened', { host: payload.host }) : cliT('cliOut.requests.noBrowser'));
    }
    const content: AcceptContent['elicitation-url'] = {};
    return { action: 'accept', content };
  }

  /** Stops answering; what is pending stays in the queue (the host's dispose cancels it). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscription.dispose();
    this.current?.abort.abort();
    this.terminal.dispose();
  }
}

type Ask = (question: string) => Promise<string | undefined>;

/** No answer came: the request went away (the caller drops the answer then) or the input ended (decline). */
function signalledOrDecline(): RequestAnswer {
  return { action: 'decline', reason: 'no answer: the terminal input ended' };
}
