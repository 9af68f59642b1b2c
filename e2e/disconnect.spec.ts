import { expect, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';

test('headless: when the host goes away the page says so, retries, and calls fail with a clear error', async ({ page, host }) => {
  test.skip(host.mode !== 'web', "headless mode only: the desktop window's host is its own main process, which cannot go away while the window lives");
  // Chromium logs each refused reconnect attempt.
  host.allowPageErrors(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/bridge\?token=[^']*' failed/);
  // …and the page's /bridge-info probe (is it a restart with a new token, or no host at all?).
  host.allowPageErrors(/Failed to load resource: net::ERR_CONNECTION_REFUSED/);
  await expectReady(page, 'calculator');
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);

  await host.terminate();

  const banner = page.getByTestId('disconnected-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Disconnected from host');
  await expect(banner).toContainText('Reconnecting');
  // It keeps trying on its own, and the banner stays up while it does.
  await page.waitForEvent('websocket');
  await expect(banner).toBeVisible();

  await send(page, '/add {"a":2,"b":3}');
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.getByTestId('call-error')).toContainText(/not connected to the Switchboard host|Disconnected/i);
});
