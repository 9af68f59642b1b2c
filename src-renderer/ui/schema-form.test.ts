import { describe, expect, it } from 'vitest';
import { buildArgs, checkFormat, chosenIndexes, formFromSchema, FREEFORM_KEY, initialValues, isCheckbox, optionLabel, toggleIndex } from './schema-form';

const schema = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'first' },
    n: { type: 'integer', minimum: 1 },
    name: { type: 'string', default: 'x' },
    flag: { type: 'boolean' },
    strict: { type: 'boolean' },
    mode: { enum: ['fast', 'slow', 3] },
    tags: { type: 'array', items: { type: 'string' } },
    nullable: { type: ['number', 'null'] },
  },
  required: ['a', 'strict', 'mode'],
};

describe('formFromSchema', () => {
  it('maps JSON Schema types to inputs, with required markers', () => {
    const form = formFromSchema(schema);
    expect(form.freeform).toBe(false);
    expect(form.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['a', 'number', true],
      ['n', 'integer', false],
      ['name', 'string', false],
      ['flag', 'boolean', false],
      ['strict', 'boolean', true],
      ['mode', 'enum', true],
      ['tags', 'json', false],
      ['nullable', 'number', false],
    ]);
    expect(initialValues(form)).toMatchObject({ a: '', name: 'x', flag: '', strict: 'false', mode: '' });
  });

  it('falls back to one JSON textarea without properties', () => {
    const form = formFromSchema({ type: 'object' });
    expect(form).toEqual({ fields: [], freeform: true });
    expect(buildArgs(form, { [FREEFORM_KEY]: '{"x":[1]}' })).toEqual({ ok: true, args: { x: [1] } });
    expect(buildArgs(form, { [FREEFORM_KEY]: '[1]' })).toMatchObject({ ok: false });
  });
});

describe('buildArgs', () => {
  const form = formFromSchema(schema);

  it('converts values and leaves unset optional fields out', () => {
    const values = { ...initialValues(form), a: '2.5', n: '3', strict: 'true', mode: '2', tags: '["a"]', name: '' };
    expect(buildArgs(form, values)).toEqual({ ok: true, args: { a: 2.5, n: 3, strict: true, mode: 3, tags: ['a'] } });
  });

  it('reports every problem by field', () => {
    const values = { ...initialValues(form), n: '1.5', tags: '{"no":1}' };
    const result = buildArgs(form, values);
    expect(result).toEqual({
      ok: false,
      errors: { a: 'Required.', n: 'Must be a whole number.', mode: 'Required.', tags: 'Must be a JSON array.' },
    });
  });
});

// Elicitation's requestedSchema (MCP's flat, primitive-only subset): formats, titled enums, multi-selects, defaults.
describe('elicitation schemas', () => {
  const elicitation = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', title: 'Email' },
      site: { type: 'string', format: 'uri' },
      birthday: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      nick: { type: 'string', minLength: 2, maxLength: 5, default: 'bob' },
      colour: {
        type: 'string',
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green' },
        ],
        default: 'g',
      },
      size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
      toppings: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'ham', title: 'Ham' },
            { const: 'egg', title: 'Egg' },
            { const: 'kale', title: 'Kale' },
          ],
        },
        minItems: 1,
        maxItems: 2,
        default: ['egg'],
      },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      age: { type: 'integer', minimum: 0, default: 30 },
      ok: { type: 'boolean', default: true },
    },
    required: ['email', 'colour', 'toppings'],
  };
  const form = formFromSchema(elicitation);
  const field = (name: string) => form.fields.find((f) => f.name === name);

  it('reads formats, titled enums (oneOf const/title, enumNames) and arrays of choices', () => {
    expect(field('email')).toMatchObject({ kind: 'string', format: 'email', label: 'Email', required: true });
    expect(field('site')?.format).toBe('uri');
    expect(field('at')?.format).toBe('date-time');
    expect(field('nick')).toMatchObject({ minLength: 2, maxLength: 5 });
    expect(field('colour')).toMatchObject({ kind: 'enum', options: ['r', 'g'], optionLabels: ['Red', 'Green'] });
    expect(field('size')).toMatchObject({ kind: 'enum', options: ['s', 'm'], optionLabels: ['Small', 'Medium'] });
    expect(field('toppings')).toMatchObject({ kind: 'multi', options: ['ham', 'egg', 'kale'], optionLabels: ['Ham', 'Egg', 'Kale'], minItems: 1, maxItems: 2 });
    expect(field('tags')).toMatchObject({ kind: 'multi', options: ['a', 'b'] });
    expect(optionLabel('r', 'Red')).toBe('Red');
    // An optional boolean stays a three-way choice (unset / true / false), its default chosen.
    const ok = field('ok');
    expect(ok !== undefined && isCheckbox(ok)).toBe(false);
    expect(optionLabel('r')).toBe('r');
  });

  it('fills in the defaults (SEP-1034), and sends them untouched', () => {
    const values = initialValues(form);
    expect(values).toMatchObject({ nick: 'bob', colour: '1', toppings: '1', age: '30', ok: 'true', email: '' });
    expect(buildArgs(form, { ...values, email: 'a@example.com' })).toEqual({
      ok: true,
      args: { email: 'a@example.com', nick: 'bob', colour: 'g', toppings: ['egg'], age: 30, ok: true },
    });
  });

  it('validates formats, lengths and how many are chosen before anything is sent', () => {
    const values = { ...initialValues(form), email: 'nope', site: 'example', birthday: '2026-02-30', at: '2026-12-01T10:00', nick: 'b', toppings: '0,1,2' };
    const result = buildArgs(form, values);
    expect(result.ok).toBe(false);
    const errors = result.ok ? {} : result.errors;
    expect(Object.keys(errors).sort()).toEqual(['at', 'birthday', 'email', 'nick', 'site', 'toppings']);
    expect(errors.email).toMatch(/email address/);
    expect(errors.toppings).toBe('Choose at most 2.');
    expect(errors.nick).toBe('At least 2 characters.');
    expect(buildArgs(form, { ...initialValues(form), email: 'a@b.co', toppings: '' })).toEqual({ ok: false, errors: { toppings: 'Required.' } });
  });

  it('accepts well-formed values of each format', () => {
    expect(checkFormat('email', 'name@example.com')).toBeUndefined();
    expect(checkFormat('uri', 'https://example.com/a?b=1')).toBeUndefined();
    expect(checkFormat('date', '2024-02-29')).toBeUndefined();
    expect(checkFormat('date', '2023-02-29')).toMatch(/date/);
    expect(checkFormat('date-time', '2026-12-01T10:30:00Z')).toBeUndefined();
    expect(checkFormat('date-time', '2026-12-01T10:30:00.5+02:00')).toBeUndefined();
    expect(checkFormat('date-time', '2026-12-01T25:30:00Z')).toMatch(/offset/);
  });

  it('toggles multi-select choices in option order', () => {
    expect(toggleIndex('', 2, true)).toBe('2');
    expect(toggleIndex('2', 0, true)).toBe('0,2');
    expect(toggleIndex('0,2', 2, false)).toBe('0');
    expect([...chosenIndexes('0,2')]).toEqual([0, 2]);
  });
});
