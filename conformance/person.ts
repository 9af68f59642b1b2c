import type { AcceptContent, PendingRequestView, RequestAnswer } from '../src-shared/contract/requests';
import type { RequestQueue } from '../src-main/core/requests/queue';
import type { Disposable } from '../src-shared/lifecycle';

/**
 * The "test person" of the conformance client: whatever Switchboard's request queue asks (a tool approval, a
 * sampling request and its result, an elicitation form, a URL consent) is answered as a cooperative person at the
 * UI would: accept, with a form whose defaulted fields are left untouched (the core fills them in) and the others
 * given a plausible value. It answers only through the queue, like the UI and the CLI do.
 */
export class TestPerson implements Disposable {
  private readonly subscription: Disposable;
  /** What was asked, in order (for the client's log). */
  readonly seen: PendingRequestView[] = [];

  constructor(private readonly queue: RequestQueue) {
    this.subscription = queue.onDidChange((change) => {
      if (change.added) this.answer(change.added);
    });
    for (const pending of queue.list()) this.answer(pending);
  }

  private answer(request: PendingRequestView): void {
    this.seen.push(request);
    // Answered on the next tick, as a person's click would be: never inside the queue's own event.
    setImmediate(() => this.queue.answer(request.id, answerFor(request)));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** The cooperative person's answer to one request. */
export function answerFor(request: PendingRequestView): RequestAnswer {
  switch (request.kind) {
    case 'tool-approval':
      return { action: 'accept', content: {} satisfies AcceptContent['tool-approval'] };
    case 'sampling':
      return { action: 'accept', content: {} satisfies AcceptContent['sampling'] };
    case 'sampling-result':
      return { action: 'accept', content: {} satisfies AcceptContent['sampling-result'] };
    case 'elicitation-form':
      return { action: 'accept', content: { content: fillForm(request.payload.requestedSchema) } satisfies AcceptContent['elicitation-form'] };
    case 'elicitation-url':
      return { action: 'accept', content: {} satisfies AcceptContent['elicitation-url'] };
  }
}

type FormValue = string | number | boolean | string[];

/**
 * An elicitation form as the test person submits it: a field with a default is left as it is and not sent, so
 * that Switchboard's core must fill in the default (SEP-1034, what the suite checks); every other field gets a
 * value of its type (the first enum option, `true`, the minimum or 1, a string that fits its format).
 */
export function fillForm(schema: Record<string, unknown>): Record<string, FormValue> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const content: Record<string, FormValue> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (!isRecord(field) || field.default !== undefined) continue;
    const value = fieldValue(field);
    if (value !== undefined) content[name] = value;
  }
  return content;
}

function fieldValue(field: Record<string, unknown>): FormValue | undefined {
  const options = enumOptions(field);
  switch (field.type) {
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return typeof field.minimum === 'number' ? field.minimum : 1;
    case 'array': {
      const items = isRecord(field.items) ? enumOptions(field.items) : [];
      return items.slice(0, 1);
    }
    case 'string':
      return options[0] ?? sampleString(field.format);
    default:
      return options[0];
  }
}

/** A string field's options: `enum`, or titled `oneOf`/`anyOf` entries with `const` (SEP-1330). */
function enumOptions(field: Record<string, unknown>): string[] {
  if (Array.isArray(field.enum)) return field.enum.filter((v): v is string => typeof v === 'string');
  const titled = Array.isArray(field.oneOf) ? field.oneOf : Array.isArray(field.anyOf) ? field.anyOf : [];
  return titled.flatMap((entry: unknown) => (isRecord(entry) && typeof entry.const === 'string' ? [entry.const] : []));
}

function sampleString(format: unknown): string {
  switch (format) {
    case 'email':
      return 'test.person@example.com';
    case 'uri':
      return 'https://example.com/';
    case 'date':
      return '2026-01-01';
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    default:
      return 'test';
  }
}

/**
 * Arguments for a tool the test person calls: given ones (the scenario's context) as they are; otherwise each
 * required parameter gets its default or a value of its type, as a person filling the app's call form would.
 */
export function argumentsFor(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = isRecord(inputSchema.properties) ? inputSchema.properties : {};
  const required = Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const field = properties[name];
    if (!isRecord(field)) {
      args[name] = 'test';
      continue;
    }
    if (field.default !== undefined) args[name] = field.default;
    else if (field.type === 'object') args[name] = {};
    else if (field.type === 'null') args[name] = null;
    else args[name] = fieldValue(field) ?? 'test';
  }
  return args;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
