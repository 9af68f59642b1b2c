import { useEffect, useState, type FormEvent } from 'react';
import type { ThemeSetting } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { Trans } from 'react-i18next';
import type { Catalogue } from '../../../src-shared/i18n';
import { useT } from '../../i18n';

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The supervision knobs, in the order shown (what a person reads: appSettings.knob.* in the catalogues). */
const knobs: Array<{ key: keyof Catalogue['appSettings']['knob']; unit: 'ms' | 'count' }> = [
  { key: 'startTimeoutMs', unit: 'ms' },
  { key: 'requestTimeoutMs', unit: 'ms' },
  { key: 'restartBaseDelayMs', unit: 'ms' },
  { key: 'restartMaxDelayMs', unit: 'ms' },
  { key: 'crashLoopCount', unit: 'count' },
  { key: 'stableMs', unit: 'ms' },
  { key: 'graceMs', unit: 'ms' },
  { key: 'pingIntervalMs', unit: 'ms' },
  { key: 'pingTimeoutMs', unit: 'ms' },
];

function Status({ error, saved, id }: { error: string | undefined; saved: boolean; id: string }) {
  const t = useT();
  if (error) {
    return (
      <p className="settings-error" role="alert" id={id} data-testid={`${id}`}>
        {error}
      </p>
    );
  }
  return saved ? (
    <p className="settings-saved" role="status" data-testid={`${id}-saved`}>
      {t('appSettings.saved')}
    </p>
  ) : null;
}

/** Settings → Appearance: light, dark, or as the system. */
export function ThemeSection() {
  const theme = useApp((s) => s.appSettings?.theme ?? 'system');
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const [error, setError] = useState<string | undefined>(undefined);
  const choose = (value: ThemeSetting): void => {
    void update({ theme: value }).then(setError);
  };
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">{t('appSettings.appearance')}</h2>
      <fieldset className="theme-switch" data-testid="theme-switch">
        <legend className="muted">{t('appSettings.theme')}</legend>
        {(['system', 'light', 'dark'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="theme" value={value} checked={theme === value} data-testid={`theme-${value}`} onChange={() => choose(value)} />{' '}
            {value === 'system' ? t('appSettings.themeSystem') : value === 'light' ? t('appSettings.themeLight') : t('appSettings.themeDark')}
          </label>
        ))}
      </fieldset>
      <Status error={error} saved={false} id="theme-error" />
    </section>
  );
}

