import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { RegistryServerView } from '../../../src-shared/host-api';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import './install.css';
import { useT } from '../../i18n';

/**
 * The MCP Registry's catalogue, browsable and searchable: one card per server (its kinds, version, status); "Install"
 * opens the install dialog, which shows the full command before anything is added. Deprecated and deleted entries
 * say so and cannot be installed.
 */
export function RegistryCatalogue() {
  const search = useApp((s) => s.registrySearch);
  const openInstall = useApp((s) => s.openInstall);
  const [term, setTerm] = useState('');
  const [registry, setRegistry] = useState<string | undefined>(undefined);
  const [servers, setServers] = useState<RegistryServerView[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; unreachable: boolean } | undefined>(undefined);
  const [last, setLast] = useState<{ text: string; after?: string }>({ text: '' });
  const searchId = useId();
  const t = useT();

  const load = useCallback(
    async (text: string, after?: string): Promise<void> => {
      setBusy(true);
      setError(undefined);
      setLast({ text, ...(after !== undefined ? { after } : {}) });
      try {
        const page = await search({ ...(text ? { search: text } : {}), ...(after ? { cursor: after } : {}) });
        setRegistry(page.registry);
        setServers((s) => (after ? [...s, ...page.servers] : page.servers));
        setCursor(page.nextCursor);
      } catch (e) {
        const described = describeError(e);
        const data = described.data ?? {};
        // The host's own words name the CLI's --registry flag: here, say what can be done in the app.
        setError(
          data.reason === 'registry-unreachable'
            ? { text: t('registry.unreachable', { registry: String(data.registry ?? ''), detail: String(data.detail ?? '') }), unreachable: true }
            : { text: described.message, unreachable: false },
        );
      } finally {
        setBusy(false);
      }
    },
    [search, t],
  );

  useEffect(() => {
    void load('');
  }, [load]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void load(term.trim());
  };

  return (
    <section className="registry-catalogue" aria-label={t('registry.label')} data-testid="registry-catalogue">
      <form className="registry-search" role="search" onSubmit={submit}>
        <label htmlFor={searchId}>{t('registry.searchLabel')}</label>
        <input
          id={searchId}
          type="text"
          spellCheck={false}
          data-testid="registry-search"
          value={term}
          placeholder={t('registry.placeholder')}
          onChange={(e) => setTerm(e.target.value)}
        />
        <button type="submit" className="btn btn-small" disabled={busy}>
          {t('registry.search')}
        </button>
        {registry && <span className="muted registry-source">{t('registry.from', { registry })}</span>}
      </form>
      {error && (
        <div className="form-error" role="alert" data-testid="registry-error">
          <p>{error.text}</p>
          {error.unreachable && <p className="muted">{t('registry.otherRegistry')}</p>}
          <button type="button" className="btn btn-small" data-testid="registry-retry" disabled={busy} onClick={() => void load(last.text, last.after)}>
            {t('registry.retry')}
          </button>
        </div>
      )}
      {!busy && !error && servers.length === 0 && <p className="muted">{t('registry.nothing')}</p>}
      <ul className="registry-list">
        {servers.map((server) => (
          <li
            key={`${server.name}@${server.version}`}
            className="registry-item"
            data-testid="registry-item"
            data-name={server.name}
            data-status={server.status}
          >
            <div className="registry-item-head">
              <strong>{server.title ?? server.name}</strong>
              <span className="muted">{server.name}</span>
              <span className="chip">{server.version}</span>
              {server.kinds.map((kind, i) => (
                <span key={`${kind}-${i}`} className="chip">
                  {kind}
                </span>
              ))}
              {server.status !== 'active' && <span className="chip chip-warning">{server.status}</span>}
            </div>
            <p className="registry-description">{server.description}</p>
            {server.refused ? (
              <p className="muted" data-testid="registry-refused">
                {server.refused}
              </p>
            ) : (
              <button
                type="button"
                className="btn btn-small btn-primary"
                data-testid="registry-install"
                aria-label={t('registry.installLabel', { name: server.name })}
                onClick={() => openInstall({ kind: 'registry', name: server.name, ...(registry ? { registry } : {}) })}
              >
                {t('registry.install')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className="btn btn-small" data-testid="registry-more" disabled={busy} onClick={() => void load(term.trim(), cursor)}>
          {t('registry.more')}
        </button>
      )}
    </section>
  );
}
