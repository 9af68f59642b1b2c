/**
 * Turns a tool's `inputSchema` (JSON Schema) into form fields and form values back into arguments.
 * Scalars get real inputs; anything else (objects, arrays, unions we cannot render) is a JSON textarea.
 * Pure and DOM-free, so it is unit-tested without a browser.
 */
import { i18n } from '../i18n';

export type FieldKind = 'number' | 'integer' | 'string' | 'boolean' | 'enum' | 'multi' | 'json';

/** The string formats an input is given for (and checked against); others are plain text. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
const stringFormats: readonly string[] = ['email', 'uri', 'date', 'date-time'] satisfies StringFormat[];

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  /** For `enum` and `multi`: the allowed values (any JSON value). */
  options?: unknown[];
  /** Titles of the options, by index (`oneOf`/`anyOf` `{const, title}`, or the legacy `enumNames`). */
  optionLabels?: (string | undefined)[];
  /** For `string`: the format its input is checked against. */
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
  /** For `multi`: how many may be chosen. */
  minItems?: number;
  maxItems?: number;
  /** For `json`: what shape is expected, to hint and check. */
  jsonShape?: 'object' | 'array' | 'any';
  defaultValue?: unknown;
  minimum?: number;
  maximum?: number;
}

export interface FormSpec {
  fields: FieldSpec[];
  /** The schema has no usable `properties`: the whole arguments object is one JSON textarea. */
  freeform: boolean;
}

/**
 * Raw values as the inputs hold them: always strings ('true'/'false' for booleans, an option index for enums,
 * comma-separated option indexes for multi-selects).
 */
export type FormValues = Record<string, string>;

export const FREEFORM_KEY = '__arguments__';

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** `"number"` or `["number", "null"]` → the one non-null type, if there is exactly one. */
function singleType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    return real.length === 1 ? real[0] : undefined;
  }
  return undefined;
}

function fieldFor(name: string, schema: Record<string, unknown>, required: boolean): FieldSpec {
  const base: FieldSpec = {
    name,
    kind: 'json',
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : name,
    required,
  };
  if (typeof schema.description === 'string') base.description = schema.description;
  if ('default' in schema) base.defaultValue = schema.default;

  const choices = choicesOf(schema);
  if (choices) return { ...base, kind: 'enum', ...choices };

  const type = singleType(schema);
  // An array of choices (elicitation's multi-select): checkboxes.
  const items = type === 'array' ? asRecord(schema.items) : undefined;
  const itemChoices = items ? choicesOf(items) : undefined;
  if (itemChoices) {
    const field: FieldSpec = { ...base, kind: 'multi', ...itemChoices };
    if (typeof schema.minItems === 'number') field.minItems = schema.minItems;
    if (typeof schema.maxItems === 'number') field.maxItems = schema.maxItems;
    return field;
  }
  switch (type) {
    case 'number':
    case 'integer': {
      const field: FieldSpec = { ...base, kind: type };
      if (typeof schema.minimum === 'number') field.minimum = schema.minimum;
      if (typeof schema.maximum === 'number') field.maximum = schema.maximum;
      return field;
    }
    case 'string': {
      const field: FieldSpec = { ...base, kind: 'string' };
      if (typeof schema.format === 'string' && stringFormats.includes(schema.format)) field.format = schema.format as StringFormat;
      if (typeof schema.minLength === 'number') field.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') field.maxLength = schema.maxLength;
      return field;
    }
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'object':
      return { ...base, jsonShape: 'object' };
    case 'array':
      return { ...base, jsonShape: 'array' };
    default:
      return { ...base, jsonShape: 'any' };
  }
}

/**
 * The allowed values of a schema and their titles: `enum` (titles from the legacy `enumNames`), `oneOf` / `anyOf`
 * of `{const, title}` (titled enums), or a lone `const`.
 */
function choicesOf(schema: Record<string, unknown>): Pick<FieldSpec, 'options' | 'optionLabels'> | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : undefined;
    const labels = names ? schema.enum.map((_, i) => (typeof names[i] === 'string' ? names[i] : undefined)) : undefined;
    return { options: schema.enum, ...(labels ? { optionLabels: labels } : {}) };
  }
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (alternatives && alternatives.length > 0) {
    const consts = alternatives.map(asRecord);
    if (consts.every((c) => c !== undefined && 'const' in c)) {
      const entries = consts as Record<string, unknown>[];
      return { options: entries.map((c) => c.const), optionLabels: entries.map((c) => (typeof c.title === 'string' ? c.title : undefined)) };
    }
  }
  if ('const' in schema) return { options: [schema.const] };
  return undefined;
}

export function formFromSchema(inputSchema: Record<string, unknown>): FormSpec {
  const properties = asRecord(inputSchema.properties);
  if (!properties) {
    return { fields: [], freeform: inputSchema.additionalProperties !== false };
  }
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields = Object.entries(properties).map(([name, raw]) => fieldFor(name, asRecord(raw) ?? {}, required.has(name)));
  return { fields, freeform: false };
}

/** A boolean shown as a checkbox always has a value; an optional one is a three-way choice (unset/true/false). */
export const isCheckbox = (field: FieldSpec): boolean => field.kind === 'boolean' && field.required;

export function initialValues(form: FormSpec): FormValues {
  const values: FormValues = {};
  if (form.freeform) values[FREEFORM_KEY] = '{}';
  for (const field of form.fields) values[field.name] = initialValue(field);
  return values;
}

