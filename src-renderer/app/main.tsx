import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { StoreContext } from '../store/useApp';
import { createBridgeClient } from '../host/bridge-client';
import { createAppStore } from '../store';
import { bindHost } from '../store/bind-host';
import { bindRouting } from './routing';
// The app-wide sheets, after every component's own, in this cascade order: tokens and base, the servers sidebar,
// buttons and inputs, the chat log, form fields, the composer, then the layout that fits any window.
import '../styles/global.css';
import '../features/servers/sidebar.css';
import '../styles/inputs.css';
import '../features/chat/messages.css';
import '../ui/form-field.css';
import '../features/chat/composer.css';
import '../styles/layout.css';
import { applyTheme, rememberedTheme } from '../styles/theme';

// The last theme chosen, before the host answers (so a dark-theme user gets no light flash).
applyTheme(rememberedTheme());

// Outside React: one bridge client, one store, one subscription to host events (StrictMode cannot double it).
const host = createBridgeClient();
const store = createAppStore(host);
bindHost(store, host);
// After the bridge client took its token out of the address: the fragment names the screen to show.
bindRouting(store, window);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
