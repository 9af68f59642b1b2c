import { useState } from 'react';
import { useApp } from '../../store/useApp';
import { formatWhen, useT } from '../../i18n';

/** Saved conversations: search, open, rename, delete. */
export function HistorySidebar() {
  const conversations = useApp((s) => s.conversations);
  const query = useApp((s) => s.conversationQuery);
  const active = useApp((s) => s.activeConversationId);
  const search = useApp((s) => s.searchConversations);
  const open = useApp((s) => s.openConversation);
  const rename = useApp((s) => s.renameConversation);
  const remove = useApp((s) => s.deleteConversation);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [title, setTitle] = useState('');
  const t = useT();

  return (
    <aside className="history" aria-label={t('history.label')} data-testid="history">
      <input
        className="history-search"
        type="search"
        placeholder={t('history.search')}
        value={query}
        data-testid="history-search"
        onChange={(e) => search(e.target.value)}
      />
      <ul className="history-list">
        {conversations.length === 0 && <li className="muted history-empty">{query ? t('history.nothingMatches') : t('history.empty')}</li>}
        {conversations.map((c) => (
          <li key={c.id} className={`history-item${c.id === active ? ' is-active' : ''}`} data-testid="history-item" data-id={c.id}>
            {editing === c.id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (title.trim()) void rename(c.id, title.trim());
                  setEditing(undefined);
                }}
              >
                <input
                  autoFocus
                  className="history-rename"
                  data-testid="history-rename-input"
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                  onBlur={() => setEditing(undefined)}
                />
              </form>
            ) : (
              <button type="button" className="history-open" onClick={() => void open(c.id)} title={c.title}>
                <span className="history-title">{c.title}</span>
                <span className="muted history-sub">{c.snippet ?? t('history.sub', { count: c.messageCount, when: formatWhen(c.updatedAt) })}</span>
              </button>
            )}
            <span className="history-actions">
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={t('history.renameLabel', { title: c.title })}
                data-testid="history-rename"
                onClick={() => {
                  setTitle(c.title);
                  setEditing(c.id);
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={t('history.deleteLabel', { title: c.title })}
                data-testid="history-delete"
                onClick={() => {
                  if (window.confirm(t('history.confirmDelete', { title: c.title }))) void remove(c.id);
                }}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
