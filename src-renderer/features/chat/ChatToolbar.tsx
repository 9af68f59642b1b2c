import { useEffect, useState, type FormEvent } from 'react';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

const modelPattern = /^[a-z][a-z0-9-]*:\S+$/;

/** Above the log: history, new chat, the model picker, the way to the providers (in Settings), the audit log. */
export function ChatToolbar() {
  const providers = useApp((s) => s.providers);
  const setModel = useApp((s) => s.setModel);
  const clearChat = useApp((s) => s.clearChat);
  const toggleHistory = useApp((s) => s.toggleHistory);
  const historyOpen = useApp((s) => s.historyOpen);
  const setChatDialog = useApp((s) => s.setChatDialog);
  const openProviderSettings = useApp((s) => s.openProviderSettings);
  const providerModels = useApp((s) => s.providerModels);
  const loadProviderModels = useApp((s) => s.loadProviderModels);
  const t = useT();
  const current = providers?.model ?? '';
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [current]);

  const options = (providers?.providers ?? []).filter((p) => p.configured).flatMap((p) => (providerModels[p.id] ?? p.models).map((m) => `${p.id}:${m}`));
  if (current && !options.includes(current)) options.unshift(current);
  const valid = modelPattern.test(draft.trim());
  const apply = (event?: FormEvent): void => {
    event?.preventDefault();
    const spec = draft.trim();
    if (spec !== current && modelPattern.test(spec)) void setModel(spec);
  };

  return (
    <div className="chat-toolbar" data-testid="chat-toolbar">
      <button
        type="button"
        className={`btn btn-small${historyOpen ? ' is-active' : ''}`}
        data-testid="history-toggle"
        aria-pressed={historyOpen}
        onClick={toggleHistory}
      >
        {t('toolbar.history')}
      </button>
      <button type="button" className="btn btn-small" data-testid="new-chat" onClick={clearChat}>
        {t('toolbar.newChat')}
      </button>
      <form className="model-picker" onSubmit={apply}>
        <label htmlFor="model-picker-input" className="muted">
          {t('toolbar.model')}
        </label>
        <input
          id="model-picker-input"
          data-testid="model-picker"
          list="model-options"
          placeholder={providers?.hint ? t('toolbar.noProvider') : 'provider:model'}
          value={draft}
          aria-invalid={draft !== '' && !valid}
          spellCheck={false}
          onChange={(e) => setDraft(e.target.value)}
          onFocus={() => void loadProviderModels()}
          onBlur={() => apply()}
        />
        <datalist id="model-options">
          {options.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      </form>
      <span className="toolbar-spacer" />
      <button type="button" className="btn btn-small" data-testid="open-providers" title={t('providers.openSettingsTitle')} onClick={openProviderSettings}>
        {t('toolbar.providers')}
      </button>
      <button type="button" className="btn btn-small" data-testid="open-audit" onClick={() => setChatDialog('audit')}>
        {t('toolbar.audit')}
      </button>
    </div>
  );
}