/** Settings → Environment: the names every server's process may inherit besides the defaults (DESIGN §3). */
export function EnvAllowListSection() {
  const list = useApp((s) => s.appSettings?.envAllowList);
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const names = list ?? [];
  const save = async (next: string[]): Promise<boolean> => {
    setSaved(false);
    const refused = await update({ envAllowList: next });
    setError(refused);
    setSaved(refused === undefined);
    return refused === undefined;
  };
  const add = (event: FormEvent): void => {
    event.preventDefault();
    const name = draft.trim();
    if (!envName.test(name)) {
      setError(t('appSettings.notVarName', { name }));
      return;
    }
    if (names.includes(name)) {
      setError(t('appSettings.alreadyListed', { name }));
      return;
    }
    void save([...names, name]).then((ok) => ok && setDraft(''));
  };
  return (
    <section className="settings-section" aria-labelledby="settings-env">
      <h2 id="settings-env">{t('appSettings.envHeading')}</h2>
      <p className="muted">
        <Trans i18nKey="appSettings.envIntro" components={{ code: <code /> }} />
      </p>
      <ul className="settings-list" data-testid="env-allow-list">
        {names.length === 0 && <li className="muted">{t('appSettings.none')}</li>}
        {names.map((name) => (
          <li key={name} data-testid="env-allow-name" data-name={name}>
            <code>{name}</code>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-label={t('appSettings.removeLabel', { name })}
              onClick={() => void save(names.filter((n) => n !== name))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <form className="settings-add" onSubmit={add}>
        <input
          type="text"
          aria-label={t('appSettings.envInputLabel')}
          data-testid="env-allow-input"
          placeholder={t('appSettings.envPlaceholder')}
          spellCheck={false}
          autoComplete="off"
          value={draft}
          aria-invalid={error !== undefined}
          aria-describedby={error ? 'env-allow-error' : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(undefined);
          }}
        />
        <button type="submit" className="btn btn-small" data-testid="env-allow-add" disabled={draft.trim() === '' || list === undefined}>
          {t('appSettings.allow')}
        </button>
      </form>
      <Status error={error} saved={saved} id="env-allow-error" />
    </section>
  );
}

/** Settings → Supervision: timeouts and restarts for every server (a server's own `timeout` still wins). */
export function SupervisionSection() {
  const settings = useApp((s) => s.appSettings);
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  const [autoRestart, setAutoRestart] = useState<boolean | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings) return;
    setValues(Object.fromEntries(knobs.map((k) => [k.key, settings.supervision[k.key] !== undefined ? String(settings.supervision[k.key]) : ''])));
    setAutoRestart(typeof settings.supervision.autoRestart === 'boolean' ? settings.supervision.autoRestart : undefined);
  }, [settings]);
  if (!settings) return null;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setSaved(false);
    const next: Record<string, number | boolean> = {};
    for (const k of knobs) {
      const raw = (values[k.key] ?? '').trim();
      if (raw === '') continue;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) {
        setError(t(k.unit === 'ms' ? 'appSettings.wholeMs' : 'appSettings.wholeCount', { label: t(`appSettings.knob.${k.key}`) }));
        return;
      }
      next[k.key] = n;
    }
    if (autoRestart !== undefined) next.autoRestart = autoRestart;
    void update({ supervision: Object.keys(next).length > 0 ? next : null }).then((refused) => {
      setError(refused);
      setSaved(refused === undefined);
    });
  };
  return (
    <section className="settings-section settings-wide" aria-labelledby="settings-supervision">
      <h2 id="settings-supervision">{t('appSettings.supervisionHeading')}</h2>
      <p className="muted">{t('appSettings.supervisionIntro')}</p>
      <form className="settings-form" onSubmit={submit} data-testid="supervision-form">
        <label className="field-row">
          <input
            type="checkbox"
            data-testid="supervision-autoRestart"
            checked={autoRestart ?? settings.supervisionDefaults.autoRestart === true}
            onChange={(e) => setAutoRestart(e.target.checked)}
          />{' '}
          {t('appSettings.autoRestart')}
        </label>
        <div className="settings-grid">
          {knobs.map((k) => (
            <label key={k.key}>
              <span>{k.unit === 'ms' ? t('appSettings.inMs', { label: t(`appSettings.knob.${k.key}`) }) : t(`appSettings.knob.${k.key}`)}</span>
              <input
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                data-testid={`supervision-${k.key}`}
                placeholder={String(settings.supervisionDefaults[k.key] ?? '')}
                value={values[k.key] ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, [k.key]: e.target.value }))}
              />
            </label>
          ))}
        </div>
        <div className="form-actions settings-add">
          <button type="submit" className="btn btn-small btn-primary" data-testid="supervision-save">
            {t('common.save')}
          </button>
          <button
            type="button"
            className="btn btn-small"
            data-testid="supervision-reset"
            onClick={() => {
              setSaved(false);
              void update({ supervision: null }).then((refused) => {
                setError(refused);
                setSaved(refused === undefined);
              });
            }}
          >
            {t('appSettings.useDefaults')}
          </button>
        </div>
      </form>
      <Status error={error} saved={saved} id="supervision-error" />
    </section>
  );
}

