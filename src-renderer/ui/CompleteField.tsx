import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../i18n';
import './complete-field.css';

/** Asks for suggestions for the current text (`completion/complete`); resolves to the values to offer. */
export type Completer = (value: string) => Promise<string[]>;

/**
 * A text field with suggestions as you type (the ARIA combobox pattern): Down/Up move through them, Enter or a
 * click takes one, Escape closes the list. Suggestions are asked for 150 ms after the last keystroke; an answer to
 * an older keystroke is dropped.
 */
export function CompleteField({
  label,
  name,
  value,
  onChange,
  complete,
  required = false,
  description,
  error,
  testId,
}: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  complete?: Completer | undefined;
  required?: boolean;
  description?: string | undefined;
  error?: string | undefined;
  testId?: string;
}) {
  const t = useT();
  const id = useId();
  const listId = `${id}-list`;
  const [options, setOptions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [asked, setAsked] = useState<string | undefined>(undefined);
  const seq = useRef(0);
  const completeRef = useRef(complete);
  completeRef.current = complete;

  useEffect(() => {
    if (asked === undefined || !completeRef.current) return;
    const at = ++seq.current;
    const timer = setTimeout(() => {
      completeRef.current?.(asked).then(
        (values) => {
          if (at !== seq.current) return;
          setOptions(values.filter((v) => v !== asked).slice(0, 50));
          setActive(-1);
        },
        () => {
          if (at === seq.current) setOptions([]);
        },
      );
    }, 150);
    return () => clearTimeout(timer);
  }, [asked]);

  const change = (text: string): void => {
    onChange(text);
    setOpen(true);
    setAsked(text);
  };
  const take = (option: string): void => {
    onChange(option);
    setOpen(false);
    setOptions([]);
    seq.current += 1;
  };
  const expanded = open && options.length > 0;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown') {
      if (!expanded) {
        setOpen(true);
        if (options.length === 0) setAsked(value);
        return;
      }
      event.preventDefault();
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (event.key === 'ArrowUp' && expanded) {
      event.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      const option = options[active];
      if (option !== undefined) {
        event.preventDefault();
        take(option);
      }
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const hintId = `${id}-hint`;
  return (
    <div className="field field-string complete-field">
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required" title={t('complete.required')} aria-label={t('complete.required')}>
            *
          </span>
        )}
      </label>
      <div className="complete-wrap">
        <input
          id={id}
          name={name}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={description ? hintId : undefined}
          data-testid={testId ?? `field-${name}`}
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => change(e.target.value)}
          onFocus={() => {
            if (completeRef.current && asked === undefined) setAsked(value);
            setOpen(true);
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label={t('complete.suggestions', { label })} className="complete-list" hidden={!expanded}>
          {options.map((option, index) => (
            <li
              key={option}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'active' : ''}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => take(option)}
            >
              {option}
            </li>
          ))}
        </ul>
      </div>
      {description && (
        <small id={hintId} className="field-hint">
          {description}
        </small>
      )}
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
