import { useApp } from '../hooks/useApp';
import type { Screen } from '../store/config-slice';

const tabs: Array<{ screen: Screen; label: string }> = [
  { screen: 'chat', label: 'Chat' },
  { screen: 'servers', label: 'Servers' },
  { screen: 'settings', label: 'Settings' },
];

/** The app's screens: the chat (with the servers sidebar), the servers editor, settings. */
export function NavTabs() {
  const screen = useApp((s) => s.screen);
  const setScreen = useApp((s) => s.setScreen);
  return (
    <nav className="nav-tabs" aria-label="Screens">
      {tabs.map((tab) => (
        <button
          key={tab.screen}
          type="button"
          className={`nav-tab${screen === tab.screen ? ' selected' : ''}`}
          aria-current={screen === tab.screen ? 'page' : undefined}
          data-testid={`nav-${tab.screen}`}
          onClick={() => setScreen(tab.screen)}
        >
          {tab.label}
        </button>
      ))}
    </nav>
  );
}