function initialValue(field: FieldSpec): string {
  const value = field.defaultValue;
  switch (field.kind) {
    case 'boolean':
      if (typeof value === 'boolean') return String(value);
      return isCheckbox(field) ? 'false' : '';
    case 'enum': {
      const index = value === undefined ? -1 : (field.options ?? []).findIndex((o) => sameJson(o, value));
      if (index >= 0) return String(index);
      return field.required && field.options?.length === 1 ? '0' : '';
    }
    case 'multi': {
      if (!Array.isArray(value)) return '';
      const options = field.options ?? [];
      return value
        .flatMap((v) => {
          const index = options.findIndex((o) => sameJson(o, v));
          return index >= 0 ? [String(index)] : [];
        })
        .join(',');
    }
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export type BuildResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

export function buildArgs(form: FormSpec, values: FormValues): BuildResult {
  const errors: Record<string, string> = {};
  const args: Record<string, unknown> = {};

  if (form.freeform) {
    const parsed = parseJson(values[FREEFORM_KEY] ?? '');
    if (!parsed.ok) errors[FREEFORM_KEY] = parsed.error;
    else if (asRecord(parsed.value) === undefined) errors[FREEFORM_KEY] = i18n.t('validate.jsonObjectLike');
    else Object.assign(args, parsed.value);
  }

  for (const field of form.fields) {
    const raw = values[field.name] ?? '';
    const outcome = convert(field, raw);
    if ('error' in outcome) errors[field.name] = outcome.error;
    else if ('value' in outcome) args[field.name] = outcome.value;
    else if (field.required) errors[field.name] = i18n.t('validate.required');
  }

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}

type Converted = { value: unknown } | { error: string } | { unset: true };

function convert(field: FieldSpec, raw: string): Converted {
  const text = field.kind === 'string' ? raw : raw.trim();
  if (field.kind !== 'string' && text === '') return { unset: true };
  switch (field.kind) {
    case 'string': {
      // An empty optional string is left out rather than sent as "".
      if (raw === '') return { unset: true };
      if (field.minLength !== undefined && raw.length < field.minLength) return { error: i18n.t('validate.atLeastChars', { n: field.minLength }) };
      if (field.maxLength !== undefined && raw.length > field.maxLength) return { error: i18n.t('validate.atMostChars', { n: field.maxLength }) };
      const formatError = field.format ? checkFormat(field.format, raw) : undefined;
      return formatError ? { error: formatError } : { value: raw };
    }
    case 'multi': {
      const options = field.options ?? [];
      const indexes = text.split(',').map((part) => Number(part.trim()));
      if (!indexes.every((i) => Number.isInteger(i) && i >= 0 && i < options.length)) return { error: i18n.t('validate.amongOptions') };
      const chosen = indexes.map((i) => options[i]);
      if (field.minItems !== undefined && chosen.length < field.minItems) return { error: i18n.t('validate.chooseAtLeast', { n: field.minItems }) };
      if (field.maxItems !== undefined && chosen.length > field.maxItems) return { error: i18n.t('validate.chooseAtMost', { n: field.maxItems }) };
      return { value: chosen };
    }
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: i18n.t('validate.number') };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: i18n.t('validate.whole') };
      if (field.minimum !== undefined && n < field.minimum) return { error: i18n.t('validate.atLeast', { n: field.minimum }) };
      if (field.maximum !== undefined && n > field.maximum) return { error: i18n.t('validate.atMost', { n: field.maximum }) };
      return { value: n };
    }
    case 'boolean':
      return text === 'true' ? { value: true } : text === 'false' ? { value: false } : { error: i18n.t('validate.trueFalse') };
    case 'enum': {
      const options = field.options ?? [];
      const index = Number(text);
      return Number.isInteger(index) && index >= 0 && index < options.length ? { value: options[index] } : { error: i18n.t('validate.oneOption') };
    }
    case 'json': {
      const parsed = parseJson(text);
      if (!parsed.ok) return { error: parsed.error };
      if (field.jsonShape === 'object' && asRecord(parsed.value) === undefined) return { error: i18n.t('validate.jsonObject') };
      if (field.jsonShape === 'array' && !Array.isArray(parsed.value)) return { error: i18n.t('validate.jsonArray') };
      return { value: parsed.value };
    }
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: i18n.t('validate.notJson', { error: error instanceof Error ? error.message : String(error) }) };
  }
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339: a date, a time with seconds, and an offset (Z or ±hh:mm).
const dateTimePattern = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
  const m = datePattern.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Why a string does not match its format, or undefined when it does. */
export function checkFormat(format: StringFormat, text: string): string | undefined {
  switch (format) {
    case 'email':
      return emailPattern.test(text) ? undefined : i18n.t('validate.email');
    case 'uri': {
      try {
        const url = new URL(text);
        return url.protocol.length > 1 ? undefined : i18n.t('validate.url');
      } catch {
        return i18n.t('validate.fullUrl');
      }
    }
    case 'date':
      return validDate(text) ? undefined : i18n.t('validate.date');
    case 'date-time': {
      const m = dateTimePattern.exec(text);
      const ok = m !== null && validDate(m[1] ?? '') && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 61;
      return ok ? undefined : i18n.t('validate.dateTime');
    }
  }
}

/** How an enum option reads in a <select> (its title when the schema gives one). */
export const optionLabel = (value: unknown, title?: string): string => title ?? (typeof value === 'string' ? value : JSON.stringify(value));

/** The chosen indexes of a multi-select's raw value. */
export const chosenIndexes = (raw: string): Set<number> =>
  new Set(
    raw
      .split(',')
      .filter((p) => p.trim() !== '')
      .map((p) => Number(p)),
  );

/** A multi-select's raw value with one option turned on or off (kept in option order). */
export function toggleIndex(raw: string, index: number, on: boolean): string {
  const chosen = chosenIndexes(raw);
  if (on) chosen.add(index);
  else chosen.delete(index);
  return [...chosen].sort((a, b) => a - b).join(',');
}
