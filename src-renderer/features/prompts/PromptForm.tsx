import { useState, type FormEvent } from 'react';
import type { PromptInfo } from '../../../src-shared/contract/prompts';
import { CompleteField } from '../../ui/CompleteField';
import { useT } from '../../i18n';
import './prompts.css';

/** A prompt's arguments as text fields with the server's suggestions as you type. */
export function PromptForm({
  prompt,
  initial = {},
  complete,
  actions,
  busy = false,
  error,
  onSubmit,
}: {
  prompt: PromptInfo;
  initial?: Record<string, string>;
  complete?: ((argument: string, value: string, context: Record<string, string>) => Promise<string[]>) | undefined;
  /** The submit buttons: each gets the arguments when pressed. */
  actions: Array<{ label: string; testId: string; primary?: boolean; run(args: Record<string, string>): void }>;
  busy?: boolean;
  error?: string | undefined;
  onSubmit?(args: Record<string, string>): void;
}) {
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...initial }));
  const [missing, setMissing] = useState<string[]>([]);
  const args = (): Record<string, string> | undefined => {
    const absent = prompt.arguments.filter((a) => a.required === true && (values[a.name] ?? '') === '').map((a) => a.name);
    setMissing(absent);
    if (absent.length > 0) return undefined;
    return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  };
  const first = actions[0];
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const a = args();
    if (a === undefined) return;
    if (onSubmit) onSubmit(a);
    else first?.run(a);
  };
  return (
    <form
      className="form-fields prompt-form"
      aria-label={t('prompts.argumentsOf', { prompt: prompt.name })}
      data-testid="prompt-form"
      onSubmit={submit}
      noValidate
    >
      {prompt.arguments.length === 0 && <p className="muted">{t('prompts.noArgs')}</p>}
      {prompt.arguments.map((arg) => (
        <CompleteField
          key={arg.name}
          label={arg.title ?? arg.name}
          name={arg.name}
          value={values[arg.name] ?? ''}
          required={arg.required === true}
          description={arg.description}
          error={missing.includes(arg.name) ? t('prompts.required') : undefined}
          onChange={(v) => setValues((old) => ({ ...old, [arg.name]: v }))}
          complete={
            complete
              ? (value) => {
                  const context = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== arg.name && v !== ''));
                  return complete(arg.name, value, context);
                }
              : undefined
          }
        />
      ))}
      {error && (
        <p className="form-error" role="alert" data-testid="prompt-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        {actions.map((action, index) => (
          <button
            key={action.testId}
            type={index === 0 ? 'submit' : 'button'}
            className={`btn${action.primary ? ' btn-primary' : ''}`}
            data-testid={action.testId}
            disabled={busy}
            onClick={
              index === 0
                ? undefined
                : () => {
                    const a = args();
                    if (a !== undefined) action.run(a);
                  }
            }
          >
            {action.label}
          </button>
        ))}
      </div>
    </form>
  );
}
