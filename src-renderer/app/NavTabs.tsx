import { useApp } from '../store/useApp';
import type { Screen } from '../store/config-slice';
import { useT } from '../i18n';

const tabs: Screen[] = ['chat', 'servers', 'settings'];

/** The app's screens: the chat (with the servers sidebar), the servers editor, settings. */
export function NavTabs() {
  const screen = useApp((s) => s.screen);
  const setScreen = useApp((s) => s.setScreen);
  const t = useT();
  return (
    <nav className="nav-tabs" aria-label={t('nav.screens')}>
      {tabs.map((screenName) => (
        <button
          key={screenName}
          type="button"
          className={`nav-tab${screen === screenName ? ' selected' : ''}`}
          aria-current={screen === screenName ? 'page' : undefined}
          data-testid={`nav-${screenName}`}
          onClick={() => setScreen(screenName)}
        >
          {t(`nav.${screenName}`)}
        </button>
      ))}
    </nav>
  );
}
