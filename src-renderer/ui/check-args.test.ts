import { describe, expect, it } from 'vitest';
import { argumentProblems, argumentProblemsText } from './check-args';

const add = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };

describe('argumentProblems: a direct call checked as the form checks it', () => {
  it('names each missing required argument', () => {
    expect(argumentProblems(add, {})).toEqual([
      { name: 'a', problem: 'Required.' },
      { name: 'b', problem: 'Required.' },
    ]);
    expect(argumentProblems(add, { a: 2, b: 3 })).toEqual([]);
  });

  it('types, limits, options and formats, in the form’s words', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 10 },
        s: { type: 'string', minLength: 2, format: 'email' },
        flag: { type: 'boolean' },
        style: { enum: ['formal', 'casual'] },
        tags: { type: 'array', items: { enum: ['x', 'y'] }, maxItems: 1 },
        obj: { type: 'object' },
      },
    };
    expect(argumentProblems(schema, { n: 1.5, s: 3, flag: 'yes', style: 'pirate', tags: ['x', 'y'], obj: [] })).toEqual([
      { name: 'n', problem: 'Must be a whole number.' },
      { name: 's', problem: 'Must be text (a JSON string in quotes).' },
      { name: 'flag', problem: 'Choose true or false.' },
      { name: 'style', problem: 'Must be one of "formal", "casual".' },
      { name: 'tags', problem: 'Choose at most 1.' },
      { name: 'obj', problem: 'Must be a JSON object.' },
    ]);
    expect(argumentProblems(schema, { n: 11, s: 'a' })).toEqual([
      { name: 'n', problem: 'Must be at most 10.' },
      { name: 's', problem: 'At least 2 characters.' },
    ]);
    expect(argumentProblems(schema, { s: 'nobody' })).toEqual([{ name: 's', problem: 'Must be an email address, like name@example.com.' }]);
    // Optional and absent: fine.
    expect(argumentProblems(schema, {})).toEqual([]);
  });

  it('an argument the schema does not have, only when it allows no others; a schema without properties takes anything', () => {
    expect(argumentProblems({ ...add, additionalProperties: false }, { a: 1, b: 2, c: 3 })).toEqual([{ name: 'c', problem: 'Not an argument of this tool.' }]);
    expect(argumentProblems(add, { a: 1, b: 2, c: 3 })).toEqual([]);
    expect(argumentProblems({ type: 'object' }, { anything: true })).toEqual([]);
  });

  it('says the call was not sent, each problem on its line, and what to do', () => {
    expect(argumentProblemsText('add', argumentProblems(add, {}))).toBe(
      '/add was not sent: its arguments do not fit the tool’s input schema.\n• a: Required.\n• b: Required.\nFix them and send again, or pick add from the / list to fill in its form.',
    );
  });
});
