import { expect, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';
import { appLabScript, openApp } from './apps-helpers';

// A tool whose `_meta.ui.visibility` is ["app"] is for its app only: not offered as a / command nor callable as one,
// yet its own server's app calls it through the host and gets its answer.

test.use({ mcpServers: { lab: { command: process.execPath, args: [appLabScript] } } });

test('an app-only tool is not suggested nor callable as /tool, but its app calls it', async ({ page }) => {
  await expectReady(page, 'lab');
  const input = page.getByTestId('chat-input');
  await input.fill('/');
  const list = page.getByTestId('slash-suggestions');
  await expect(list).toBeVisible();
  const names = list.getByTestId('slash-suggestion');
  // The server's other tools are offered (so the list is the lab's), the app-only one is not.
  await expect(list.locator('[data-name="panel"]')).toHaveCount(1);
  await expect(list.locator('[data-name="echo"]')).toHaveCount(1);
  await expect(list.locator('[data-name="secret_op"]')).toHaveCount(0);
  await input.fill('/secret');
  await expect(names).toHaveCount(0);

  await send(page, '/secret_op {}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'error');
  await expect(lastCard(page).getByTestId('call-error')).toContainText('only for its app');

  const { inner } = await openApp(page, 'panel');
  await expect(inner.locator('#out')).toHaveText('result: panel shown', { timeout: 15_000 });
  await inner.locator('#call').click();
  // The refused direct call never reached the server: the app's is its first.
  await expect(inner.locator('#out')).toHaveText('app got: secret 1');
  await inner.locator('#call').click();
  await expect(inner.locator('#out')).toHaveText('app got: secret 2');
});
