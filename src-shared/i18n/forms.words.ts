/**
 * The `forms.*` wordings from codes and data, for the CLI (cliT) and the UI (useT / i18n.t): what is wrong with a
 * value of a server's form (the core's FormProblem codes) and why the request queue settled a request itself
 * (RequestReason). Never from the English text: the core keeps that beside the code for servers and logs.
 */
import type { TFunction } from 'i18next';
import type { FormProblemCode, RequestReason } from '../contract/requests';

export interface WordedProblem {
  code: FormProblemCode;
  data: Readonly<Record<string, string | number>>;
}

/** One problem, with the field's title (`data.field`) in it: "Name is required", "姓名为必填项". */
export function formProblemText(t: TFunction, problem: WordedProblem): string {
  const data = problem.data;
  const text = (name: string): string => (data[name] === undefined ? '' : String(data[name]));
  const num = (name: string): number => (typeof data[name] === 'number' ? data[name] : Number(data[name] ?? 0));
  const field = text('field');
  switch (problem.code) {
    case 'required':
      return t('forms.problem.required', { field });
    case 'not-a-field':
      return t('forms.problem.notAField', { field });
    case 'not-text':
      return t('forms.problem.notText', { field });
    case 'not-a-choice':
      return t('forms.problem.notAChoice', { field, choices: text('choices') });
    case 'empty':
      return t('forms.problem.empty', { field });
    case 'too-short':
      return t('forms.problem.tooShort', { field, min: text('min') });
    case 'too-long':
      return t('forms.problem.tooLong', { field, max: text('max') });
    case 'not-email':
      return t('forms.problem.notEmail', { field });
    case 'not-uri':
      return t('forms.problem.notUri', { field });
    case 'not-date':
      return t('forms.problem.notDate', { field });
    case 'not-date-time':
      return t('forms.problem.notDateTime', { field });
    case 'not-number':
      return t('forms.problem.notNumber', { field });
    case 'not-whole':
      return t('forms.problem.notWhole', { field });
    case 'too-small':
      return t('forms.problem.tooSmall', { field, min: text('min') });
    case 'too-large':
      return t('forms.problem.tooLarge', { field, max: text('max') });
    case 'not-boolean':
      return t('forms.problem.notBoolean', { field });
    case 'yes-or-no':
      return t('forms.problem.yesOrNo', { field });
    case 'not-a-list':
      return t('forms.problem.notAList', { field });
    case 'unknown-choices':
      return t('forms.problem.unknownChoices', { field, unknown: text('unknown'), choices: text('choices') });
    case 'repeated-choice':
      return t('forms.problem.repeatedChoice', { field });
    case 'too-few-choices':
      return t('forms.problem.tooFewChoices', { field, count: num('count') });
    case 'too-many-choices':
      return t('forms.problem.tooManyChoices', { field, count: num('count') });
  }
}

/** Several problems as one line ("Name is required; Email must be …"). */
export function formProblemsText(t: TFunction, problems: readonly WordedProblem[]): string {
  return problems.map((p) => formProblemText(t, p)).join(t('forms.separator'));
}

/** Why the queue settled a request itself: "timed out after 300 s with no answer", "300 秒内无人回答，已超时". */
export function requestReasonText(t: TFunction, reason: RequestReason): string {
  const data = reason.data ?? {};
  switch (reason.code) {
    case 'timed-out':
      return typeof data.ms === 'number'
        ? t('forms.reason.timedOutMs', { ms: data.ms })
        : t('forms.reason.timedOutSeconds', { count: Number(data.seconds ?? 0) });
    case 'withdrawn':
      return t('forms.reason.withdrawn');
    case 'shutting-down':
      return t('forms.reason.shuttingDown');
    case 'no-answerer':
      return t('forms.reason.noAnswerer');
    case 'server-gone':
      return t('forms.reason.serverGone', { server: String(data.server ?? '') });
  }
}
