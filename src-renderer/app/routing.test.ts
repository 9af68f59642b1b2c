import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, routeOf, type Route } from './routing';

describe('routes', () => {
  it('round-trips every screen and server page through the fragment', () => {
    const routes: Route[] = [
      { screen: 'chat' },
      { screen: 'settings' },
      { screen: 'servers', mode: 'list' },
      { screen: 'servers', mode: 'raw' },
      { screen: 'servers', mode: 'catalogue' },
      { screen: 'server', server: 'calculator', tab: 'tools' },
      { screen: 'server', server: 'a b/ç#?', tab: 'trace' },
      { screen: 'server', server: 'basic', tab: 'apps' },
    ];
    for (const route of routes) expect(parseRoute(formatRoute(route))).toEqual(route);
  });

  it('reads an empty, unknown or damaged fragment as the chat, and an unknown tab as the tools tab', () => {
    expect(parseRoute('')).toEqual({ screen: 'chat' });
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'chat' });
    expect(parseRoute('#/server/%E0%A4%A')).toEqual({ screen: 'chat' });
    expect(parseRoute('#/server/x/nope')).toEqual({ screen: 'server', server: 'x', tab: 'tools' });
    expect(parseRoute('#/servers/nope')).toEqual({ screen: 'servers', mode: 'list' });
  });

  it('names the server page only while the chat screen shows it', () => {
    const serverPage = { server: 'calculator', tab: 'logs' as const };
    expect(routeOf({ screen: 'chat', serversMode: 'list', serverPage })).toEqual({ screen: 'server', server: 'calculator', tab: 'logs' });
    expect(routeOf({ screen: 'servers', serversMode: 'raw', serverPage })).toEqual({ screen: 'servers', mode: 'raw' });
    expect(routeOf({ screen: 'chat', serversMode: 'list', serverPage: undefined })).toEqual({ screen: 'chat' });
  });
});
