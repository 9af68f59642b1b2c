import { spawn } from 'node:child_process';
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
import { describeErrors, elicitationFields, parseFieldText, validateElicitation, type ElicitationContent, type ElicitationField } from '../core/requests/elicitation-schema';
import type { RequestQueue } from '../core/requests/queue';
import type { CliArgs } from './args';
import { canAskOn, terminalFor, type Terminal, type TerminalIo } from './terminal';

/**
 * The CLI face of the request queue: what servers ask of the person (sampling, elicitation forms, URL consent),
 * answered on a terminal one request at a time, in the order they arrived, with the question on stderr.
 *
 * `--approve` governs sampling for every command that connects: `all` accepts it (and the model's answer) without
 * asking, `none` declines it, `ask` (the default; `readonly` too, which only matters for the chat's tool calls)
 * prompts on a terminal. Without a terminal the host is made non-interactive, so every request is declined at once
 * with a reason saying how to fix it, and nothing waits for an answer that cannot come. The chat's own tool
 * approvals keep their prompt in chat.ts (on the same Terminal), so this answerer leaves `tool-approval` alone.
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
export function answeringOptions(args: Pick<CliArgs, 'approve'>, io: TerminalIo = process): { interactive: boolean; noAnswererReason: string; answerSource: 'cli' } {
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
        this.terminal.say(`  ✗ ${settled.server}: ${kindText[settled.kind]} declined — ${settled.message ?? 'no one is there to answer'}`);
      } else if (this.current?.id === settled.id && !this.current.answered) {
        // Settled while it was being asked (timed out, withdrawn, the server went away): stop asking.
        this.current.abort.abort();
        this.terminal.say(`  ✗ ${settled.server}: ${kindText[settled.kind]} ${settled.outcome === 'timed-out' ? 'timed out' : settled.outcome}${settled.message ? ` — ${settled.message}` : ''}`);
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
        this.terminal.say(`  ✗ ${request.server}: ${kindText[request.kind]} declined (--approve none)`);
        return { action: 'decline', reason: 'sampling is declined by --approve none' };
      }
      if (approve === 'all') {
        this.terminal.say(request.kind === 'sampling' ? `  ✓ ${request.server}: sampling allowed (--approve all) — ${samplingSummary(request.payload)}` : `  ✓ ${request.server}: the model's answer sent (--approve all) — ${oneLine(request.payload.text, 120)}`);
        return { action: 'accept', content: {} };
      }
    }
    if (!this.terminal.canAsk) {
      this.terminal.say(`  ✗ ${request.server}: ${kindText[request.kind]} declined — ${noTerminalReason}`);
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
    this.terminal.say(`\n${request.title}${left !== undefined ? ` (answer within ${left >= 120 ? `${Math.round(left / 60)} min` : `${left} s`})` : ''}`);
  }

  private async askSampling(request: PendingRequestView, payload: SamplingPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    const say = (line: string): void => this.terminal.say(line);
    this.header(request);
    say(`  server:        ${request.server}`);
    if (payload.systemPrompt !== undefined) say(`  system prompt: ${indent(payload.systemPrompt, 17)}`);
    for (const message of payload.messages) say(`  ${`${message.role}:`.padEnd(14)} ${indent(message.text, 17)}`);
    say(`  maxTokens:     ${payload.maxTokens}${payload.temperature !== undefined ? `, temperature ${payload.temperature}` : ''}${payload.stopSequences?.length ? `, stop ${JSON.stringify(payload.stopSequences)}` : ''}`);
    if (payload.includeContext !== undefined) say(`  includeContext: ${payload.includeContext}`);
    if (payload.modelPreferences !== undefined) say(`  preferences:   ${oneLine(JSON.stringify(payload.modelPreferences), 200)}`);
    if (payload.tools?.length) say(`  tools offered: ${payload.tools.map((t) => t.name).join(', ')}`);
    say(`  model:         ${payload.model ?? (payload.models.length ? payload.models[0] : 'none configured')}`);
    const pick = payload.models.length > 1 ? '  [m] pick another model' : '';
    for (;;) {
      const reply = await ask(`Run the model for ${request.server}?  [y] yes${pick}  [N] decline: `);
      if (reply === undefined) return signalledOrDecline();
      const key = reply.toLowerCase();
      if (key === 'y' || key === 'yes') return { action: 'accept', content: {} };
      if ((key === 'm' || key === 'model') && payload.models.length > 1) {
        payload.models.forEach((model, i) => say(`  ${String(i + 1).padStart(2)}) ${model}${model === payload.model ? ' (default)' : ''}`));
        const chosen = await ask(`Model number (Enter: ${payload.model ?? payload.models[0]}): `);
        if (chosen === undefined) return signalledOrDecline();
        const model = chosen === '' ? payload.model : payload.models[Number(chosen) - 1];
        if (model === undefined) {
          say(`  "${chosen}" is not one of the numbers above.`);
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
    this.terminal.say(`  model:  ${payload.model}${payload.stopReason ? ` (stop: ${payload.stopReason})` : ''}`);
    this.terminal.say(`  answer: ${indent(payload.text, 10)}`);
    const reply = await ask(`Send this answer to ${request.server}?  [y] send  [e] edit  [N] decline: `);
    if (reply === undefined) return signalledOrDecline();
    const key = reply.toLowerCase();
    if (key === 'y' || key === 'yes' || key === 's' || key === 'send') return { action: 'accept', content: {} };
    if (key === 'e' || key === 'edit') {
      const text = await ask('Your answer (one line; Enter sends it): ');
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
    say(`  ${request.server} asks: ${indent(payload.message, 2 + request.server.length + 7)}`);
    const fields = elicitationFields(schema);
    const properties = typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
    const leftOut = properties.filter((name) => !fields.some((f) => f.name === name));
    if (leftOut.length) say(`  (not a field a form can have, left out: ${leftOut.join(', ')})`);
    say(`  Fields: ${fields.map((f) => `${f.title}${f.required ? ' *' : ''}`).join(', ') || 'none'}  (* required)`);
    const start = await ask('Fill in the form?  [y] yes  [N] decline  [c] cancel: ');
    if (start === undefined) return signalledOrDecline();
    const key = start.toLowerCase();
    if (key === 'c' || key === 'cancel') return { action: 'cancel', reason: 'the person cancelled' };
    if (key !== 'y' && key !== 'yes') return { action: 'decline', reason: 'the person declined' };
    say('  (Enter keeps the [default]; an optional field left empty is not sent; Ctrl+D declines.)');
    const content: ElicitationContent = {};
    let asking = fields;
    for (;;) {
      for (const field of asking) {
        describeField(field, say);
        for (;;) {
          const raw = await ask(`  ${field.title}${field.required ? ' *' : ''}${fieldHint(field)}: `);
          if (raw === undefined) return signalledOrDecline();
          const parsed = parseFieldText(field, raw);
          if (!parsed.ok) {
            say(`    ${parsed.message}.`);
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
      say(`    Not accepted: ${describeErrors(fields, checked.errors)}.`);
      const failing = fields.filter((f) => checked.errors.some((e) => e.field === f.name));
      if (failing.length === 0) return { action: 'decline', reason: `the form cannot be filled in here: ${describeErrors(fields, checked.errors)}` };
      asking = failing;
    }
  }

  private async askUrl(request: PendingRequestView, payload: ElicitationUrlPayload, ask: Ask): Promise<RequestAnswer | undefined> {
    const say = (line: string): void => this.terminal.say(line);
    this.header(request);
    say(`  ${request.server} asks you to open a link: ${indent(payload.message, 4)}`);
    say(`  host: ${payload.host}`);
    say(`  URL:  ${payload.url}`);
    const secure = isHttps(payload.url);
    if (!secure) say('  This is not an https link: Switchboard will not open it for you.');
    const reply = await ask(secure ? `Open it in your browser?  [y] open  [N] decline: ` : `Consent (you open it yourself)?  [y] yes  [N] decline: `);
    if (reply === undefined) return signalledOrDecline();
    const key = reply.toLowerCase();
    if (key !== 'y' && key !== 'yes') return { action: 'decline', reason: 'the person declined to open the link' };
    if (secure) {
      const opened = await this.openUrl(payload.url).catch(() => false);
      say(opened ? `  Opened ${payload.host} in your browser.` : '  Could not start a browser: open the URL above yourself.');
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

const kindText: Record<PendingRequestView['kind'], string> = {
  'tool-approval': 'tool approval',
  sampling: 'sampling request',
  'sampling-result': "the model's answer",
  'elicitation-form': 'form',
  'elicitation-url': 'link',
};

function samplingSummary(payload: SamplingPayload): string {
  const last = payload.messages.at(-1);
  return `${payload.messages.length} message(s), maxTokens ${payload.maxTokens}${last ? `: ${oneLine(last.text, 100)}` : ''}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Continuation lines under a label `width` characters wide. */
