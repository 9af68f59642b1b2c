/**
 * Turns a tool's `inputSchema` (JSON Schema) into form fields and form values back into arguments.
 * Scalars get real inputs; anything else (objects, arrays, unions we cannot render) is a JSON textarea.
 * Pure and DOM-free, so it is unit-tested without a browser.
 */

export type FieldKind = 'number' | 'integer' | 'string' | 'boolean' | 'enum' | 'json';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  /** For `enum`: the allowed values (any JSON value). */
  options?: unknown[];
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

/** Raw values as the inputs hold them: always strings ('true'/'false' for booleans, an option index for enums). */
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

  const options = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (options && options.length > 0) return { ...base, kind: 'enum', options };

  const type = singleType(schema);
  switch (type) {
    case 'number':
    case 'integer': {
      const field: FieldSpec = { ...base, kind: type };
      if (typeof schema.minimum === 'number') field.minimum = schema.minimum;
      if (typeof schema.maximum === 'number') field.maximum = schema.maximum;
      return field;
    }
    case 'string':
      return { ...base, kind: 'string' };
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

export function formFromSchema(inputSchema: Record<string, unknown>): FormSpec {
  const properties = asRecord(inputSchema.properties);
  if (!properties) {
    return { fields: [], freeform: inputSchema.additionalProperties !== false };
  }
  const required = new Set(
    Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : [],
  );
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
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export type BuildResult =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; errors: Record<string, string> };

export function buildArgs(form: FormSpec, values: FormValues): BuildResult {
  const errors: Record<string, string> = {};
  const args: Record<string, unknown> = {};

  if (form.freeform) {
    const parsed = parseJson(values[FREEFORM_KEY] ?? '');
    if (!parsed.ok) errors[FREEFORM_KEY] = parsed.error;
    else if (asRecord(parsed.value) === undefined) errors[FREEFORM_KEY] = 'Must be a JSON object, like {"key": "value"}.';
    else Object.assign(args, parsed.value);
  }

  for (const field of form.fields) {
    const raw = values[field.name] ?? '';
    const outcome = convert(field, raw);
    if ('error' in outcome) errors[field.name] = outcome.error;
    else if ('value' in outcome) args[field.name] = outcome.value;
    else if (field.required) errors[field.name] = 'Required.';
  }

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}

type Converted = { value: unknown } | { error: string } | { unset: true };

function convert(field: FieldSpec, raw: string): Converted {
  const text = field.kind === 'string' ? raw : raw.trim();
  if (field.kind !== 'string' && text === '') return { unset: true };
  switch (field.kind) {
    case 'string':
      // An empty optional string is left out rather than sent as "".
      return raw === '' ? { unset: true } : { value: raw };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'Must be a number.' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: 'Must be a whole number.' };
      if (field.minimum !== undefined && n < field.minimum) return { error: `Must be at least ${field.minimum}.` };
      if (field.maximum !== undefined && n > field.maximum) return { error: `Must be at most ${field.maximum}.` };
      return { value: n };
    }
    case 'boolean':
      return text === 'true' ? { value: true } : text === 'false' ? { value: false } : { error: 'Choose true or false.' };
    case 'enum': {
      const options = field.options ?? [];
      const index = Number(text);
      return Number.isInteger(index) && index >= 0 && index < options.length
        ? { value: options[index] }
        : { error: 'Choose one of the options.' };
    }
    case 'json': {
      const parsed = parseJson(text);
      if (!parsed.ok) return { error: parsed.error };
      if (field.jsonShape === 'object' && asRecord(parsed.value) === undefined) return { error: 'Must be a JSON object.' };
      if (field.jsonShape === 'array' && !Array.isArray(parsed.value)) return { error: 'Must be a JSON array.' };
      return { value: parsed.value };
    }
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** How an enum option reads in a <select>. */
export const optionLabel = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
