import { expect, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';

test('headless: the token leaves the address bar and a reload still reaches the host', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode only: the desktop window speaks IPC, with no bridge token in an address bar to hide or reload');
  await expectReady(page, 'calculator');
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  await page.reload();
  await expectReady(page, 'calculator');
  await send(page, '/add {"a":20,"b":22}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('42');
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);
});
