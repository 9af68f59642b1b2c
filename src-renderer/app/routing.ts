import type { AppStore, AppState } from '../store';
import type { ServersMode } from '../store/config-slice';
import { serverTabs, type ServerTab } from '../store/feature-types';

/**
 * Each screen and server page has an address in the URL's fragment: `#/chat`, `#/servers` (`/raw`,
 * `/catalogue`), `#/settings`, `#/server/<name>/<tab>`. The fragment works the same whether the page came from the
 * headless server (whose `?token=` the bridge client takes out of the address before this runs) or from a file in
 * the desktop window, and changing it never loads anything. Back and forward walk the screens; a reload stays.
 */
export type Route =
  { screen: 'chat' } | { screen: 'server'; server: string; tab: ServerTab } | { screen: 'servers'; mode: ServersMode } | { screen: 'settings' };

const serversModes: readonly ServersMode[] = ['list', 'raw', 'catalogue'];

/** The route a fragment names; anything unknown is the chat (an old or mistyped address still opens the app). */
export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '');
  const [head, second, third] = parts;
  if (head === 'settings') return { screen: 'settings' };
  if (head === 'servers') {
    const mode = serversModes.find((m) => m === second);
    return { screen: 'servers', mode: mode ?? 'list' };
  }
  if (head === 'server' && second !== undefined) {
    let server: string;
    try {
      server = decodeURIComponent(second);
    } catch {
      return { screen: 'chat' };
    }
    const tab = serverTabs.find((t) => t === third);
    return { screen: 'server', server, tab: tab ?? 'tools' };
  }
  return { screen: 'chat' };
}

export function formatRoute(route: Route): string {
  switch (route.screen) {
    case 'chat':
      return '#/chat';
    case 'settings':
      return '#/settings';
    case 'servers':
      return route.mode === 'list' ? '#/servers' : `#/servers/${route.mode}`;
    case 'server':
      return `#/server/${encodeURIComponent(route.server)}/${route.tab}`;
  }
}

/** Where the app is now, as a route. */
export function routeOf(state: Pick<AppState, 'screen' | 'serversMode' | 'serverPage'>): Route {
  if (state.screen === 'settings') return { screen: 'settings' };
  if (state.screen === 'servers') return { screen: 'servers', mode: state.serversMode };
  if (state.serverPage) return { screen: 'server', server: state.serverPage.server, tab: state.serverPage.tab };
  return { screen: 'chat' };
}

/** Shows a route: the store's screen, servers mode and server page. */
export function applyRoute(store: AppStore, route: Route): void {
  const s = store.getState();
  switch (route.screen) {
    case 'chat':
      if (s.serverPage) s.closeServerPage();
      s.setScreen('chat');
      return;
    case 'server':
      if (s.screen !== 'chat' || s.serverPage?.server !== route.server || s.serverPage.tab !== route.tab) s.openServerPage(route.server, route.tab);
      return;
    case 'servers':
      s.setScreen('servers');
      s.setServersMode(route.mode);
      return;
    case 'settings':
      s.setScreen('settings');
      return;
  }
}

/**
 * Keeps the address and the store in step: the address a page loads with is shown, each move in the app is a new
 * history entry, and back/forward (or an edited address) move the app. Returns the unsubscribe.
 */
export function bindRouting(store: AppStore, win: Window): () => void {
  const fromAddress = (): void => applyRoute(store, parseRoute(win.location.hash));
  fromAddress();
  const current = formatRoute(routeOf(store.getState()));
  if (win.location.hash !== current) win.history.replaceState(win.history.state, '', current);
  const offStore = store.subscribe((state, previous) => {
    if (state.screen === previous.screen && state.serversMode === previous.serversMode && state.serverPage === previous.serverPage) return;
    const next = formatRoute(routeOf(state));
    if (win.location.hash !== next) win.history.pushState(null, '', next);
  });
  win.addEventListener('popstate', fromAddress);
  win.addEventListener('hashchange', fromAddress);
  return () => {
    offStore();
    win.removeEventListener('popstate', fromAddress);
    win.removeEventListener('hashchange', fromAddress);
  };
}
