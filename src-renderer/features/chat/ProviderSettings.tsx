import { useState } from 'react';
import type { ApprovalMode, ProviderView } from '../../../src-shared/contract/chat';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import { Dialog } from '../../ui/Dialog';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

/** Providers (keys go to main's secret store and never come back), approval policy, and which tools the model may use. */
export function ProviderSettings() {
  const providers = useApp((s) => s.providers);
  const settings = useApp((s) => s.chatSettings);
  const servers = useApp((s) => s.servers);
  const update = useApp((s) => s.updateChatSettings);
  const close = useApp((s) => s.setChatDialog);
  const t = useT();
  const disabled = new Set(settings?.disabledTools ?? []);
  const toggleTool = (key: string, enabled: boolean): void => {
    const next = new Set(disabled);
    if (enabled) next.delete(key);
    else next.add(key);
    void update({ disabledTools: [...next] });
  };
  return (
    <Dialog title={t('providers.title')} onClose={() => close(undefined)} testId="providers-dialog" wide closeOnBackdrop>
      <section>
        <h3>{t('providers.heading')}</h3>
        <p className="muted">
          <Trans i18nKey="providers.intro" components={{ code: <code /> }} />
        </p>
        {providers?.providers.map((p) => (
          <ProviderRow key={p.id} provider={p} />
        ))}
        {providers?.model && (
          <p className="muted">
            <Trans
              i18nKey="providers.newMessagesUse"
              values={{ model: providers.model, source: t(`providers.source.${providers.modelSource ?? 'default'}`) }}
              components={{ code: <code /> }}
            />
          </p>
        )}
      </section>
      <section>
        <h3>{t('providers.approvals')}</h3>
        <label className="field-row">
          <span>{t('providers.beforeTool')}</span>
          <select data-testid="approval-mode" value={settings?.approval ?? 'ask'} onChange={(e) => void update({ approval: e.target.value as ApprovalMode })}>
            <option value="ask">{t('providers.mode.ask')}</option>
            <option value="readonly">{t('providers.mode.readonly')}</option>
            <option value="all">{t('providers.mode.all')}</option>
            <option value="none">{t('providers.mode.none')}</option>
          </select>
        </label>
        <label className="field-row">
          <span>{t('providers.maxSteps')}</span>
          <input
            type="number"
            min={1}
            max={100}
            value={settings?.maxSteps ?? 10}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 1 && n <= 100) void update({ maxSteps: n });
            }}
          />
        </label>
        {(settings?.alwaysAllow.length ?? 0) > 0 && (
          <div>
            <span>{t('providers.alwaysAllowed')}</span>
            <ul className="plain-list">
              {settings?.alwaysAllow.map((key) => (
                <li key={key}>
                  <code>{key}</code>{' '}
                  <button type="button" className="btn btn-small" onClick={() => void update({ alwaysAllow: settings.alwaysAllow.filter((k) => k !== key) })}>
                    {t('providers.askAgain')}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section>
        <h3>{t('providers.toolsHeading')}</h3>
        {servers.every((s) => s.tools.length === 0) && <p className="muted">{t('providers.noServer')}</p>}
        {servers.map((server) =>
          server.tools.length === 0 ? null : (
            <fieldset key={server.name} className="tool-toggles">
              <legend>{server.name}</legend>
              {server.tools.map((tool) => {
                const key = `${server.name}/${tool.name}`;
                return (
                  <label key={key} className="tool-toggle">
                    <input
                      type="checkbox"
                      data-testid="tool-enabled"
                      data-key={key}
                      checked={!disabled.has(key)}
                      onChange={(e) => toggleTool(key, e.target.checked)}
                    />
                    {tool.name}
                    {tool.annotations?.readOnlyHint === true && <span className="tag">{t('toolCard.readOnly')}</span>}
                  </label>
                );
              })}
            </fieldset>
          ),
        )}
      </section>
    </Dialog>
  );
}

function ProviderRow({ provider }: { provider: ProviderView }) {
  const configure = useApp((s) => s.configureProvider);
  const [key, setKey] = useState('');
  const [baseURL, setBaseURL] = useState(provider.baseURLSource === 'settings' ? (provider.baseURL ?? '') : '');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const t = useT();
  const save = async (request: { apiKey?: string | null; baseURL?: string | null }): Promise<void> => {
    setError(undefined);
    setSaved(false);
    try {
      await configure({ id: provider.id, ...request });
      setKey('');
      setSaved(true);
    } catch (e) {
      setError(describeError(e).message);
    }
  };
  // Worded by id: the core's label is English.
  const name = t(`providers.names.${provider.id}`);
  return (
    <form
      className="provider-row"
      data-testid="provider-row"
      data-provider={provider.id}
      onSubmit={(e) => {
        e.preventDefault();
        void save({
          ...(key.trim() ? { apiKey: key.trim() } : {}),
          baseURL: baseURL.trim() ? baseURL.trim() : provider.baseURLSource === 'settings' ? null : undefined,
        });
      }}
    >
      <div className="provider-head">
        <strong>{name}</strong>
        <span className={`pill ${provider.configured ? 'pill-ok' : 'pill-cancelled'}`}>
          {provider.configured ? t('providers.ready') : t('providers.notSetUp')}
        </span>
        <span className="muted">
          {t(`providers.api.${provider.api === 'chat' ? 'chat' : provider.api === 'messages' ? 'messages' : 'responses'}`)}
          {provider.hasKey
            ? t('providers.keyFrom', { source: t(`providers.source.${provider.keySource ?? 'settings'}`) })
            : provider.keyEnv
              ? t('providers.noKey', { env: provider.keyEnv })
              : ''}
          {provider.baseURL ? ` · ${provider.baseURL} (${t(`providers.source.${provider.baseURLSource ?? 'default'}`)})` : ''}
        </span>
      </div>
      <div className="provider-fields">
        <input
          type="password"
          autoComplete="off"
          placeholder={provider.hasKey ? t('providers.replaceKey') : t('providers.apiKey')}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-label={t('providers.apiKeyLabel', { provider: name })}
        />
        <input
          type="url"
          placeholder={provider.baseURL ?? t('providers.baseUrl')}
          value={baseURL}
          onChange={(e) => setBaseURL(e.target.value)}
          aria-label={t('providers.baseUrlLabel', { provider: name })}
        />
        <button type="submit" className="btn btn-small btn-primary">
          {t('common.save')}
        </button>
        {provider.keySource === 'settings' && (
          <button type="button" className="btn btn-small" onClick={() => void save({ apiKey: null })}>
            {t('providers.removeKey')}
          </button>
        )}
        {saved && <span className="muted">{t('appSettings.saved')}</span>}
      </div>
      {error && <p className="call-error">{error}</p>}
    </form>
  );
}
