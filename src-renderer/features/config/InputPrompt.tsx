import { useId, useState, type FormEvent } from 'react';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { readConfig } from './jsonc';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';
import './config.css';

/**
 * Answers a server's `${input:ID}`: the value is stored as the secret `input.ID` (never shown again), and main
 * retries the server. A password-style field when the config's `inputs` entry for that id says `password: true`.
 */
export function InputPrompt({ server, inputId }: { server: string; inputId: string }) {
  const text = useApp((s) => s.configText?.text);
  const setSecret = useApp((s) => s.setSecret);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const t = useT();
  const [error, setError] = useState<string | undefined>(undefined);
  const id = useId();
  const decl = text === undefined ? undefined : readConfig(text).inputs.find((i) => i.id === inputId);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await setSecret(`input.${inputId}`, value);
      setValue('');
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="input-prompt" data-testid="input-prompt" aria-label={t('inputPrompt.label', { server })} onSubmit={(e) => void submit(e)}>
      <label htmlFor={id}>
        {decl?.description ?? <Trans i18nKey="inputPrompt.valueFor" values={{ input: `\${input:${inputId}}` }} components={{ code: <code /> }} />}
      </label>
      <div className="kv-inputs">
        <input
          id={id}
          type={decl?.password ? 'password' : 'text'}
          data-testid="input-prompt-value"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
          {t('inputPrompt.saveAndStart')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
