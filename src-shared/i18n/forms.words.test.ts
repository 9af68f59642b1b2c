// The forms.* wordings: a form's problems and the queue's reasons, worded from the core's codes and data in each
// language (the core's real output, not hand-made problems).
import { describe, expect, it } from 'vitest';
import { createI18n } from './index';
import { formProblemText, formProblemsText, requestReasonText } from './forms.words';
import { elicitationFields, parseFieldText, validateElicitation } from '../../src-main/core/requests/elicitation-schema';
import type { FormProblemCode, RequestReasonCode } from '../contract/requests';

const zh = createI18n('zh-CN');
const en = createI18n('en');

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: '姓名', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email' },
    picks: { type: 'array', title: 'Picks', items: { enum: ['a', 'b', 'c'] }, minItems: 2 },
    age: { type: 'integer', title: 'Age', minimum: 18 },
  },
  required: ['name', 'email'],
};

describe("a form's problems, from their code and data", () => {
  it("in Chinese: each problem with the field's title and its bounds; joined with a Chinese semicolon", () => {
    const result = validateElicitation(schema, { name: 'x', picks: ['a'], age: 3 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => formProblemText(zh.t, e))).toEqual([
      '“姓名”至少需要 2 个字符',
      '“Email”为必填项',
      '“Picks”至少要选 2 项',
      '“Age”不能小于 18',
    ]);
    expect(formProblemsText(zh.t, result.errors)).toBe('“姓名”至少需要 2 个字符；“Email”为必填项；“Picks”至少要选 2 项；“Age”不能小于 18');
    const fields = Object.fromEntries(elicitationFields(schema).map((f) => [f.name, f]));
    const parsed = parseFieldText(fields.email!, 'nope');
    expect(parsed.ok ? '' : formProblemText(zh.t, parsed)).toBe('“Email”必须是电子邮件地址（如 name@example.com）');
  });

  it("in English: the core's own text (with a real plural for choices)", () => {
    const result = validateElicitation(schema, { name: 'x', picks: ['a'], age: 3 });
    if (result.ok) throw new Error('expected problems');
    expect(formProblemsText(en.t, result.errors)).toBe(
      '姓名 must be at least 2 characters; Email is required; Picks needs at least 2 choices; Age must be at least 18',
    );
    const one = { code: 'too-few-choices', data: { field: 'Picks', count: 1 } } as const;
    expect(formProblemText(en.t, one)).toBe('Picks needs at least 1 choice');
  });

  it('every code has a Chinese wording that fills its placeholders', () => {
    const codes: FormProblemCode[] = [
      'required',
      'not-a-field',
      'not-text',
      'not-a-choice',
      'empty',
      'too-short',
      'too-long',
      'not-email',
      'not-uri',
      'not-date',
      'not-date-time',
      'not-number',
      'not-whole',
      'too-small',
      'too-large',
      'not-boolean',
      'yes-or-no',
      'not-a-list',
      'unknown-choices',
      'repeated-choice',
      'too-few-choices',
      'too-many-choices',
    ];
    const data = { field: '字段', min: 1, max: 9, count: 2, choices: 'a, b', unknown: 'z' };
    for (const code of codes) {
      const zhText = formProblemText(zh.t, { code, data });
      expect(zhText, code).toMatch(/[\u4e00-\u9fff]/);
      expect(zhText, code).not.toMatch(/\{\{|forms\./);
      expect(zhText, code).toContain('字段');
      expect(formProblemText(en.t, { code, data }), code).not.toBe(zhText);
    }
  });
});

describe("the queue's reasons, from their code and data", () => {
  it('in Chinese and in English', () => {
    expect(requestReasonText(zh.t, { code: 'timed-out', data: { seconds: 300 } })).toBe('300 秒内无人回答，已超时');
    expect(requestReasonText(en.t, { code: 'timed-out', data: { seconds: 300 } })).toBe('timed out after 300 s with no answer');
    expect(requestReasonText(en.t, { code: 'timed-out', data: { ms: 500 } })).toBe('timed out after 500 ms with no answer');
    const codes: RequestReasonCode[] = ['timed-out', 'withdrawn', 'shutting-down', 'no-answerer', 'server-gone'];
    for (const code of codes) expect(requestReasonText(zh.t, { code, data: { server: 'calc', seconds: 5 } }), code).toMatch(/[\u4e00-\u9fff]/);
  });
});
