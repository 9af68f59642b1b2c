/**
 * The arguments of a direct tool call (`/tool {…}` in the composer) checked against the tool's `inputSchema` the
 * way its form checks them (ui/schema-form.ts: the same fields, limits and words), before anything is sent: a
 * required argument missing, a value of the wrong type, outside its limits or not among its options, an argument
 * the schema does not have when it allows no others. Nested values are checked only for their shape (an object, an
 * array), as the form's JSON fields are. Pure and DOM-free.
 */
import { i18n } from '../i18n';
import { checkFormat, formFromSchema, type FieldSpec } from './schema-form';

export interface ArgumentProblem {
  /** The argument's name (the schema's property). */
  name: string;
  problem: string;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function problemOf(field: FieldSpec, value: unknown): string | undefined {
  switch (field.kind) {
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return i18n.t('validate.number');
      if (field.kind === 'integer' && !Number.isInteger(value)) return i18n.t('validate.whole');
      if (field.minimum !== undefined && value < field.minimum) return i18n.t('validate.atLeast', { n: field.minimum });
      if (field.maximum !== undefined && value > field.maximum) return i18n.t('validate.atMost', { n: field.maximum });
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return i18n.t('validate.text');
      if (field.minLength !== undefined && value.length < field.minLength) return i18n.t('validate.atLeastChars', { n: field.minLength });
      if (field.maxLength !== undefined && value.length > field.maxLength) return i18n.t('validate.atMostChars', { n: field.maxLength });
      return field.format ? checkFormat(field.format, value) : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : i18n.t('validate.trueFalse');
    case 'enum':
      return (field.options ?? []).some((o) => sameJson(o, value)) ? undefined : i18n.t('validate.oneOf', { options: optionsText(field) });
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => (field.options ?? []).some((o) => sameJson(o, v)))) {
        return i18n.t('validate.someOf', { options: optionsText(field) });
      }
      if (field.minItems !== undefined && value.length < field.minItems) return i18n.t('validate.chooseAtLeast', { n: field.minItems });
      if (field.maxItems !== undefined && value.length > field.maxItems) return i18n.t('validate.chooseAtMost', { n: field.maxItems });
      return undefined;
    }
    case 'json':
      if (field.jsonShape === 'object' && !isRecord(value)) return i18n.t('validate.jsonObject');
      if (field.jsonShape === 'array' && !Array.isArray(value)) return i18n.t('validate.jsonArray');
      return undefined;
  }
}

const optionsText = (field: FieldSpec): string => (field.options ?? []).map((o) => JSON.stringify(o)).join(', ');

/** What is wrong with `args` for a tool with this `inputSchema` (empty: nothing the form would refuse). */
export function argumentProblems(inputSchema: Record<string, unknown>, args: Record<string, unknown>): ArgumentProblem[] {
  const form = formFromSchema(inputSchema);
  const problems: ArgumentProblem[] = [];
  for (const field of form.fields) {
    const value = args[field.name];
    if (value === undefined) {
      if (field.required) problems.push({ name: field.name, problem: i18n.t('validate.required') });
      continue;
    }
    const problem = problemOf(field, value);
    if (problem) problems.push({ name: field.name, problem });
  }
  if (form.fields.length > 0 && inputSchema.additionalProperties === false) {
    const known = new Set(form.fields.map((f) => f.name));
    for (const name of Object.keys(args)) if (!known.has(name)) problems.push({ name, problem: i18n.t('validate.unknownArgument') });
  }
  return problems;
}

/** The notice for a direct call refused before it was sent: each problem on its line, and what to do. */
export function argumentProblemsText(tool: string, problems: readonly ArgumentProblem[]): string {
  const lines = problems.map((p) => `• ${p.name}: ${p.problem}`);
  return `${i18n.t('validate.callNotSent', { tool })}\n${lines.join('\n')}\n${i18n.t('validate.callFix', { tool })}`;
}
