import { useState } from 'react';
import type { ApprovalMode, ProviderView } from '../../src-shared/chat-types';
import { describeError } from '../host-client';
import { useApp } from '../hooks/useApp';
import { Dialog } from '../ui/Dialog';

const sourceLabel = { settings: 'saved here', env: 'from the environment', dotenv: 'from .env', default: 'default' } as const;

/** Providers (keys go to main's secret store and never come back), approval policy, and which tools the model may use. */
export function ProviderSettings() {
  const providers = useApp((s) => s.providers);
  const settings = useApp((s) => s.chatSettings);
  const servers = useApp((s) => s.servers);
  const update = useApp((s) => s.updateChatSettings);
  const close = useApp((s) => s.setChatDialog);
  const disabled = new Set(settings?.disabledTools ?? []);
  const toggleTool = (key: string, enabled: boolean): void => {
    const next = new Set(disabled);
    if (enabled) next.delete(key);
    else next.add(key);
    void update({ disabledTools: [...next] });
  };
  return (
    <Dialog title="Providers & approvals" onClose={() => close(undefined)} testId="providers-dialog" wide closeOnBackdrop>
      <section>
        <h3>Providers</h3>
        <p className="muted">
          Keys are kept by Switchboard (as secrets) and used only to call the provider; they are never shown again. Values in <code>.env</code> work too
          (see <code>.env.example</code>).
        </p>
        {providers?.providers.map((p) => <ProviderRow key={p.id} provider={p} />)}
        {providers?.model && (
          <p className="muted">
            New messages use <code>{providers.model}</code> ({sourceLabel[providers.modelSource ?? 'default']}).
          </p>
        )}
      </section>
      <section>
        <h3>Approvals</h3>
        <label className="field-row">
          <span>Before a tool runs</span>
          <select data-testid="approval-mode" value={settings?.approval ?? 'ask'} onChange={(e) => void update({ approval: e.target.value as ApprovalMode })}>
            <option value="ask">Ask every time</option>
            <option value="readonly">Run read-only tools (readOnlyHint) without asking</option>
            <option value="all">Run every tool without asking</option>
            <option value="none">Never run tools</option>
          </select>
        </label>
        <label className="field-row">
          <span>Most model steps per message</span>
          <input type="number" min={1} max={100} value={settings?.maxSteps ?? 10} onChange={(e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n >= 1 && n <= 100) void update({ maxSteps: n }); }} />
        </label>
        {(settings?.alwaysAllow.length ?? 0) > 0 && (
          <div>
            <span>Always allowed:</span>
            <ul className="plain-list">
              {settings?.alwaysAllow.map((key) => (
                <li key={key}>
                  <code>{key}</code>{' '}
                  <button type="button" className="btn btn-small" onClick={() => void update({ alwaysAllow: settings.alwaysAllow.filter((k) => k !== key) })}>
                    Ask again
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section>
        <h3>Tools the model may use</h3>
        {servers.every((s) => s.tools.length === 0) && <p className="muted">No server is ready yet.</p>}
        {servers.map((server) =>
          server.tools.length === 0 ? null : (
            <fieldset key={server.name} className="tool-toggles">
              <legend>{server.name}</legend>
              {server.tools.map((tool) => {
                const key = `${server.name}/${tool.name}`;
                return (
                  <label key={key} className="tool-toggle">
                    <input type="checkbox" data-testid="tool-enabled" data-key={key} checked={!disabled.has(key)} onChange={(e) => toggleTool(key, e.target.checked)} />
                    {tool.name}
                    {tool.annotations?.readOnlyHint === true && <span className="tag">read-only</span>}
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
  return (
    <form
      className="provider-row"
      data-testid="provider-row"
      data-provider={provider.id}
      onSubmit={(e) => {
        e.preventDefault();
        void save({ ...(key.trim() ? { apiKey: key.trim() } : {}), baseURL: baseURL.trim() ? baseURL.trim() : provider.baseURLSource === 'settings' ? null : undefined });
      }}
    >
      <div className="provider-head">
        <strong>{provider.label}</strong>
        <span className={`pill ${provider.configured ? 'pill-ok' : 'pill-cancelled'}`}>{provider.configured ? 'ready' : 'not set up'}</span>
        <span className="muted">
          {provider.api === 'chat' ? 'Chat Completions' : provider.api === 'messages' ? 'Messages API' : 'Responses API'}
          {provider.hasKey ? ` · key ${sourceLabel[provider.keySource ?? 'settings']}` : provider.keyEnv ? ` · no key (${provider.keyEnv})` : ''}
          {provider.baseURL ? ` · ${provider.baseURL} (${sourceLabel[provider.baseURLSource ?? 'default']})` : ''}
        </span>
      </div>
      <div className="provider-fields">
        <input type="password" autoComplete="off" placeholder={provider.hasKey ? 'Replace the key' : 'API key'} value={key} onChange={(e) => setKey(e.target.value)} aria-label={`${provider.label} API key`} />
        <input type="url" placeholder={provider.baseURL ?? 'Base URL (optional)'} value={baseURL} onChange={(e) => setBaseURL(e.target.value)} aria-label={`${provider.label} base URL`} />
        <button type="submit" className="btn btn-small btn-primary">
          Save
        </button>
        {provider.keySource === 'settings' && (
          <button type="button" className="btn btn-small" onClick={() => void save({ apiKey: null })}>
            Remove key
          </button>
        )}
        {saved && <span className="muted">Saved.</span>}
      </div>
      {error && <p className="call-error">{error}</p>}
    </form>
  );
}
