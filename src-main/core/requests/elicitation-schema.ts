/**
 * Elicitation forms (MCP `elicitation/create`, form mode): the flat object schema a server asks to be filled in,
 * read into fields, filled with its defaults (SEP-1034) and checked before an answer goes back. UI-independent and
 * Electron-free: the core checks every accepted answer with it, the CLI prompts field by field with it, and the
 * renderer may import it too (it uses no `node:` module).
 *
 * The schema is the restricted subset the spec allows: properties of type string (with `format` email, uri, date,
 * date-time; `minLength`/`maxLength`; `enum`, titled `oneOf`/`anyOf` of `{const, title}`, legacy `enumNames`),
 * number / integer (`minimum`/`maximum`), boolean, and array of enum strings (multi-select, `minItems`/`maxItems`).
 */

import type { FormProblemCode } from '../../../src-shared/contract/requests';

export type ElicitationValue = string | number | boolean | string[];
export type ElicitationContent = Record<string, ElicitationValue>;

export interface ElicitationOption {
  value: string;
  title: string;
}

export interface ElicitationField {
  name: string;
  /** The property's `title`, else its name. */
  title: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  required: boolean;
  default?: ElicitationValue;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** The choices of an enum string, or of a multi-select array's items. */
  options?: ElicitationOption[];
  /** An array of choices (multi-select). */
  multiple: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** One field's problem: its name, the English text (without the name) and the code and data (`data.field`: its title). */
export interface FieldError extends ValueProblem {
  field: string;
}

export type ValidationResult = { ok: true; content: ElicitationContent } | { ok: false; errors: FieldError[] };

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const formats = ['email', 'uri', 'date', 'date-time'] as const;
const fieldTypes = ['string', 'number', 'integer', 'boolean', 'array'] as const;

function isValue(value: unknown): value is ElicitationValue {
  return (
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A string property's or an array's items' choices: `enum` (+ legacy `enumNames`), or titled `oneOf`/`anyOf`. */
function optionsOf(schema: Json): ElicitationOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.flatMap((value: unknown, index) => {
      if (typeof value !== 'string') return [];
      const name: unknown = names[index];
      return [{ value, title: typeof name === 'string' ? name : value }];
    });
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!titled) return undefined;
  return titled.flatMap((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.const !== 'string') return [];
    return [{ value: entry.const, title: typeof entry.title === 'string' ? entry.title : entry.const }];
  });
}

/** The schema's fields, in the server's order. Properties of a type the spec does not allow are left out. */
export function elicitationFields(schema: Record<string, unknown>): ElicitationField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: ElicitationField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (!isRecord(raw)) continue;
    const type = fieldTypes.find((t) => t === raw.type);
    if (!type) continue;
    const items = isRecord(raw.items) ? raw.items : undefined;
    const options = type === 'array' ? (items ? optionsOf(items) : undefined) : type === 'string' ? optionsOf(raw) : undefined;
    const format = formats.find((f) => f === raw.format);
    const field: ElicitationField = {
      name,
      title: typeof raw.title === 'string' && raw.title !== '' ? raw.title : name,
      type,
      required: required.has(name),
      multiple: type === 'array',
    };
    if (typeof raw.description === 'string') field.description = raw.description;
    if (isValue(raw.default)) field.default = raw.default;
    if (format) field.format = format;
    if (options) field.options = options;
    const bounds: Array<[keyof ElicitationField & ('minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems'), unknown]> = [
      ['minimum', raw.minimum],
      ['maximum', raw.maximum],
      ['minLength', raw.minLength],
      ['maxLength', raw.maxLength],
      ['minItems', raw.minItems],
      ['maxItems', raw.maxItems],
    ];
    for (const [key, value] of bounds) {
      const n = numberOf(value);
      if (n !== undefined) field[key] = n;
    }
    fields.push(field);
  }
  return fields;
}

