import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeError } from '../host-client';
import { useApp } from '../hooks/useApp';
import { secretNamePattern } from './entry-form';

/**
 * Secret names, add/replace, delete. Values go to main and never come back: this panel cannot show one.
 * Servers use them as `${secret:NAME}`; answers to `${input:ID}` prompts are kept as `input.ID`.
 */
export function SecretsPanel() {
  const names = useApp((s) => s.secretNames);
  const loaded = useApp((s) => s.secretsLoaded);
  const loadError = useApp((s) => s.secretsError);
  const backing = useApp((s) => s.appInfo?.secrets);
  const loadSecrets = useApp((s) => s.loadSecrets);
  const setSecret = useApp((s) => s.setSecret);
  const deleteSecret = useApp((s) => s.deleteSecret);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const id = useId();

  useEffect(() => {
    void loadSecrets();
  }, [loadSecrets]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!secretNamePattern.test(trimmed)) {
      setError('Name: letters, digits, _ . - (starting with a letter or _), at most 128 characters.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const replacing = names.includes(trimmed);
      await setSecret(trimmed, value);
      setName('');
      setValue('');
      setSaved(`${replacing ? 'Replaced' : 'Stored'} ${trimmed}.`);
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (secret: string): Promise<void> => {
    setError(undefined);
    try {
      await deleteSecret(secret);
      setSaved(`Deleted ${secret}.`);
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setConfirming(undefined);
    }
  };

  return (
    <section className="settings-section" aria-labelledby={`${id}-title`} data-testid="secrets-panel">
      <h2 id={`${id}-title`}>Secrets</h2>
      <p className="muted">
        Use a secret in a server's env or headers as <code>{'${secret:NAME}'}</code>. Values are write-only here: they are never shown again.
      </p>
      {backing && backing.backing !== 'keychain' && (
        <p className="notice-inline" role="note" data-testid="secrets-warning">
          {backing.warning ?? `Secrets are not kept in the OS keychain (${backing.backing}).`}
        </p>
      )}
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      {loaded && names.length === 0 && <p className="muted">No secrets stored yet.</p>}
      <ul className="secret-list" aria-label="Stored secrets">
        {names.map((secret) => (
          <li key={secret} className="secret-item" data-testid="secret-item" data-name={secret}>
            <code className="secret-name">{secret}</code>
            <span className="muted secret-mask" aria-label="value hidden">
              ••••••••
            </span>
            {confirming === secret ? (
              <span className="confirm-inline">
                Delete {secret}?
                <button type="button" className="btn btn-small btn-danger" data-testid="secret-delete-confirm" onClick={() => void remove(secret)}>
                  Delete
                </button>
                <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(undefined)}>
                  Cancel
                </button>
              </span>
            ) : (
              <>
                <button type="button" className="btn btn-small" onClick={() => setName(secret)}>
                  Replace…
                </button>
                <button type="button" className="btn btn-small" data-testid="secret-delete" aria-label={`Delete ${secret}`} onClick={() => setConfirming(secret)}>
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form className="secret-form" onSubmit={(e) => void submit(e)} aria-label="Add or replace a secret">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" data-testid="secret-name" spellCheck={false} placeholder="GITHUB_TOKEN" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-value`}>Value</label>
        <input
          id={`${id}-value`}
          type="password"
          data-testid="secret-value"
          autoComplete="new-password"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="btn btn-primary" data-testid="secret-save" disabled={busy || name.trim() === ''}>
          {names.includes(name.trim()) ? 'Replace' : 'Add'}
        </button>
      </form>
      {error && (
        <p className="form-error" role="alert" data-testid="secret-error">
          {error}
        </p>
      )}
      {saved && !error && (
        <p className="muted" role="status" data-testid="secret-status">
          {saved}
        </p>
      )}
    </section>
  );
}
