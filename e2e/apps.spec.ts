import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, lastNotice, send } from './helpers';

// MCP Apps against a real app server from npm: the app renders in a frame on an origin of its own (the sandbox proxy),
// gets its tool result, calls its server's tool through the host, and can reach the page only through the host's
// consent — never its document or the host's API.

const vanilla = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
test.use({ mcpServers: { basic: { command: process.execPath, args: [vanilla, '--stdio'] } } });

/** The sandbox proxy's frame (outer) and the app's own (inner, srcdoc) under the card's app view. */
async function appFrames(page: Page): Promise<{ outer: Frame; inner: Frame }> {
  const element = page.getByTestId('app-frame').last();
  await expect(element).toHaveAttribute('src', /.+/);
  const outer = await (await element.elementHandle())?.contentFrame();
  if (!outer) throw new Error('the app view has no frame');
  let inner: Frame | undefined;
  await expect.poll(() => (inner = outer.childFrames()[0]) !== undefined, { timeout: 15_000 }).toBe(true);
  if (!inner) throw new Error('the sandbox proxy made no inner frame');
  return { outer, inner };
}

async function openGetTime(page: Page): Promise<{ outer: Frame; inner: Frame }> {
  await expectReady(page, 'basic');
  await send(page, '/get-time {}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  await expect(lastCard(page).getByTestId('app-view')).toBeVisible();
  return appFrames(page);
}

test('get-time renders its app on another origin, with the tool result in it', async ({ page }) => {
  const card = lastCard(page);
  const { outer, inner } = await openGetTime(page);
  const frame = card.getByTestId('app-frame');
  // The frame's accessible name is the tool's title.
  await expect(card.getByTitle('Get Time')).toHaveCount(1);
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const pageOrigin = new URL(page.url()).origin;
  const frameOrigin = new URL(outer.url()).origin;
  expect(frameOrigin).not.toBe(pageOrigin);
  await expect(frame).toHaveAttribute('data-origin', frameOrigin);
  // The result the card shows is the one the app shows.
  const time = (await card.getByTestId('result-text').textContent()) ?? '';
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);
  await expect(inner.locator('#server-time')).toHaveText(time, { timeout: 15_000 });
});

test('the app’s own button calls the server’s tool through the host; the new result shows in the app', async ({ page }) => {
  const { inner } = await openGetTime(page);
  const first = await inner.locator('#server-time').textContent({ timeout: 15_000 });
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/);
  await inner.locator('#get-time-btn').click();
  await expect(inner.locator('#server-time')).not.toHaveText(first ?? '');
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
});

test('ui/message reaches the chat as from the app', async ({ page }) => {
  const { inner } = await openGetTime(page);
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/);
  await inner.locator('#message-text').fill('Hello from the app');
  await inner.locator('#send-message-btn').click();
  const notice = lastNotice(page);
  await expect(notice).toContainText('Hello from the app');
  await expect(notice).toContainText('From the app Get Time');
});

test('ui/open-link asks first, showing the host and the full address; nothing opens by itself', async ({ page }) => {
  const { inner } = await openGetTime(page);
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/);
  await inner.locator('#link-url').fill('https://example.com/some/path?q=1');
  await inner.locator('#open-link-btn').click();
  const consent = page.getByTestId('app-link-consent');
  await expect(consent.getByTestId('app-link-host')).toHaveText('example.com');
  await expect(consent.getByTestId('app-link-url')).toHaveText('https://example.com/some/path?q=1');
  expect(page.context().pages()).toHaveLength(1);
  await consent.getByTestId('app-link-open').click();
  // The page cannot open a browser: the link to click is shown.
  await expect(consent.getByTestId('app-link')).toHaveAttribute('href', 'https://example.com/some/path?q=1');

  // A scheme other than https (or loopback http) is refused outright.
  await consent.getByTestId('app-link-dismiss').click();
  await inner.locator('#link-url').fill('javascript:alert(1)');
  await inner.locator('#open-link-btn').click();
  await expect(page.getByTestId('app-note').last()).toContainText('refused');
  await expect(page.getByTestId('app-link-consent')).toHaveCount(0);
});

test('fullscreen from the button and from the app, and back', async ({ page, host }) => {
  // The request below is posted by hand, so the app's SDK sees an answer to an id it did not send, and says so.
  host.allowPageErrors(/unknown message ID/);
  const { inner } = await openGetTime(page);
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/);
  const view = lastCard(page).getByTestId('app-view');
  await view.getByTestId('app-fullscreen').click();
  await expect(view).toHaveAttribute('data-mode', 'fullscreen');
  const box = await view.boundingBox();
  const size = page.viewportSize();
  expect(box?.width).toBe(size?.width);
  expect(box?.height).toBe(size?.height);
  await page.keyboard.press('Escape');
  await expect(view).toHaveAttribute('data-mode', 'inline');

  // The app asks (ui/request-display-mode), as its SDK would.
  await inner.evaluate(`window.parent.postMessage({ jsonrpc: '2.0', id: 9001, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } }, '*')`);
  await expect(view).toHaveAttribute('data-mode', 'fullscreen');
  await view.getByTestId('app-back').click();
  await expect(view).toHaveAttribute('data-mode', 'inline');
  // The same app, not reloaded: it still shows its time.
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/);
});

test('the frame cannot reach the page’s document or the host API', async ({ page }) => {
  const { outer, inner } = await openGetTime(page);
  // Evaluated by the debugger protocol (not the page's eval, which the app's CSP forbids).
  const attempt = (frame: Frame, expression: string): Promise<unknown> =>
    frame.evaluate(`(() => { try { return 'reached: ' + String(${expression}); } catch (error) { return error.name; } })()`);
  expect(await attempt(inner, 'window.parent.document.title')).toBe('SecurityError');
  expect(await attempt(inner, 'window.top.document.title')).toBe('SecurityError');
  expect(await attempt(outer, 'window.parent.document.title')).toBe('SecurityError');
  expect(await attempt(outer, 'window.parent.sessionStorage.length')).toBe('SecurityError');
  // The app runs on an opaque origin: not even the proxy's storage.
  expect(await attempt(inner, 'window.localStorage.length')).toBe('SecurityError');
  expect(await attempt(inner, 'window.parent.localStorage.length')).toBe('SecurityError');
});