/** The answer with every field the person left out given its schema default (SEP-1034). */
export function withDefaults(schema: Record<string, unknown>, content: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  for (const field of elicitationFields(schema)) {
    if (out[field.name] === undefined && field.default !== undefined) out[field.name] = Array.isArray(field.default) ? [...field.default] : field.default;
  }
  return out;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** What is wrong with a value, without the field's name: the English text beside its code and data. */
export interface ValueProblem {
  code: FormProblemCode;
  data: Record<string, string | number>;
  message: string;
}

const problem = (code: FormProblemCode, message: string, data: Record<string, string | number> = {}): ValueProblem => ({ code, data, message });

/** The problem with the field's title in its data (`data.field`), which the UI and the CLI word it with. */
const titled = (field: ElicitationField, found: ValueProblem): ValueProblem => ({ ...found, data: { ...found.data, field: field.title } });

function formatProblem(format: ElicitationField['format'], value: string): ValueProblem | undefined {
  switch (format) {
    case 'email':
      return emailPattern.test(value) ? undefined : problem('not-email', 'must be an email address (name@example.com)');
    case 'uri': {
      try {
        const url = new URL(value);
        return url.protocol ? undefined : problem('not-uri', 'must be a URI');
      } catch {
        return problem('not-uri', 'must be a URI (e.g. https://example.com/)');
      }
    }
    case 'date':
      return datePattern.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : problem('not-date', 'must be a date (YYYY-MM-DD)');
    case 'date-time':
      return dateTimePattern.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : problem('not-date-time', 'must be a date and time (e.g. 2026-01-31T12:00:00Z)');
    default:
      return undefined;
  }
}

/** What is wrong with one value (code, data and English text), or undefined when it fits the field. */
export function fieldProblem(field: ElicitationField, value: unknown): ValueProblem | undefined {
  const choices = field.options?.map((o) => o.value);
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return problem('not-text', 'must be text');
      if (choices && !choices.includes(value)) return problem('not-a-choice', `must be one of ${choices.join(', ')}`, { choices: choices.join(', ') });
      if (field.minLength !== undefined && value.length < field.minLength) {
        return field.minLength === 1
          ? problem('empty', 'must not be empty')
          : problem('too-short', `must be at least ${field.minLength} characters`, { min: field.minLength });
      }
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return problem('too-long', `must be at most ${field.maxLength} characters`, { max: field.maxLength });
      return formatProblem(field.format, value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem('not-number', 'must be a number');
      if (field.type === 'integer' && !Number.isInteger(value)) return problem('not-whole', 'must be a whole number');
      if (field.minimum !== undefined && value < field.minimum) return problem('too-small', `must be at least ${field.minimum}`, { min: field.minimum });
      if (field.maximum !== undefined && value > field.maximum) return problem('too-large', `must be at most ${field.maximum}`, { max: field.maximum });
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : problem('not-boolean', 'must be true or false');
    case 'array': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return problem('not-a-list', 'must be a list of choices');
      const unknown = choices ? value.filter((v) => !choices.includes(v)) : [];
      if (unknown.length > 0)
        return problem('unknown-choices', `has ${unknown.join(', ')}, not among ${choices?.join(', ') ?? ''}`, {
          unknown: unknown.join(', '),
          choices: choices?.join(', ') ?? '',
        });
      if (new Set(value).size !== value.length) return problem('repeated-choice', 'names a choice twice');
      if (field.minItems !== undefined && value.length < field.minItems)
        return problem('too-few-choices', `needs at least ${field.minItems} choice(s)`, { count: field.minItems });
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return problem('too-many-choices', `allows at most ${field.maxItems} choice(s)`, { count: field.maxItems });
      return undefined;
    }
  }
}

/**
 * Checks an accepted answer against the requested schema, after filling in defaults: every required field present,
 * every value of its field's type and within its bounds, no field the schema does not ask for. Answers the content
 * to send (defaults included).
 */
export function validateElicitation(schema: Record<string, unknown>, content: Readonly<Record<string, unknown>>): ValidationResult {
  const fields = elicitationFields(schema);
  const filled = withDefaults(schema, content);
  const errors: FieldError[] = [];
  const out: ElicitationContent = {};
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(filled)) {
    if (!known.has(name) && filled[name] !== undefined) errors.push({ field: name, ...problem('not-a-field', 'is not a field of this form', { field: name }) });
  }
  for (const field of fields) {
    const value = filled[field.name];
    if (value === undefined || value === null) {
      if (field.required) errors.push({ field: field.name, ...titled(field, problem('required', 'is required')) });
      continue;
    }
    const error = fieldProblem(field, value);
    if (error !== undefined) errors.push({ field: field.name, ...titled(field, error) });
    else if (isValue(value)) out[field.name] = value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, content: out };
}

/** The errors as one line a person reads ("email must be an email address; name is required"). */
export function describeErrors(fields: readonly ElicitationField[], errors: readonly FieldError[]): string {
  return errors.map((e) => `${fields.find((f) => f.name === e.field)?.title ?? e.field} ${e.message}`).join('; ');
}

/** A line that is not the field's value: the English text (with the field's title), and its code and data (`data.field`: the title). */
export type ParsedField = { ok: true; value: ElicitationValue | undefined } | ({ ok: false } & ValueProblem);

function refused(field: ElicitationField, found: ValueProblem, message = `${field.title} ${found.message}`): ParsedField {
  return { ok: false, ...titled(field, found), message };
}

/**
 * One typed line as a field's value (the CLI's prompt): an empty line is the default (or nothing, for an optional
 * field without one); booleans take y/yes/true/n/no/false; an enum takes the value, its title or its 1-based
 * number; a multi-select takes those separated by commas. The value is checked against the field.
 */
export function parseFieldText(field: ElicitationField, text: string): ParsedField {
  const line = text.trim();
  if (line === '') {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? refused(field, problem('required', 'is required')) : { ok: true, value: undefined };
  }
  let value: ElicitationValue;
  const choose = (word: string): string | undefined => {
    const options = field.options ?? [];
    const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
    return options[index]?.value ?? options.find((o) => o.value === word || o.title.toLowerCase() === word.toLowerCase())?.value;
  };
  switch (field.type) {
    case 'boolean': {
      const lower = line.toLowerCase();
      if (['y', 'yes', 'true'].includes(lower)) value = true;
      else if (['n', 'no', 'false'].includes(lower)) value = false;
      else return refused(field, problem('yes-or-no', 'answer yes or no'), `${field.title}: answer yes or no`);
      break;
    }
    case 'number':
    case 'integer': {
      const n = Number(line);
      if (!Number.isFinite(n)) return refused(field, problem('not-number', 'must be a number'));
      value = n;
      break;
    }
    case 'array': {
      const words = line
        .split(',')
        .map((w) => w.trim())
        .filter((w) => w !== '');
      const picked = words.map((w) => choose(w) ?? w);
      value = picked;
      break;
    }
    case 'string':
      value = field.options ? (choose(line) ?? line) : line;
      break;
  }
  const error = fieldProblem(field, value);
  return error === undefined ? { ok: true, value } : refused(field, error);
}
