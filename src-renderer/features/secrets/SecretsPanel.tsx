import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { secretNamePattern } from '../config/entry-form';
import { Trans } from 'react-i18next';
import { secretsCaveatText, useT } from '../../i18n';
import './secrets.css';

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
  const t = useT();

  useEffect(() => {
    void loadSecrets();
  }, [loadSecrets]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!secretNamePattern.test(trimmed)) {
      setError(t('secrets.badName'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const replacing = names.includes(trimmed);
      await setSecret(trimmed, value);
      setName('');
      setValue('');
      setSaved(replacing ? t('secrets.replacedMsg', { name: trimmed }) : t('secrets.storedMsg', { name: trimmed }));
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
      setSaved(t('secrets.deletedMsg', { name: secret }));
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setConfirming(undefined);
    }
  };

  return (
    <section className="settings-section settings-wide" aria-labelledby={`${id}-title`} data-testid="secrets-panel">
      <h2 id={`${id}-title`}>{t('secrets.heading')}</h2>
      <p className="muted">
        <Trans i18nKey="secrets.intro" values={{ example: '${secret:NAME}' }} components={{ code: <code /> }} />
      </p>
      {backing && backing.backing !== 'keychain' && (
        <p className="notice-inline" role="note" data-testid="secrets-warning">
          {secretsCaveatText(backing)}
        </p>
      )}
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      {loaded && names.length === 0 && <p className="muted">{t('secrets.empty')}</p>}
      <ul className="secret-list" aria-label={t('secrets.stored')}>
        {names.map((secret) => (
          <li key={secret} className="secret-item" data-testid="secret-item" data-name={secret}>
            <code className="secret-name">{secret}</code>
            <span className="muted secret-mask" aria-label={t('secrets.valueHidden')}>
              ••••••••
            </span>
            {confirming === secret ? (
              <span className="confirm-inline">
                {t('secrets.confirmDelete', { name: secret })}
                <button type="button" className="btn btn-small btn-danger" data-testid="secret-delete-confirm" onClick={() => void remove(secret)}>
                  {t('common.delete')}
                </button>
                <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(undefined)}>
                  {t('common.cancel')}
                </button>
              </span>
            ) : (
              <>
                <button type="button" className="btn btn-small" onClick={() => setName(secret)}>
                  {t('secrets.replaceEllipsis')}
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  data-testid="secret-delete"
                  aria-label={t('secrets.deleteLabel', { name: secret })}
                  onClick={() => setConfirming(secret)}
                >
                  {t('common.delete')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form className="secret-form" onSubmit={(e) => void submit(e)} aria-label={t('secrets.formLabel')}>
        <label htmlFor={`${id}-name`}>{t('secrets.name')}</label>
        <input
          id={`${id}-name`}
          type="text"
          data-testid="secret-name"
          spellCheck={false}
          placeholder="GITHUB_TOKEN"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={`${id}-value`}>{t('secrets.value')}</label>
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
          {names.includes(name.trim()) ? t('secrets.replace') : t('common.add')}
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
