import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerConfig } from './fixtures';
import { expect, test as base } from './fixtures';
import { expectReady } from './helpers';
import { appLabScript, openApp } from './apps-helpers';

// An app's network is its CSP: with nothing declared it reaches no origin at all, and a declared connect origin opens
// connections to it, not images from it. A loopback server started here records every request it gets, so "blocked"
// means the request never left the browser (not merely that the app could not read the answer).

interface Sink {
  origin: string;
  hits: string[];
}

const test = base.extend<{ sink: Sink }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  sink: async ({}, use) => {
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(new URL(request.url ?? '/', 'http://x').searchParams.get('from') ?? request.url ?? '');
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      response.end('pong');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await use({ origin: `http://127.0.0.1:${port}`, hits });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  },
  mcpServers: async ({ sink }, use) => {
    const servers: Record<string, ServerConfig> = { lab: { command: process.execPath, args: [appLabScript, `--origin=${sink.origin}`] } };
    await use(servers);
  },
});

test.beforeEach(({ host }) => {
  // What the browser says when the CSP blocks a request (the app itself handles the failure).
  host.allowPageErrors(/Content Security Policy|Failed to fetch|net::ERR_|Failed to load resource/);
});

test('an app that declares no CSP can neither fetch nor load an image from a loopback server', async ({ page, sink }) => {
  await expectReady(page, 'lab');
  const { inner } = await openApp(page, 'csp_none');
  await expect(inner.locator('#out')).toHaveText(/^fetch blocked: TypeError$/, { timeout: 15_000 });
  await expect(inner.locator('#log')).toContainText('img blocked');
  // Nothing left the browser.
  expect(sink.hits).toEqual([]);
});

test('an app that declares the origin in connectDomains reaches it; an image from it stays blocked', async ({ page, sink }) => {
  await expectReady(page, 'lab');
  const { inner } = await openApp(page, 'csp_connect');
  await expect(inner.locator('#out')).toHaveText('fetch ok: pong', { timeout: 15_000 });
  await expect(inner.locator('#log')).toContainText('img blocked');
  expect(sink.hits).toEqual(['connect-fetch']);
});
