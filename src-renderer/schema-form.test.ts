import { describe, expect, it } from 'vitest';
import { buildArgs, formFromSchema, FREEFORM_KEY, initialValues } from './schema-form';

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
