import { useApp } from '../store/useApp';
import type { Screen } from '../store/config-slice';
import { useT } from '../i18n';

const tabs: Screen[] = ['chat', 'servers', 'settings'];

/**
 * The app's screens: the chat (with the servers sidebar), the servers editor, settings. A server's page is none of
 * them (its row in the sidebar is the current one then), and Chat leads back from it to the conversation.
 */
export function NavTabs() {
  const screen = useApp((s) => s.screen);
  const pageOpen = useApp((s) => s.serverPage !== undefined);
  const setScreen = useApp((s) => s.setScreen);
  const closeServerPage = useApp((s) => s.closeServerPage);
  const t = useT();
  return (
    <nav className="nav-tabs" aria-label={t('nav.screens')}>
      {tabs.map((screenName) => {
        const current = screen === screenName && !(screenName === 'chat' && pageOpen);
        return (
          <button
            key={screenName}
            type="button"
            className={`nav-tab${current ? ' selected' : ''}`}
            aria-current={current ? 'page' : undefined}
            data-testid={`nav-${screenName}`}
            onClick={() => {
              if (screenName === 'chat') closeServerPage();
              setScreen(screenName);
            }}
          >
            {t(`nav.${screenName}`)}
          </button>
        );
      })}
    </nav>
  );
}
