import type { FormEvent } from 'react';
import type { AcceptContent, PendingRequestView } from '../../../src-shared/host-api';
import { FormField } from '../../ui/FormField';
import { useSchemaForm } from '../../ui/useSchemaForm';
import { DeclineButton, RequestButtons, RequestFrame, useAnswering } from './RequestFrame';
import { ownReasons } from './request-text';
import { useT } from '../../i18n';
import { formProblemsText } from '../../../src-shared/i18n/forms.words';

type ElicitationFormRequest = Extract<PendingRequestView, { kind: 'elicitation-form' }>;
type FormContent = AcceptContent['elicitation-form']['content'];

/** What elicitation may carry (primitives and arrays of strings); anything else the form built is left out. */
function asContent(args: Record<string, unknown>): FormContent {
  const content: FormContent = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') content[key] = value;
    else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) content[key] = value;
  }
  return content;
}

/**
 * `elicitation/create` in form mode: the server's message and its `requestedSchema` as a form (defaults filled in),
 * checked before it is sent. Accept sends the values; Decline says no; Cancel dismisses without answering the question.
 */
export function ElicitationFormCard({ request }: { request: ElicitationFormRequest }) {
  const t = useT();
  const { answer, busy } = useAnswering(request.id);
  const { payload } = request;
  const { form, values, errors, change, build } = useSchemaForm(payload.requestedSchema);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const args = build();
    if (args) void answer(request.id, { action: 'accept', content: { content: asContent(args) } });
  };

  return (
    <RequestFrame request={request}>
      <form
        className="card-body form-fields request-fields"
        onSubmit={submit}
        noValidate
        aria-label={t('sampling.formAsks', { server: request.server, message: payload.message })}
        data-testid="elicitation-form"
      >
        {payload.problems !== undefined && payload.problems.length > 0 && (
          <p className="field-error" role="alert" data-testid="elicitation-problems">
            {t('forms.notAccepted', { problems: formProblemsText(t, payload.problems) })}
          </p>
        )}
        <p className="request-message" data-testid="request-message">
          {payload.message}
        </p>
        {form.fields.map((field) => (
          <FormField key={field.name} field={field} value={values[field.name] ?? ''} error={errors[field.name]} onChange={(v) => change(field.name, v)} />
        ))}
        {form.fields.length === 0 && <p className="muted">{t('requestCards.nothingToFill')}</p>}
        {Object.keys(errors).length > 0 && (
          <p className="field-error" role="alert" data-testid="elicitation-invalid">
            {t('sampling.fixFields')}
          </p>
        )}
        <RequestButtons label={t('sampling.answerServer', { server: request.server })}>
          <button type="submit" className="btn btn-primary btn-small" data-testid="request-accept" disabled={busy}>
            {t('requestCards.accept')}
          </button>
          <DeclineButton id={request.id} busy={busy} />
          <button
            type="button"
            className="btn btn-small"
            data-testid="request-cancel"
            disabled={busy}
            onClick={() => void answer(request.id, { action: 'cancel', reason: ownReasons.dismissed })}
          >
            {t('common.cancel')}
          </button>
        </RequestButtons>
      </form>
    </RequestFrame>
  );
}
