import { spawn } from 'node:child_process';
import type { PendingRequestView, RequestSettledView, SamplingPayload } from '../../src-shared/contract/requests';
import { requestReasonText } from '../../src-shared/i18n/forms.words';
import type { ElicitationField } from '../core/requests/elicitation-schema';
import { cliLanguage, cliNumber, cliT } from './i18n';
import { displayWidth, padDisplay } from './output';
import type { Terminal } from './terminal';

/*
 * The words and lines the CLI's request prompts are made of; the answerer that asks them is requests.ts.
 */

/** Why a request was declined without asking: nothing can answer it (the host is made non-interactive with it). */
export const noTerminalReason = 'there is no terminal to ask on: run it in a terminal to answer, or pass --approve all to allow sampling without asking';

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

export const kindWord = (kind: PendingRequestView['kind']): string => cliT(kindKeys[kind]);
export const outcomeWord = (outcome: RequestSettledView['outcome']): string => cliT(outcomeKeys[outcome]);

/** A request's heading: the host's own title in English; in another language worded from its kind and server. */
export function titleOf(request: PendingRequestView): string {
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
export function reasonText(settled: RequestSettledView): string | undefined {
  if (settled.reason !== undefined) return requestReasonText(cliT, settled.reason);
  return settled.message === noTerminalReason ? cliT('cliOut.requests.noTerminal') : settled.message;
}

/** `  label:  value` lines with the values in one column `width` wide (continuation lines under the value). */
export function labelled(terminal: Terminal, width: number): (label: string, value: string) => void {
  return (label, value) => terminal.say(`  ${padDisplay(label, width)} ${indent(value, 2 + Math.max(width, displayWidth(label)) + 1)}`);
}

export function samplingSummary(payload: SamplingPayload): string {
  const last = payload.messages.at(-1);
  return cliT('cliOut.requests.summary', {
    messages: cliNumber(payload.messages.length),
    maxTokens: cliNumber(payload.maxTokens),
    last: last ? cliT('cliOut.requests.summaryLast', { text: oneLine(last.text, 100) }) : '',
  });
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A server's text under a label `width` columns wide: each continuation line starts with `│`, so that no line of it
 * can pass for one of the prompt's own (a message that writes "host: …" and "URL: …" lines of its own shows them as
 * quoted, above the real ones).
 */
export function indent(text: string, width: number): string {
  return text.replace(/\r?\n/g, `\n${' '.repeat(Math.max(0, width - 2))}│ `);
}

export function isHttps(url: string): boolean {
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

export function describeField(field: ElicitationField, say: (line: string) => void): void {
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
