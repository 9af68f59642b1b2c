import { useState } from 'react';
import { Trans } from 'react-i18next';
import type { ApprovalMode, ProviderView, ToolLoading } from '../../../src-shared/contract/chat';
import { describeError } from '../../host/bridge-client';
import type { ProviderSaved } from '../../store/providers-slice';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

/** The base URL a provider needs: the OpenAI-compatible endpoint has no default, so it cannot work without one. */
export const baseURLRequired = (provider: Pick<ProviderView, 'id'>): boolean => provider.id === 'compatible';

/** An http(s) URL, or the reason it is not one (the catalogue key). */
function baseURLProblem(text: string): 'providers.baseUrlNotHttp' | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'providers.baseUrlNotHttp';
  } catch {
    return 'providers.baseUrlNotHttp';
  }
}

/** Settings → Model providers: keys (they go to the host's secret store and never come back) and base URLs. */
export function ProvidersSection() {
  const providers = useApp((s) => s.providers);
  const t = useT();
  return (
    <section className="settings-section settings-wide" id="settings-providers" aria-labelledby="settings-providers-heading" data-testid="providers-section">
      <h2 id="settings-providers-heading" tabIndex={-1}>
        {t('providers.heading')}
      </h2>
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
  );
}

/** Settings → Chat: the approval policy, the step limit, and which tools the model may use. */
export function ChatToolsSection() {
  const settings = useApp((s) => s.chatSettings);
  const servers = useApp((s) => s.servers);
  const update = useApp((s) => s.updateChatSettings);
  const t = useT();
  const disabled = new Set(settings?.disabledTools ?? []);
  const toggleTool = (key: string, enabled: boolean): void => {
    const next = new Set(disabled);
    if (enabled) next.delete(key);
    else next.add(key);
    void update({ disabledTools: [...next] });
  };
  return (
    <section className="settings-section settings-wide" aria-labelledby="settings-chat" data-testid="chat-settings-section">
      <h2 id="settings-chat">{t('providers.approvals')}</h2>
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
      <label className="field-row">
        <span>{t('providers.toolLoading')}</span>
        <select
          data-testid="tool-loading"
          value={settings?.toolLoading ?? 'auto'}
          onChange={(e) => void update({ toolLoading: e.target.value as ToolLoading })}
        >
          <option value="auto">{t('providers.loading.auto')}</option>
          <option value="all">{t('providers.loading.all')}</option>
          <option value="search">{t('providers.loading.search')}</option>
        </select>
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
  );
}

/** The chat with `model` chosen, its box focused (once the chat screen shows). */
function useStartChat(): (model: string | undefined) => void {
  const startChatWith = useApp((s) => s.startChatWith);
  return (model) =>
    void startChatWith(model).then(() => requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="chat-input"]')?.focus()));
}

function ProviderRow({ provider }: { provider: ProviderView }) {
  const configure = useApp((s) => s.configureProvider);
  const startChat = useStartChat();
  const [key, setKey] = useState('');
  const [baseURL, setBaseURL] = useState(provider.baseURLSource === 'settings' ? (provider.baseURL ?? '') : '');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<ProviderSaved | undefined>(undefined);
  const t = useT();
  const required = baseURLRequired(provider);
  const errorId = `provider-error-${provider.id}`;
  const save = async (request: { apiKey?: string | null; baseURL?: string | null }): Promise<void> => {
    setError(undefined);
    setSaved(undefined);
    try {
      setSaved(await configure({ id: provider.id, ...request }));
      setKey('');
    } catch (e) {
      setError(describeError(e).message);
    }
  };
  // Worded by id: the core's label is English.
  const name = t(`providers.names.${provider.id}`);
  const submit = (): void => {
    const url = baseURL.trim();
    // A base URL from the environment or .env counts; the field is for one saved here.
    if (required && url === '' && (provider.baseURL === undefined || provider.baseURLSource === 'settings')) {
      setError(t('providers.baseUrlMissing', { provider: name }));
      return;
    }
    const problem = url === '' ? undefined : baseURLProblem(url);
    if (problem) {
      setError(t(problem, { url }));
      return;
    }
    void save({
      ...(key.trim() ? { apiKey: key.trim() } : {}),
      baseURL: url ? url : provider.baseURLSource === 'settings' ? null : undefined,
    });
  };
  return (
    <form
      className="provider-row"
      data-testid="provider-row"
      data-provider={provider.id}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
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
          data-testid="provider-base-url"
          placeholder={provider.baseURL ?? (required ? t('providers.baseUrlRequired') : t('providers.baseUrl'))}
          value={baseURL}
          required={required}
          aria-required={required}
          aria-invalid={error !== undefined && required && baseURL.trim() === '' ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setBaseURL(e.target.value);
            setError(undefined);
          }}
          aria-label={t(required ? 'providers.baseUrlLabelRequired' : 'providers.baseUrlLabel', { provider: name })}
        />
        <button type="submit" className="btn btn-small btn-primary" data-testid="provider-save">
          {t('common.save')}
        </button>
        {provider.keySource === 'settings' && (
          <button type="button" className="btn btn-small" onClick={() => void save({ apiKey: null })}>
            {t('providers.removeKey')}
          </button>
        )}
      </div>
      {saved && (
        <div className="provider-saved" role="status" data-testid="provider-saved">
          {saved.model !== undefined ? (
            <>
              <span>{t('providers.savedWorks', { provider: name })}</span>
              <button type="button" className="btn btn-small btn-primary" data-testid="provider-start-chat" onClick={() => startChat(saved.model)}>
                {t('providers.chatWith', { model: saved.model })}
              </button>
            </>
          ) : saved.configured ? (
            <>
              <span>{t('providers.savedNoModels', { provider: name, id: provider.id })}</span>
              <button type="button" className="btn btn-small" data-testid="provider-start-chat" onClick={() => startChat(undefined)}>
                {t('providers.toChat')}
              </button>
            </>
          ) : (
            <span className="muted">{t('appSettings.saved')}</span>
          )}
        </div>
      )}
      {error && (
        <p className="call-error" id={errorId} role="alert" data-testid="provider-error">
          {error}
        </p>
      )}
    </form>
  );
}
