import { expect, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';
import { appLabScript, openApp } from './apps-helpers';

// An app that floods the host with tool calls is stopped by the host's limits; the card says why, and the rest of
// the page (another app, a direct call) goes on working.

test.use({ mcpServers: { lab: { command: process.execPath, args: [appLabScript, '--flood=500'] } } });

test('a flooding app is torn down with the reason; the page and other apps stay responsive', async ({ page }) => {
  await expectReady(page, 'lab');
  const panel = await openApp(page, 'panel');
  await expect(panel.inner.locator('#out')).toHaveText('result: panel shown', { timeout: 15_000 });

  // Its frame may be gone before a test could look into it: the card is what stays.
  await send(page, '/flood {}');
  const card = page.getByTestId('call-card').nth(1);
  await expect(card).toHaveAttribute('data-state', 'ok');
  // No look at its app-view: on a loaded machine the flood can close it before any check runs (the note replaces it).
  const closed = card.getByTestId('app-closed');
  await expect(closed).toContainText('too many requests', { timeout: 20_000 });
  await expect(card.getByTestId('app-frame')).toHaveCount(0);

  // Another app still calls through the host, and a direct call still runs.
  await panel.inner.locator('#call').click();
  await expect(panel.inner.locator('#out')).toHaveText('app got: secret 1');
  await send(page, '/echo {}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('echo');
  // The flood card still says why (it did not come back by itself).
  await expect(closed).toBeVisible();
});
