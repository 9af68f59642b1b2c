import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { StoreContext } from './hooks/useApp';
import { createHostClient } from './host-client';
import { createAppStore } from './store';
import { bindHost } from './store/bind-host';
import './styles.css';

// Outside React: one host client, one store, one subscription to host events (StrictMode cannot double it).
const host = createHostClient();
const store = createAppStore(host);
bindHost(store, host);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
