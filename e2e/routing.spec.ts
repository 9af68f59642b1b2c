import { expect, test } from './fixtures';
import { expectReady, serverRow } from './helpers';

/* Each screen and server page has an address: back and forward walk them, a reload stays, the header is right. */

const hash = (url: string): string => new URL(url).hash;

test('screens and server pages have addresses; back/forward work; a reload stays; the current tab is right', async ({ page }) => {
  await expectReady(page, 'calculator');
  // The token came in the query and is gone from the address; the screen is in the fragment.
  expect(new URL(page.url()).searchParams.get('token')).toBeNull();
  expect(hash(page.url())).toBe('#/chat');
  const nav = (name: string) => page.getByTestId(`nav-${name}`);
  await expect(nav('chat')).toHaveAttribute('aria-current', 'page');

  await nav('servers').click();
  await expect(page).toHaveURL(/#\/servers$/);
  await expect(nav('servers')).toHaveAttribute('aria-current', 'page');
  await expect(nav('chat')).not.toHaveAttribute('aria-current', /.*/);

  await nav('settings').click();
  await expect(page).toHaveURL(/#\/settings$/);

  await nav('chat').click();
  const name = serverRow(page, 'calculator').getByTestId('server-open-page');
  await name.click();
  await expect(page).toHaveURL(/#\/server\/calculator\/tools$/);
  // A server's page is not the chat: its row is the current place.
  await expect(nav('chat')).not.toHaveAttribute('aria-current', /.*/);
  await expect(name).toHaveAttribute('aria-current', 'page');

  await page.getByTestId('server-page').getByTestId('tab-resources').click();
  await expect(page).toHaveURL(/#\/server\/calculator\/resources$/);

  await page.goBack();
  await expect(page).toHaveURL(/#\/server\/calculator\/tools$/);
  await expect(page.getByTestId('server-page').getByTestId('tab-tools')).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/#\/chat$/);
  await expect(page.getByTestId('server-page')).toHaveCount(0);
  await expect(nav('chat')).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/#\/settings$/);
  await expect(page.getByTestId('settings-screen')).toBeVisible();
  await expect(nav('settings')).toHaveAttribute('aria-current', 'page');

  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/#\/server\/calculator\/resources$/);
  await expect(page.getByTestId('server-page').getByTestId('tab-resources')).toHaveAttribute('aria-selected', 'true');

  // A reload stays on the same server page and tab (the token is remembered for the tab, not the address).
  await page.reload();
  await expectReady(page, 'calculator');
  await expect(page.getByTestId('server-page')).toHaveAttribute('data-server', 'calculator');
  await expect(page.getByTestId('server-page').getByTestId('tab-resources')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#\/server\/calculator\/resources$/);

  // The raw editor has its own address too, and a reload stays on the screen.
  await nav('servers').click();
  await page.getByTestId('servers-mode-raw').click();
  await expect(page).toHaveURL(/#\/servers\/raw$/);
  await page.reload();
  await expect(page.getByTestId('servers-screen')).toBeVisible();
  await expect(nav('servers')).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/#\/servers\/raw$/);
});
