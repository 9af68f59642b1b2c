import { calculatorServer, expect, test } from './fixtures';
import { expectReady, serverRow } from './helpers';

/*
 * The keyboard: a skip link as the first Tab stop, shortcuts to the chat box and the servers filter, landmarks
 * for screen readers, and Esc closing whatever panel is open.
 */

test.use({
  mcpServers: Object.fromEntries(['alpha', 'beta', 'gamma', 'delta'].map((name) => [name, calculatorServer()])),
});

test('from page load two key presses reach the chat box, past the header and every server', async ({ page }) => {
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) await expectReady(page, name);
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-to-chat');
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chat-input')).toBeFocused();

  // The other skip link goes to the screen's main content, whichever screen it is.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('skip-to-main').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settings-screen')).toBeFocused();
});

test('shortcuts: / the chat box, Ctrl+K the servers filter, ? lists them; landmarks are labelled', async ({ page }) => {
  await expectReady(page, 'alpha');
  await expectReady(page, 'delta');
  const input = page.getByTestId('chat-input');

  await page.getByTestId('nav-servers').click();
  await page.keyboard.press('/');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('');
  await expect(page.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');

  // In a field, / is text.
  await input.press('/');
  await expect(input).toHaveValue('/');
  await input.fill('');

  await page.keyboard.press('Control+k');
  const filter = page.getByTestId('server-filter');
  await expect(filter).toBeFocused();
  await page.keyboard.type('gam');
  await expect(page.getByTestId('server-row')).toHaveCount(1);
  await expect(serverRow(page, 'gamma')).toBeVisible();
  // A tool's name finds its servers too.
  await filter.fill('divide');
  await expect(page.getByTestId('server-row')).toHaveCount(4);
  await filter.fill('nothing-like-this');
  await expect(page.getByTestId('server-filter-empty')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(page.getByTestId('server-row')).toHaveCount(4);

  // Ctrl+K unfolds a folded sidebar to get there.
  await page.getByTestId('sidebar-toggle').click();
  await expect(page.getByTestId('server-sidebar')).toHaveAttribute('data-collapsed', 'true');
  await page.keyboard.press('Control+k');
  await expect(filter).toBeFocused();

  // Outside a field, ? lists the shortcuts.
  await page.getByTestId('sidebar-toggle').focus();
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-dialog');
  await expect(help).toBeVisible();
  await expect(help).toContainText('Ctrl+K');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.getByTestId('shortcuts-open').click();
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');

  await expect(page.getByRole('banner')).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Servers' })).toBeVisible();
  await expect(page.getByRole('main')).toHaveCount(1);
});

test('Esc closes History, each dialog and a server page', async ({ page }) => {
  await expectReady(page, 'alpha');
  const toggle = page.getByTestId('history-toggle');
  await toggle.click();
  const history = page.getByTestId('history');
  await expect(history).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(history).toHaveCount(0);
  await expect(toggle).toBeFocused();
  // From inside it too (its search box empty).
  await toggle.click();
  await page.getByTestId('history-search').focus();
  await page.keyboard.press('Escape');
  await expect(history).toHaveCount(0);

  for (const [button, dialog] of [
    ['open-audit', 'audit-dialog'],
    ['shortcuts-open', 'shortcuts-dialog'],
  ] as const) {
    await page.getByTestId(button).click();
    await expect(page.getByTestId(dialog)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(dialog)).toHaveCount(0);
  }

  await serverRow(page, 'alpha').getByTestId('server-open-page').click();
  await expect(page.getByTestId('server-page')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('server-page')).toHaveCount(0);
  await expect(page.getByTestId('chat-log')).toBeVisible();
  await expect(serverRow(page, 'alpha').getByTestId('server-open-page')).toBeFocused();
});
