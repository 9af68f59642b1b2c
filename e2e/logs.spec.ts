import { expect, test } from './fixtures';
import { featuresServer, openServerPage } from './features-helpers';
import { expectReady, lastCard, send } from './helpers';

// The Logs tab: the lines a server writes to stderr and its MCP log messages, together in time order, each marked
// with its source, filtered by source and level.
test.use({ mcpServers: { features: featuresServer('--debug') } });

test('stderr lines and MCP log messages together, source marked, filterable', async ({ page }) => {
  await expectReady(page, 'features');
  await send(page, '/log');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const serverPage = await openServerPage(page, 'features');
  await serverPage.getByRole('tab', { name: 'Logs' }).click();
  const list = serverPage.getByRole('listbox', { name: 'Log of features' });

  // The server's stderr, which the tab used to leave out ("No log messages yet"), and its log messages.
  const started = list.locator('[data-source="stderr"]', { hasText: '[features-server] serving stdio' });
  await expect(started).toBeVisible();
  await expect(started).toContainText('stderr');
  const warning = list.locator('[data-source="log"]', { hasText: 'a warning message' });
  await expect(warning).toContainText('warning');
  // In time order: the server started (stderr) before the call that logged, and it wrote "call log" before logging.
  const texts = await list.getByRole('option').allTextContents();
  const at = (part: string): number => texts.findIndex((t) => t.includes(part));
  expect(at('serving stdio')).toBeGreaterThanOrEqual(0);
  expect(at('serving stdio')).toBeLessThan(at('call log'));
  expect(at('call log')).toBeLessThan(at('a warning message'));

  // Only stderr; only the log messages; the level filter applies to log messages.
  const source = serverPage.getByTestId('log-filter-source');
  await source.selectOption('stderr');
  await expect(list.locator('[data-source="log"]')).toHaveCount(0);
  await expect(started).toBeVisible();
  await source.selectOption('log');
  await expect(list.locator('[data-source="stderr"]')).toHaveCount(0);
  await expect(warning).toBeVisible();
  await serverPage.getByTestId('log-filter-level').selectOption('error');
  await expect(warning).toHaveCount(0);
  await source.selectOption('all');
  await expect(started).toBeVisible();
  await serverPage.getByRole('searchbox', { name: 'Search the log' }).fill('serving stdio');
  await expect(list.getByRole('option')).toHaveCount(1);

  // A stderr line opens as text, marked as stderr.
  await list.getByRole('option').first().click();
  await expect(serverPage.getByTestId('log-detail')).toContainText('[features-server] serving stdio');

  // New lines follow while the tab is open.
  await serverPage.getByRole('searchbox', { name: 'Search the log' }).fill('');
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await send(page, '/bump');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const again = await openServerPage(page, 'features');
  await again.getByRole('tab', { name: 'Logs' }).click();
  await expect(list.locator('[data-source="stderr"]', { hasText: 'call bump' })).toBeVisible();
});

test('the level a server sends can be chosen on every protocol era, and takes effect', async ({ page }) => {
  await expectReady(page, 'features');
  const serverPage = await openServerPage(page, 'features');
  await serverPage.getByRole('tab', { name: 'Logs' }).click();
  const list = serverPage.getByRole('listbox', { name: 'Log of features' });
  // The level goes to every server (on 2026-07-28 in each request's _meta), so the picker is always offered.
  const sends = serverPage.getByTestId('log-set-level');
  await expect(sends).toHaveValue('info');
  await sends.selectOption('debug');
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await send(page, '/log');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const again = await openServerPage(page, 'features');
  await again.getByRole('tab', { name: 'Logs' }).click();
  await expect(list.locator('[data-source="log"]', { hasText: 'a debug message' })).toBeVisible();
});
