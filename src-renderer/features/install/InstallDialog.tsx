import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { InstallInput, InstallNote, InstallPlanView, InstallResultView } from '../../../src-shared/host-api';
import { installNoteText } from '../../../src-shared/i18n';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import type { InstallSource } from '../../store/install-slice';
import { Dialog } from '../../ui/Dialog';
import './install.css';
import { Trans } from 'react-i18next';
import { currentLanguage, formatWhen, useT } from '../../i18n';

/** The notes that give a signature's verdict (the signing certificate's fingerprint goes under them). */
const signatureCodes: ReadonlySet<InstallNote['code']> = new Set(['verified', 'selfSigned', 'untrusted', 'expired', 'notYetValid', 'notForCode']);

/** A plan's note in the reader's language; English keeps the core's date. */
function noteText(t: ReturnType<typeof useT>, note: InstallNote): string {
  const english = currentLanguage() === 'en';
  return installNoteText(t, note, (day) => (english ? day : formatWhen(day, { dateStyle: 'long', timeZone: 'UTC' })));
}

function InputField({ input, value, onChange }: { input: InstallInput; value: string; onChange(value: string): void }) {
  const id = useId();
  const t = useT();
  return (
    <div className="install-field" data-testid="install-input" data-key={input.key}>
      <label htmlFor={id}>
        {input.title}
        {input.required ? <span aria-label={t('install.required')}> *</span> : <span className="muted">{t('install.optional')}</span>}
        {input.secret && <span className="chip">{t('install.secret')}</span>}
      </label>
      {input.choices ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {!input.required && <option value="">—</option>}
          {input.choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={input.secret ? 'password' : 'text'}
          autoComplete="off"
          value={value}
          placeholder={input.default ?? ''}
          required={input.required && input.default === undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {input.description && <p className="muted field-help">{input.description}</p>}
      {input.secret && (
        <p className="muted field-help">
          <Trans i18nKey="install.keptAs" values={{ ref: `\${secret:${input.secretName ?? input.key}}` }} components={{ code: <code /> }} />
        </p>
      )}
    </div>
  );
}

/**
 * What an install would add, before anything is: the server, where it comes from, the full command (or URL) and
 * the values it takes. "Add" writes the entry (secret values to secret storage); a stdio entry then waits on the
 * servers screen for the person to approve its command before it starts.
 */
export function InstallDialog({ source: given, onClose }: { source: InstallSource; onClose(): void }) {
  // A registry entry with several ways to install (npm and a remote, say): the person picks one.
  const [use, setUse] = useState<'npm' | 'pypi' | 'oci' | 'mcpb' | 'remote' | undefined>(undefined);
  const source = useMemo<InstallSource>(() => (given.kind === 'registry' && use !== undefined ? { ...given, use } : given), [given, use]);
  const useId_ = useId();
  const prepare = useApp((s) => s.installPrepare);
  const apply = useApp((s) => s.installApply);
  const [plan, setPlan] = useState<InstallPlanView | undefined>(undefined);
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<InstallResultView | undefined>(undefined);
  const nameId = useId();
  const t = useT();

  useEffect(() => {
    let live = true;
    prepare({ source }).then(
      (p) => {
        if (!live) return;
        setPlan(p);
        setName(p.name);
        setValues(Object.fromEntries(p.inputs.map((i) => [i.key, i.default ?? (i.choices && i.required ? (i.choices[0] ?? '') : '')])));
      },
      (e: unknown) => live && setError(describeError(e).message),
    );
    return () => {
      live = false;
    };
  }, [prepare, source]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!plan) return;
    setBusy(true);
    setError(undefined);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setResult(await apply({ source, ...(name !== plan.name ? { name } : {}), values: filled }));
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={plan ? t('install.title', { title: plan.title }) : t('install.titleGeneric')} onClose={onClose} testId="install-dialog" wide>
      {!plan && !error && <p className="muted">{t('install.reading')}</p>}
      {error && !plan && (
        <p className="form-error" role="alert" data-testid="install-error">
          {error}
        </p>
      )}
      {plan && result && (
        <div data-testid="install-result">
          <p>
            <Trans i18nKey="install.added" values={{ name: result.name }} components={{ strong: <strong /> }} />
            {result.secretsStored.length > 0 && t('install.storedSecrets', { names: result.secretsStored.join(', ') })}
          </p>
          {result.needsApproval && <p>{t('install.notStarted')}</p>}
          <div className="ui-dialog-actions">
            <button type="button" className="btn btn-primary" data-testid="install-done" onClick={onClose}>
              {t('install.done')}
            </button>
          </div>
        </div>
      )}
      {plan && !result && (
        <form onSubmit={(e) => void submit(e)} data-testid="install-form">
          <p className="install-origin">
            <span className="chip">{t(`install.source.${plan.source}`)}</span> {plan.origin}
            {plan.version && (
              <Trans i18nKey="install.version" values={{ version: plan.version }} components={{ strong: <strong data-testid="install-version" /> }} />
            )}
          </p>
          {plan.description && <p className="muted">{plan.description}</p>}
          {plan.alternatives && plan.alternatives.length > 1 && (
            <div className="install-field">
              <label htmlFor={useId_}>{t('install.installAs')}</label>
              <select
                id={useId_}
                data-testid="install-use"
                value={plan.uses}
                onChange={(e) => setUse(e.target.value as 'npm' | 'pypi' | 'oci' | 'mcpb' | 'remote')}
              >
                {plan.alternatives.map((kind) => (
                  <option key={kind} value={kind}>
                    {kind === 'remote' ? t('install.remote') : kind === 'mcpb' ? t('install.mcpb') : t('install.package', { kind })}
                  </option>
                ))}
              </select>
            </div>
          )}
          <p>{plan.entry.command !== undefined ? t('install.runs') : t('install.connects')}</p>
          <pre className="install-command" data-testid="install-command">
            {plan.commandLine}
          </pre>
          {plan.notices.map((note, index) => (
            <p key={`${index}-${note.code}`} className={`notice-inline notice-${note.tone}`} role="note" data-testid="install-note" data-code={note.code}>
              {noteText(t, note)}
              {signatureCodes.has(note.code) && plan.signature?.fingerprint && (
                <span className="install-fingerprint" data-testid="install-signature" data-status={plan.signature.status}>
                  {t('bundle.fingerprint', { fingerprint: plan.signature.fingerprint })}
                </span>
              )}
            </p>
          ))}
          <div className="install-field">
            <label htmlFor={nameId}>{t('install.name')}</label>
            <input
              id={nameId}
              type="text"
              spellCheck={false}
              data-testid="install-name"
              value={name}
              required
              pattern="[A-Za-z0-9._\-]+"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          {plan.inputs.map((input) => (
            <InputField key={input.key} input={input} value={values[input.key] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [input.key]: v }))} />
          ))}
          {error && (
            <p className="form-error" role="alert" data-testid="install-error">
              {error}
            </p>
          )}
          <div className="ui-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" data-testid="install-apply" disabled={busy}>
              {t('install.add')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
