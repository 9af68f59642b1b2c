import { join } from 'node:path';
import { expect, repoRoot, test } from './fixtures';
import { featuresServer, openServerPage } from './features-helpers';
import { expectReady, serverRow } from './helpers';

// A server's page: tabs with arrow keys, the tool catalogue (searchable, virtualised), back to the chat. The Skills tab
// (between Apps and Logs) shows only for a server that declares skills: skills.spec.ts checks that order.
test.use({ mcpServers: { features: featuresServer() } });

test('a server page with tabs Tools · Resources · Prompts · Apps · Logs · Trace (no Skills: the server has none); arrow keys move between tabs', async ({
  page,
}) => {
  await expectReady(page, 'features');
  const serverPage = await openServerPage(page, 'features');
  const tabs = serverPage.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText([/^Tools/, /^Resources/, /^Prompts/, /^Apps/, /^Logs/, /^Trace/]);
  const tools = tabs.getByRole('tab', { name: /^Tools/ });
  await expect(tools).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('chat-log')).toBeHidden();

  await tools.focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: /^Resources/ })).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.getByRole('tab', { name: /^Resources/ })).toBeFocused();
  await expect(serverPage.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'server-page-tab-resources');
  await page.keyboard.press('End');
  await expect(tabs.getByRole('tab', { name: /^Trace/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(tools).toHaveAttribute('aria-selected', 'true');

  // The catalogue: every tool, searchable; a tool's schemas and badges.
  const list = serverPage.getByRole('listbox', { name: 'Tool catalogue of features' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await serverPage.getByRole('searchbox', { name: 'Search tools' }).fill('structured');
  await expect(list.getByRole('option')).toHaveCount(2);
  await list.getByRole('option', { name: /^structured-bad/ }).click();
  await expect(serverPage.getByTestId('tool-detail').getByTestId('output-schema')).toContainText('product');

  // Call… opens the form in the chat.
  await serverPage.getByRole('searchbox', { name: 'Search tools' }).fill('slow');
  await list.getByRole('option', { name: /^slow/ }).click();
  await serverPage.getByTestId('catalogue-open-form').click();
  await expect(page.getByTestId('server-page')).toHaveCount(0);
  await expect(page.getByTestId('tool-form')).toContainText('slow');

  // And back: the sidebar's Open toggles the page.
  await serverRow(page, 'features').getByTestId('server-open-page').click();
  await expect(page.getByTestId('server-page')).toBeVisible();
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await expect(page.getByTestId('chat-log')).toBeVisible();
});

// Hundreds of tools stay fast: the list renders only what is on screen.
test.describe('with hundreds of tools', () => {
  test.use({
    mcpServers: { many: { command: process.execPath, args: [join(repoRoot, 'src-main', 'core', 'fixtures', 'many-tools-server.mjs'), '--tools=500'] } },
  });

  test('the catalogue is virtualised and searchable', async ({ page }) => {
    await expectReady(page, 'many');
    const serverPage = await openServerPage(page, 'many');
    const list = serverPage.getByRole('listbox', { name: /Tool catalogue/ });
    await expect(list.getByRole('option').first()).toBeVisible();
    const total = await list.getByRole('option').first().getAttribute('aria-setsize');
    expect(Number(total)).toBeGreaterThan(100);
    // Far fewer rows in the DOM than tools.
    expect(await list.getByRole('option').count()).toBeLessThan(60);
    await list.focus();
    await page.keyboard.press('End');
    await expect(list.getByRole('option', { selected: true })).toHaveAttribute('aria-posinset', total ?? '');
  });
});
