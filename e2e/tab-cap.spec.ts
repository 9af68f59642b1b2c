import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectReady } from './helpers';

test('headless: a tab beyond the cap of 8 says why, and connects on its own once another tab closes', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode only: the desktop app is one window over IPC, with no browser tabs to cap');
  test.setTimeout(120_000);
  await expectReady(page, 'calculator');
  // The page keeps the token in sessionStorage (per tab): a new tab needs the printed URL, as a person would use.
  const token: unknown = await page.evaluate("sessionStorage.getItem('switchboard.bridgeToken')");
  if (typeof token !== 'string' || token === '') throw new Error('the page kept no token');
  const printedUrl = `${new URL(page.url()).origin}/?token=${token}`;
  const context = page.context();
  const others: Page[] = [];
  for (let i = 0; i < 7; i++) {
    const tab = await context.newPage();
    await tab.goto(printedUrl);
    await expectReady(tab, 'calculator');
    others.push(tab);
  }
  const ninth = await context.newPage();
  await ninth.goto(printedUrl);
  const banner = ninth.getByTestId('disconnected-banner');
  await expect(banner).toContainText('too many Switchboard tabs open (max 8); close one and reload');
  // The eight within the cap are unaffected.
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);
  await others[0]?.close();
  await expectReady(ninth, 'calculator');
  await expect(banner).toHaveCount(0);
  for (const tab of others.slice(1)) await tab.close();
  await ninth.close();
});
