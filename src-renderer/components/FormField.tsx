import { useId } from 'react';
import { isCheckbox, optionLabel, type FieldSpec } from '../schema-form';

interface FieldProps {
  field: FieldSpec;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}

export function FormField({ field, value, error, onChange }: FieldProps) {
  const id = useId();
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
    input = (
      <input {...common} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(String(e.target.checked))} />
    );
  } else if (field.kind === 'boolean') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(not set)</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (field.kind === 'enum') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? 'Choose…' : '(not set)'}</option>
        {(field.options ?? []).map((option, index) => (
          <option key={index} value={String(index)}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    );
  } else {
    input = <input {...common} type="text" value={value} onChange={(e) => onChange(e.target.value)} />;
  }

  return (
    <div className={`field field-${field.kind}${isCheckbox(field) ? ' field-check' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required && <RequiredMark />}
        <span className="field-type" aria-hidden="true">{field.kind}</span>
      </label>
      {input}
      {field.description && (
        <small id={hintId} className="field-hint">
          {field.description}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

function RequiredMark() {
  return (
    <span className="required" title="required" aria-label="required">
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
  const placeholder = shape === 'array' ? '[ ]' : shape === 'object' ? '{ }' : 'JSON value';
  return (
    <div className="field field-json">
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark />}
        <span className="field-type" aria-hidden="true">{shape === 'any' || shape === undefined ? 'json' : shape}</span>
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
