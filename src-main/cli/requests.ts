import { spawn } from 'node:child_process';
import type {
  AcceptContent,
  ElicitationFormPayload,
  ElicitationUrlPayload,
  PendingRequestView,
  RequestAnswer,
  RequestSettledView,
  SamplingPayload,
  SamplingResultPayload,
} from '../../src-shared/contract/requests';
import type { Disposable } from '../../src-shared/lifecycle';
import {
  describeErrors,
  elicitationFields,
  parseFieldText,
  validateElicitation,
  type ElicitationContent,
  type ElicitationField,
} from '../core/requests/elicitation-schema';
import type { RequestQueue } from '../core/requests/queue';
import type { CliArgs } from './args';
import { formProblemText, formProblemsText, requestReasonText } from '../../src-shared/i18n/forms.words';
import { cliLanguage, cliNumber, cliT } from './i18n';
import { displayWidth, padDisplay } from './output';
import { canAskOn, terminalFor, type Terminal, type TerminalIo } from './terminal';

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

export const noTerminalReason = 'there is no terminal to ask on: run it in a terminal to answer, or pass --approve all to allow sampling without asking';

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

/** The catalogue's word for each kind and outcome (a Record: one added without its word does not compile). */
const kindKeys = {
  'tool-approval': 'cliOut.requests.kindToolApproval',
  sampling: 'cliOut.requests.kindSampling',
  'sampling-result': 'cliOut.requests.kindSamplingResult',
  'elicitation-form': 'cliOut.requests.kindForm',
  'elicitation-url': 'cliOut.requests.kindLink',
} as const satisfies Record<PendingRequestView['kind'], string>;

const outcomeKeys = {
  accepted: 'cliOut.requests.outcomeAccepted',
  declined: 'cliOut.requests.outcomeDeclined',
  cancelled: 'cliOut.requests.outcomeCancelled',
  'timed-out': 'cliOut.requests.outcomeTimedOut',
} as const satisfies Record<RequestSettledView['outcome'], string>;

const kindWord = (kind: PendingRequestView['kind']): string => cliT(kindKeys[kind]);
const outcomeWord = (outcome: RequestSettledView['outcome']): string => cliT(outcomeKeys[outcome]);

/** A request's heading: the host's own title in English; in another language worded from its kind and server. */
function titleOf(request: PendingRequestView): string {
  if (cliLanguage() === 'en') return request.title;
  switch (request.kind) {
    case 'sampling':
      return cliT('cliOut.requests.titleSampling', { server: request.server });
    case 'sampling-result':
      return cliT('cliOut.requests.titleSamplingResult', { server: request.server });
    case 'elicitation-form':
      return cliT('cliOut.requests.titleForm', { server: request.server });
    case 'elicitation-url':
      return cliT('cliOut.requests.titleLink', { server: request.server, host: request.payload.host });
    default:
      return request.title;
  }
}

/**
 * A settled request's reason in the CLI's language: the queue's own from its code and data (timed out, withdrawn,
 * shutting down), ours (no terminal); anyone else's text (a person's answer, a server's) as it is.
 */
function reasonText(settled: RequestSettledView): string | undefined {
  if (settled.reason !== undefined) return requestReasonText(cliT, settled.reason);
  return settled.message === noTerminalReason ? cliT('cliOut.requests.noTerminal') : settled.message;
}

/** `  label:  value` lines with the values in one column `width` wide (continuation lines under the value). */
function labelled(terminal: Terminal, width: number): (label: string, value: string) => void {
  return (label, value) => terminal.say(`  ${padDisplay(label, width)} ${indent(value, 2 + Math.max(width, displayWidth(label)) + 1)}`);
}

function samplingSummary(payload: SamplingPayload): string {
  const last = payload.messages.at(-1);
  return cliT('cliOut.requests.summary', {
    messages: cliNumber(payload.messages.length),
    maxTokens: cliNumber(payload.maxTokens),
    last: last ? cliT('cliOut.requests.summaryLast', { text: oneLine(last.text, 100) }) : '',
  });
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A server's text under a label `width` columns wide: each continuation line starts with `│`, so that no line of it
 * can pass for one of the prompt's own (a message that writes "host: …" and "URL: …" lines of its own shows them as
 * quoted, above the real ones).
 */
function indent(text: string, width: number): string {
  return text.replace(/\r?\n/g, `\n${' '.repeat(Math.max(0, width - 2))}│ `);
}

function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Opens an https URL in the person's browser: `$BROWSER` when set, else the platform's opener (xdg-open, open,
 * explorer). Never a shell: the URL is one argument. Resolves false when nothing could be started.
 */
export function openInBrowser(url: string): Promise<boolean> {
  if (!isHttps(url)) return Promise.resolve(false);
  const browser = process.env.BROWSER?.trim();
  const [command, args] = browser
    ? [browser, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['explorer.exe', [url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

// ── Elicitation forms, field by field (the fields, parsing and checks are core's elicitation-schema) ──────────────

function describeField(field: ElicitationField, say: (line: string) => void): void {
  if (field.description) say(`  ${indent(field.description, 4)}`);
  field.options?.forEach((o, i) => say(`    ${String(i + 1).padStart(2)}) ${o.title}${o.title !== o.value ? ` (${o.value})` : ''}`));
}

/** What a field takes, after its name: `(email)`, `(whole number, 1–100, [42])`, `(number, [1])`. */
export function fieldHint(field: ElicitationField): string {
  const parts: string[] = [];
  const numberOf = (value: unknown): number => (field.options ?? []).findIndex((o) => o.value === value) + 1;
  const hint = (): string => cliT('cliOut.requests.hint', { parts: parts.join(cliT('cliOut.comma')) });
  if (field.options) {
    const howMany =
      field.minItems !== undefined || field.maxItems !== undefined
        ? cliT('cliOut.requests.howMany', { min: cliNumber(field.minItems ?? 0), max: cliNumber(field.maxItems ?? field.options.length) })
        : '';
    parts.push(field.multiple ? `${cliT('cliOut.requests.numbers')}${howMany}` : cliT('cliOut.requests.optionNumber'));
    const picked = (Array.isArray(field.default) ? field.default : field.default !== undefined ? [field.default] : []).map(numberOf).filter((n) => n > 0);
    if (picked.length) parts.push(`[${picked.join(',')}]`);
    return hint();
  }
  switch (field.type) {
    case 'boolean':
      parts.push(field.default === true ? 'Y/n' : field.default === false ? 'y/N' : 'y/n');
      return hint();
    case 'number':
    case 'integer':
      parts.push(field.type === 'integer' ? cliT('cliOut.requests.wholeNumber') : cliT('cliOut.requests.number'));
      if (field.minimum !== undefined || field.maximum !== undefined) parts.push(`${field.minimum ?? '−∞'}–${field.maximum ?? '∞'}`); // values to type, so not grouped
      break;
    case 'array':
      parts.push(cliT('cliOut.requests.commaSeparated'));
      break;
    default:
      if (field.format)
        parts.push(field.format === 'date' ? cliT('cliOut.requests.date') : field.format === 'date-time' ? cliT('cliOut.requests.dateTime') : field.format);
      if (field.minLength !== undefined || field.maxLength !== undefined) {
        parts.push(
          cliT('cliOut.requests.characters', { min: cliNumber(field.minLength ?? 0), max: field.maxLength !== undefined ? cliNumber(field.maxLength) : '∞' }),
        );
      }
      break;
  }
  if (field.default !== undefined) parts.push(`[${String(field.default)}]`);
  return parts.length ? hint() : '';
}
