import { useEffect, useState, type FormEvent } from 'react';
import type { ThemeSetting } from '../../src-shared/host-api';
import { useApp } from '../hooks/useApp';

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The supervision knobs, in the order shown, with what a person reads. */
const knobs: Array<{ key: string; label: string; unit: 'ms' | 'count' }> = [
  { key: 'startTimeoutMs', label: 'Start timeout', unit: 'ms' },
  { key: 'requestTimeoutMs', label: 'Request timeout', unit: 'ms' },
  { key: 'restartBaseDelayMs', label: 'First restart delay', unit: 'ms' },
  { key: 'restartMaxDelayMs', label: 'Longest restart delay', unit: 'ms' },
  { key: 'crashLoopCount', label: 'Crashes in a row before giving up', unit: 'count' },
  { key: 'stableMs', label: 'Up this long counts as stable', unit: 'ms' },
  { key: 'graceMs', label: 'Grace before stopping a process', unit: 'ms' },
  { key: 'pingIntervalMs', label: 'Ping remote servers every (0: never)', unit: 'ms' },
  { key: 'pingTimeoutMs', label: 'Ping timeout', unit: 'ms' },
];

function Status({ error, saved, id }: { error: string | undefined; saved: boolean; id: string }) {
  if (error) {
    return (
      <p className="settings-error" role="alert" id={id} data-testid={`${id}`}>
        {error}
      </p>
    );
  }
  return saved ? (
    <p className="settings-saved" role="status" data-testid={`${id}-saved`}>
      Saved.
    </p>
  ) : null;
}

/** Settings → Appearance: light, dark, or as the system. */
export function ThemeSection() {
  const theme = useApp((s) => s.appSettings?.theme ?? 'system');
  const update = useApp((s) => s.updateAppSettings);
  const [error, setError] = useState<string | undefined>(undefined);
  const choose = (value: ThemeSetting): void => {
    void update({ theme: value }).then(setError);
  };
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <fieldset className="theme-switch" data-testid="theme-switch">
        <legend className="muted">Theme</legend>
        {(['system', 'light', 'dark'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="theme" value={value} checked={theme === value} data-testid={`theme-${value}`} onChange={() => choose(value)} />{' '}
            {value === 'system' ? 'As the system' : value === 'light' ? 'Light' : 'Dark'}
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
      setError(`"${name}" is not a variable name: letters, digits and _, not starting with a digit.`);
      return;
    }
    if (names.includes(name)) {
      setError(`${name} is already in the list.`);
      return;
    }
    void save([...names, name]).then((ok) => ok && setDraft(''));
  };
  return (
    <section className="settings-section" aria-labelledby="settings-env">
      <h2 id="settings-env">Environment variables servers inherit</h2>
      <p className="muted">
        A server gets only the basic variables (HOME, PATH, …), its own <code>env</code>, and the names listed here. Values are never shown; servers started from now on (and
        restarted ones) get them.
      </p>
      <ul className="settings-list" data-testid="env-allow-list">
        {names.length === 0 && <li className="muted">None.</li>}
        {names.map((name) => (
          <li key={name} data-testid="env-allow-name" data-name={name}>
            <code>{name}</code>
            <button type="button" className="btn btn-ghost btn-small" aria-label={`Remove ${name}`} onClick={() => void save(names.filter((n) => n !== name))}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <form className="settings-add" onSubmit={add}>
        <input
          aria-label="Variable name to allow"
          data-testid="env-allow-input"
          placeholder="e.g. HTTPS_PROXY"
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
          Allow
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
        setError(`${k.label}: a whole number${k.unit === 'ms' ? ' of milliseconds' : ''}, or empty for the default.`);
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
    <section className="settings-section" aria-labelledby="settings-supervision">
      <h2 id="settings-supervision">Supervision defaults</h2>
      <p className="muted">Empty fields keep the default shown. New limits apply to servers as they (re)start.</p>
      <form className="settings-form" onSubmit={submit} data-testid="supervision-form">
        <label className="field-row">
          <input
            type="checkbox"
            data-testid="supervision-autoRestart"
            checked={autoRestart ?? settings.supervisionDefaults.autoRestart === true}
            onChange={(e) => setAutoRestart(e.target.checked)}
          />{' '}
          Restart a server that stops unexpectedly
        </label>
        <div className="settings-grid">
          {knobs.map((k) => (
            <label key={k.key}>
              <span>
                {k.label}
                {k.unit === 'ms' ? ' (ms)' : ''}
              </span>
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
            Save
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
            Use the defaults
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
      setError('A root is a folder path (absolute, ~/…) or a file:// URI.');
      return;
    }
    if (roots.includes(root)) {
      setError('That folder is already a default root.');
      return;
    }
    void save([...roots, root]).then((ok) => ok && setDraft(''));
  };
  return (
    <section className="settings-section" aria-labelledby="settings-roots">
      <h2 id="settings-roots">Default roots</h2>
      <p className="muted">Folders a server may work in, for every server whose entry has no roots of its own (paths, ~/ paths or file:// URIs).</p>
      <ul className="settings-list" data-testid="default-roots">
        {roots.length === 0 && <li className="muted">None.</li>}
        {roots.map((root) => (
          <li key={root} data-testid="default-root" data-root={root}>
            <code>{root}</code>
            <button type="button" className="btn btn-ghost btn-small" aria-label={`Remove ${root}`} onClick={() => void save(roots.filter((r) => r !== root))}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <form className="settings-add" onSubmit={add}>
        <input
          aria-label="Folder to add as a default root"
          data-testid="default-root-input"
          placeholder="e.g. ~/projects"
          spellCheck={false}
          autoComplete="off"
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(undefined);
          }}
        />
        <button type="submit" className="btn btn-small" data-testid="default-root-add" disabled={draft.trim() === ''}>
          Add
        </button>
      </form>
      <Status error={error} saved={saved} id="default-roots-error" />
    </section>
  );
}
