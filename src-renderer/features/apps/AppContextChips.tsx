import { useApp } from '../../store/useApp';
import type { AppModelContext } from '../../store/apps-slice';
import { useT } from '../../i18n';
import './apps.css';

const none: AppModelContext[] = [];

/** What apps asked to keep in the model's context for this conversation (`ui/update-model-context`), each removable. */
export function AppContextChips() {
  const t = useT();
  const conversation = useApp((s) => s.activeConversationId ?? '');
  const contexts = useApp((s) => s.appContexts[conversation] ?? none);
  const remove = useApp((s) => s.removeAppContext);
  if (contexts.length === 0) return null;
  return (
    <ul className="app-contexts" aria-label={t('apps.contextLabel')} data-testid="app-contexts">
      {contexts.map((c) => (
        <li key={c.key} className="app-context-chip" data-testid="app-context" title={c.text}>
          <span>{t('apps.contextFrom', { title: c.title, text: c.text })}</span>
          <button
            type="button"
            className="attachment-remove"
            aria-label={t('apps.contextRemove', { title: c.title })}
            data-testid="app-context-remove"
            onClick={() => remove(conversation, c.key)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
