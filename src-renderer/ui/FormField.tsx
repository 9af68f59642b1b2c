import { useId } from 'react';
import { chosenIndexes, isCheckbox, optionLabel, toggleIndex, type FieldSpec, type StringFormat } from './schema-form';
import { useT } from '../i18n';

/** The input type of a string format (date-time stays text: the browser's picker has no offset). */
const formatInput: Record<StringFormat, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'text' };
const formatPlaceholder: Partial<Record<StringFormat, string>> = { email: 'name@example.com', uri: 'https://…', 'date-time': '2026-12-01T10:30:00Z' };

interface FieldProps {
  field: FieldSpec;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}

export function FormField({ field, value, error, onChange }: FieldProps) {
  const id = useId();
  const t = useT();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [field.description ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    'data-testid': `field-${field.name}`,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required || undefined,
    'aria-describedby': describedBy,
  } as const;

  if (field.kind === 'json') {
    return (
      <JsonArea
        label={field.label}
        name={field.name}
        value={value}
        error={error}
        required={field.required}
        description={field.description}
        shape={field.jsonShape}
        onChange={onChange}
      />
    );
  }

  let input;
  if (field.kind === 'number' || field.kind === 'integer') {
    input = (
      <input
        {...common}
        type="number"
        inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
        step={field.kind === 'integer' ? 1 : 'any'}
        min={field.minimum}
        max={field.maximum}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else if (isCheckbox(field)) {
    input = <input {...common} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(String(e.target.checked))} />;
  } else if (field.kind === 'boolean') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('toolForm.notSet')}</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (field.kind === 'enum') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? t('toolForm.choose') : t('toolForm.notSet')}</option>
        {(field.options ?? []).map((option, index) => (
          <option key={index} value={String(index)}>
            {optionLabel(option, field.optionLabels?.[index])}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'multi') {
    return <MultiField field={field} value={value} error={error} onChange={onChange} describedBy={describedBy} hintId={hintId} errorId={errorId} />;
  } else {
    input = (
      <input
        {...common}
        type={field.format ? formatInput[field.format] : 'text'}
        placeholder={field.format ? formatPlaceholder[field.format] : undefined}
        minLength={field.minLength}
        maxLength={field.maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }

  return (
    <div className={`field field-${field.kind}${isCheckbox(field) ? ' field-check' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required && <RequiredMark />}
        <span className="field-type" aria-hidden="true">
          {field.format ?? field.kind}
        </span>
      </label>
      {input}
      <FieldNotes description={field.description} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** A field's hint (its schema description) and its error, under the input; ids for the input's aria-describedby. */
function FieldNotes({ description, error, hintId, errorId }: { description: string | undefined; error: string | undefined; hintId: string; errorId: string }) {
  return (
    <>
      {description && (
        <small id={hintId} className="field-hint">
          {description}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </>
  );
}

/** An array of choices: a group of checkboxes (the group is labelled by the field's name). */
function MultiField({
  field,
  value,
  error,
  onChange,
  describedBy,
  hintId,
  errorId,
}: FieldProps & { describedBy: string | undefined; hintId: string; errorId: string }) {
  const chosen = chosenIndexes(value);
  return (
    <fieldset
      className="field field-multi"
      data-testid={`field-${field.name}`}
      aria-invalid={error ? true : undefined}
      aria-required={field.required || undefined}
      aria-describedby={describedBy}
    >
      <legend>
        {field.label}
        {field.required && <RequiredMark />}
      </legend>
      {(field.options ?? []).map((option, index) => (
        <label key={index} className="field-multi-option">
          <input type="checkbox" name={field.name} checked={chosen.has(index)} onChange={(e) => onChange(toggleIndex(value, index, e.target.checked))} />{' '}
          {optionLabel(option, field.optionLabels?.[index])}
        </label>
      ))}
      <FieldNotes description={field.description} error={error} hintId={hintId} errorId={errorId} />
    </fieldset>
  );
}

function RequiredMark() {
  const t = useT();
  return (
    <span className="required" title={t('toolForm.required')} aria-label={t('toolForm.required')}>
      *
    </span>
  );
}

interface JsonAreaProps {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  required?: boolean;
  description?: string;
  shape?: FieldSpec['jsonShape'];
  onChange(value: string): void;
}

export function JsonArea({ label, name, value, error, required, description, shape, onChange }: JsonAreaProps) {
  const id = useId();
  const t = useT();
  const placeholder = shape === 'array' ? '[ ]' : shape === 'object' ? '{ }' : t('toolForm.jsonValue');
  return (
    <div className="field field-json">
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark />}
        <span className="field-type" aria-hidden="true">
          {shape === 'any' || shape === undefined ? 'json' : shape}
        </span>
      </label>
      <textarea
        id={id}
        name={name}
        data-testid={`field-${name}`}
        rows={3}
        spellCheck={false}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {description && <small className="field-hint">{description}</small>}
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