function indent(text: string, width: number): string {
  return text.replace(/\n/g, `\n${' '.repeat(width)}`);
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
  const [command, args] = browser ? [browser, [url]] : process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['explorer.exe', [url]] : ['xdg-open', [url]];
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
  if (field.description) say(`  ${field.description}`);
  field.options?.forEach((o, i) => say(`    ${String(i + 1).padStart(2)}) ${o.title}${o.title !== o.value ? ` (${o.value})` : ''}`));
}

/** What a field takes, after its name: `(email)`, `(whole number, 1–100, [42])`, `(number, [1])`. */
export function fieldHint(field: ElicitationField): string {
  const parts: string[] = [];
  const numberOf = (value: unknown): number => (field.options ?? []).findIndex((o) => o.value === value) + 1;
  if (field.options) {
    parts.push(field.multiple ? `numbers, comma-separated${field.minItems !== undefined || field.maxItems !== undefined ? `, ${field.minItems ?? 0}–${field.maxItems ?? field.options.length} of them` : ''}` : 'number');
    const picked = (Array.isArray(field.default) ? field.default : field.default !== undefined ? [field.default] : []).map(numberOf).filter((n) => n > 0);
    if (picked.length) parts.push(`[${picked.join(',')}]`);
    return ` (${parts.join(', ')})`;
  }
  switch (field.type) {
    case 'boolean':
      parts.push(field.default === true ? 'Y/n' : field.default === false ? 'y/N' : 'y/n');
      return ` (${parts.join(', ')})`;
    case 'number':
    case 'integer':
      parts.push(field.type === 'integer' ? 'whole number' : 'number');
      if (field.minimum !== undefined || field.maximum !== undefined) parts.push(`${field.minimum ?? '−∞'}–${field.maximum ?? '∞'}`);
      break;
    case 'array':
      parts.push('comma-separated');
      break;
    default:
      if (field.format) parts.push(field.format === 'date' ? 'date YYYY-MM-DD' : field.format === 'date-time' ? 'date-time YYYY-MM-DDTHH:MM:SSZ' : field.format);
      if (field.minLength !== undefined || field.maxLength !== undefined) parts.push(`${field.minLength ?? 0}–${field.maxLength ?? '∞'} characters`);
      break;
  }
  if (field.default !== undefined) parts.push(`[${String(field.default)}]`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
