import { AttentionBar } from './AttentionBar';
import { Banners } from './Banners';
import { ShortcutsDialog, SkipLinks, useShortcuts } from './Shortcuts';
import { ChatPanel } from '../features/chat/ChatPanel';
import { Header } from './Header';
import { ServerList } from '../features/servers/ServerList';
import { ServersScreen } from '../features/servers/ServersScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { ServerPage } from '../features/servers/ServerPage';
import { RequestsPanel } from '../features/requests/RequestsPanel';
import { InstallHost } from '../features/install/InstallHost';
import { useConfigSync } from '../features/config/useConfigSync';
import { useApp } from '../store/useApp';
import './app.css';

export function App() {
  const screen = useApp((s) => s.screen);
  const pageOpen = useApp((s) => s.serverPage !== undefined);
  useConfigSync();
  useShortcuts();
  return (
    <div className="app">
      {/* The first stops of Tab, before the header and the servers list. */}
      <SkipLinks />
      <Header />
      <Banners />
      <AttentionBar />
      {/* The chat stays mounted while another screen is shown, so nothing in it is lost. */}
      <div className={`app-body${pageOpen ? ' page-open' : ''}`} hidden={screen !== 'chat'}>
        <ServerList />
        <ChatPanel />
        {/* A server's page takes the conversation's place; the conversation stays mounted underneath. */}
        <ServerPage />
      </div>
      {screen === 'servers' && <ServersScreen />}
      {screen === 'settings' && <SettingsScreen />}
      {/* Requests a person must answer that have no call card on screen, visible from every screen. */}
      <RequestsPanel />
      {/* The install dialog: from the catalogue, a dropped bundle, or a switchboard:// link. */}
      <InstallHost />
      <ShortcutsDialog />
    </div>
  );
}