/** Settings → Default roots: folders offered (roots/list) to every server without a `roots` key of its own. */
export function DefaultRootsSection() {
  const settings = useApp((s) => s.appSettings);
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  if (!settings) return null;
  const roots = settings.roots ?? [];
  const save = async (next: string[]): Promise<boolean> => {
    setSaved(false);
    const refused = await update({ roots: next.length > 0 ? next : null });
    setError(refused);
    setSaved(refused === undefined);
    return refused === undefined;
  };
  const add = (event: FormEvent): void => {
    event.preventDefault();
    const root = draft.trim();
    if (root === '') return;
    if (!/^(file:\/\/|\/|~\/|~$|[A-Za-z]:[\\/]|\.{1,2}[\\/]?)/.test(root) && root.includes('://')) {
      setError(t('appSettings.notRoot'));
      return;
    }
    if (roots.includes(root)) {
      setError(t('appSettings.rootListed'));
      return;
    }
    void save([...roots, root]).then((ok) => ok && setDraft(''));
  };
  return (
    <section className="settings-section" aria-labelledby="settings-roots">
      <h2 id="settings-roots">{t('appSettings.rootsHeading')}</h2>
      <p className="muted">{t('appSettings.rootsIntro')}</p>
      <ul className="settings-list" data-testid="default-roots">
        {roots.length === 0 && <li className="muted">{t('appSettings.none')}</li>}
        {roots.map((root) => (
          <li key={root} data-testid="default-root" data-root={root}>
            <code>{root}</code>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-label={t('appSettings.removeLabel', { name: root })}
              onClick={() => void save(roots.filter((r) => r !== root))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <form className="settings-add" onSubmit={add}>
        <input
          type="text"
          aria-label={t('appSettings.rootInputLabel')}
          data-testid="default-root-input"
          placeholder={t('appSettings.rootPlaceholder')}
          spellCheck={false}
          autoComplete="off"
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(undefined);
          }}
        />
        <button type="submit" className="btn btn-small" data-testid="default-root-add" disabled={draft.trim() === ''}>
          {t('common.add')}
        </button>
      </form>
      <Status error={error} saved={saved} id="default-roots-error" />
    </section>
  );
}

/** Settings → Sandbox: the sandbox of every stdio server whose entry has no `sandbox` key. */
export function SandboxDefaultSection() {
  const settings = useApp((s) => s.appSettings);
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  if (!settings) return null;
  const current = settings.sandbox;
  const on = current !== undefined && current !== false;
  const details = typeof current === 'object' ? current : {};
  const network = details.network !== false;
  const paths = [...(details.allowRead ?? []), ...(details.allowWrite ?? [])];
  const save = (next: { on: boolean; network: boolean }): void => {
    setSaved(false);
    // Paths written in the settings file by hand are kept; network is written only when it is turned off.
    const { network: _network, ...kept } = details;
    const value = !next.on ? null : next.network && Object.keys(kept).length === 0 ? true : { ...kept, ...(next.network ? {} : { network: false }) };
    if (value !== null && typeof value === 'object' && [...(value.allowRead ?? []), ...(value.allowWrite ?? [])].some((p) => p.trim() === '')) {
      setError(t('sandbox.emptyPath'));
      return;
    }
    void update({ sandbox: value }).then((refused) => {
      setError(refused);
      setSaved(refused === undefined);
    });
  };
  return (
    <section className="settings-section" aria-labelledby="settings-sandbox">
      <h2 id="settings-sandbox">{t('sandbox.settingsHeading')}</h2>
      <p className="muted">{t('sandbox.settingsIntro')}</p>
      <fieldset className="theme-switch" data-testid="sandbox-default">
        <legend className="muted">{t('sandbox.settingsHeading')}</legend>
        {([false, true] as const).map((value) => (
          <label key={String(value)}>
            <input
              type="radio"
              name="sandbox-default"
              checked={on === value}
              data-testid={value ? 'sandbox-default-on' : 'sandbox-default-off'}
              disabled={!settings.writable}
              onChange={() => save({ on: value, network })}
            />{' '}
            {value ? t('sandbox.settingsOn') : t('sandbox.settingsOff')}
          </label>
        ))}
      </fieldset>
      <label className="field-row">
        <input
          type="checkbox"
          data-testid="sandbox-default-network"
          checked={network}
          disabled={!on || !settings.writable}
          onChange={(e) => save({ on, network: e.target.checked })}
        />{' '}
        {t('sandbox.settingsNetwork')}
      </label>
      {on && paths.length > 0 && (
        <p className="muted" data-testid="sandbox-default-paths">
          {t('sandbox.settingsPaths', { read: details.allowRead?.join(', ') || '-', write: details.allowWrite?.join(', ') || '-' })}
        </p>
      )}
      <Status error={error} saved={saved} id="sandbox-default-error" />
    </section>
  );
}
