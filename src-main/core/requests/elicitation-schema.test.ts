// Elicitation forms: fields read from requestedSchema, SEP-1034 defaults, validation, and the CLI's line parsing.
import { describe, expect, it } from 'vitest';
import { describeErrors, elicitationFields, parseFieldText, validateElicitation, withDefaults } from './elicitation-schema';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 1 },
    email: { type: 'string', title: 'Email', format: 'email' },
    colour: {
      type: 'string',
      title: 'Colour',
      oneOf: [
        { const: 'red', title: 'Red' },
        { const: 'green', title: 'Green' },
      ],
      default: 'green',
    },
    size: { type: 'string', enum: ['s', 'm', 'l'], enumNames: ['Small', 'Medium', 'Large'] },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number', default: 0.5 },
    subscribe: { type: 'boolean', default: true },
    tags: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'Alpha' },
          { const: 'b', title: 'Beta' },
        ],
      },
      minItems: 1,
      default: ['a'],
    },
    when: { type: 'string', format: 'date' },
  },
  required: ['name', 'tags'],
};

describe('elicitation schema', () => {
  it('reads the fields with titles, options (oneOf, enumNames, array items), bounds and defaults', () => {
    const fields = elicitationFields(schema);
    expect(fields.map((f) => f.name)).toEqual(['name', 'email', 'colour', 'size', 'age', 'ratio', 'subscribe', 'tags', 'when']);
    expect(fields[0]).toMatchObject({ title: 'Your name', required: true, type: 'string', minLength: 1 });
    expect(fields[2]).toMatchObject({
      options: [
        { value: 'red', title: 'Red' },
        { value: 'green', title: 'Green' },
      ],
      default: 'green',
    });
    expect(fields[3]?.options).toEqual([
      { value: 's', title: 'Small' },
      { value: 'm', title: 'Medium' },
      { value: 'l', title: 'Large' },
    ]);
    expect(fields[4]).toMatchObject({ type: 'integer', minimum: 0, maximum: 150, default: 30 });
    expect(fields[7]).toMatchObject({ type: 'array', multiple: true, minItems: 1, default: ['a'], required: true });
  });

  it('fills defaults for what the person left out (SEP-1034) and accepts a valid answer', () => {
    expect(withDefaults(schema, { name: 'Ada' })).toEqual({ name: 'Ada', colour: 'green', age: 30, ratio: 0.5, subscribe: true, tags: ['a'] });
    expect(validateElicitation(schema, { name: 'Ada', email: 'ada@example.com', when: '2026-12-01' })).toEqual({
      ok: true,
      content: { name: 'Ada', email: 'ada@example.com', colour: 'green', age: 30, ratio: 0.5, subscribe: true, tags: ['a'], when: '2026-12-01' },
    });
  });

  it('refuses what does not fit, saying which field and why', () => {
    const result = validateElicitation(schema, { name: '', email: 'nope', colour: 'blue', age: 3.5, tags: ['z'], when: '12/01/2026', extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = Object.fromEntries(result.errors.map((e) => [e.field, e.message]));
    expect(byField).toEqual({
      extra: 'is not a field of this form',
      name: 'must not be empty',
      email: 'must be an email address (name@example.com)',
      colour: 'must be one of red, green',
      age: 'must be a whole number',
      tags: 'has z, not among a, b',
      when: 'must be a date (YYYY-MM-DD)',
    });
    expect(describeErrors(elicitationFields(schema), result.errors)).toContain('Your name must not be empty');
    // Beside each English text, its code and data (the field's title, the bounds and choices) for the UI and CLI to word.
    const coded = Object.fromEntries(result.errors.map((e) => [e.field, [e.code, e.data]]));
    expect(coded).toEqual({
      extra: ['not-a-field', { field: 'extra' }],
      name: ['empty', { field: 'Your name' }],
      email: ['not-email', { field: 'Email' }],
      colour: ['not-a-choice', { field: 'Colour', choices: 'red, green' }],
      age: ['not-whole', { field: 'age' }],
      tags: ['unknown-choices', { field: 'tags', unknown: 'z', choices: 'a, b' }],
      when: ['not-date', { field: 'when' }],
    });
    // A required field without a default, missing.
    const missing = validateElicitation({ type: 'object', properties: { code: { type: 'string', title: 'Code' } }, required: ['code'] }, {});
    expect(missing).toEqual({ ok: false, errors: [{ field: 'code', message: 'is required', code: 'required', data: { field: 'Code' } }] });
  });

  it('gives bounds as data: lengths, numbers and how many choices', () => {
    const bounded = {
      type: 'object',
      properties: {
        nick: { type: 'string', title: 'Nick', minLength: 2, maxLength: 4 },
        n: { type: 'number', maximum: 9 },
        picks: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 },
      },
    };
    const result = validateElicitation(bounded, { nick: 'x', n: 10, picks: ['a'] });
    expect(result.ok ? [] : result.errors.map((e) => [e.code, e.data, e.message])).toEqual([
      ['too-short', { field: 'Nick', min: 2 }, 'must be at least 2 characters'],
      ['too-large', { field: 'n', max: 9 }, 'must be at most 9'],
      ['too-few-choices', { field: 'picks', count: 2 }, 'needs at least 2 choice(s)'],
    ]);
    const again = validateElicitation(bounded, { nick: 'abcde', picks: ['a', 'b', 'c'] });
    expect(again.ok ? [] : again.errors.map((e) => [e.code, e.data])).toEqual([
      ['too-long', { field: 'Nick', max: 4 }],
      ['too-many-choices', { field: 'picks', count: 2 }],
    ]);
  });

  it('parses a typed line per field: default on empty, yes/no, numbers, choice by value, title or number', () => {
    const fields = Object.fromEntries(elicitationFields(schema).map((f) => [f.name, f]));
    const f = (name: string) => {
      const field = fields[name];
      if (!field) throw new Error(name);
      return field;
    };
    expect(parseFieldText(f('colour'), '')).toEqual({ ok: true, value: 'green' });
    expect(parseFieldText(f('name'), '')).toEqual({ ok: false, message: 'Your name is required', code: 'required', data: { field: 'Your name' } });
    expect(parseFieldText(f('email'), '')).toEqual({ ok: true, value: undefined });
    expect(parseFieldText(f('subscribe'), 'n')).toEqual({ ok: true, value: false });
    expect(parseFieldText(f('age'), '41')).toEqual({ ok: true, value: 41 });
    expect(parseFieldText(f('age'), '-1')).toEqual({ ok: false, message: 'age must be at least 0', code: 'too-small', data: { field: 'age', min: 0 } });
    expect(parseFieldText(f('colour'), 'Red')).toEqual({ ok: true, value: 'red' });
    expect(parseFieldText(f('size'), '3')).toEqual({ ok: true, value: 'l' });
    expect(parseFieldText(f('tags'), 'Beta, a')).toEqual({ ok: true, value: ['b', 'a'] });
    expect(parseFieldText(f('email'), 'x@y')).toEqual({
      ok: false,
      message: 'Email must be an email address (name@example.com)',
      code: 'not-email',
      data: { field: 'Email' },
    });
    expect(parseFieldText(f('subscribe'), 'maybe')).toEqual({
      ok: false,
      message: 'subscribe: answer yes or no',
      code: 'yes-or-no',
      data: { field: 'subscribe' },
    });
    expect(parseFieldText(f('age'), 'old')).toEqual({ ok: false, message: 'age must be a number', code: 'not-number', data: { field: 'age' } });
  });
});
