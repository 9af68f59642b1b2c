import { Banners } from './components/Banners';
import { ChatPanel } from './components/ChatPanel';
import { Header } from './components/Header';
import { ServerList } from './components/ServerList';

export function App() {
  return (
    <div className="app">
      <Header />
      <Banners />
      <div className="app-body">
        <ServerList />
        <ChatPanel />
      </div>
    </div>
  );
}
