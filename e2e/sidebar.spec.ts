import { writeFileSync } from 'node:fs';
import { calculatorScript, calculatorServer, defaultServers, expect, test } from './fixtures';
import { expectReady, serverRow } from './helpers';

/*
 * The servers sidebar a person can live in: each server one line until opened (remembered per server across
 * reloads) with its tool count; the servers that need the person named above every screen with the action at hand;
 * and no status shown as current while the host that owns it cannot be reached.
 */

test('servers start closed with their tool count; a row opened stays open after a reload, per server', async ({ page }) => {
  const calculator = await expectReady(page, 'calculator');
  const broken = serverRow(page, 'broken');
  await expect(broken).toHaveAttribute('data-status', 'error');
  await expect(calculator).toHaveAttribute('data-expanded', 'false');
  await expect(calculator.getByTestId('server-tool-count')).toHaveText('4 tools');
  await expect(calculator.getByTestId('tool-item')).toHaveCount(0);
  await expect(calculator.getByTestId('server-stderr')).toHaveCount(0);
  await expect(calculator.getByTestId('server-expand')).toHaveAttribute('aria-expanded', 'false');

  await calculator.getByTestId('server-expand').click();
  await expect(calculator).toHaveAttribute('data-expanded', 'true');
  await expect(calculator.getByTestId('server-expand')).toHaveAttribute('aria-expanded', 'true');
  await expect(calculator.getByTestId('tool-item')).toHaveText([/^add/, /^subtract/, /^multiply/, /^divide/]);

  await page.reload();
  await expectReady(page, 'calculator');
  await expect(calculator).toHaveAttribute('data-expanded', 'true');
  await expect(calculator.getByTestId('tool-item')).toHaveCount(4);
  await expect(broken).toHaveAttribute('data-expanded', 'false');
  await expect(broken.getByTestId('server-error')).toHaveCount(0);

  await calculator.getByTestId('server-expand').click();
  await page.reload();
  await expectReady(page, 'calculator');
  await expect(calculator).toHaveAttribute('data-expanded', 'false');
  await expect(calculator.getByTestId('tool-item')).toHaveCount(0);
});

test.describe('attention', () => {
  test('a bar on every screen names the servers that need the person; Approve there starts the server', async ({ page, host }) => {
    await expectReady(page, 'calculator');
    const bar = page.getByTestId('attention-bar');
    // The failing server is named with its reason and a way to its page.
    const brokenItem = bar.locator('[data-testid="attention-item"][data-server="broken"]');
    await expect(brokenItem).toHaveAttribute('data-need', 'error');
    await expect(brokenItem.getByTestId('attention-reason')).toContainText('definitely-not-a-real-command-xyz');

    // A server added behind the app's back waits for approval: named at the top, with what it would run.
    writeFileSync(
      host.configPath,
      JSON.stringify({ mcpServers: { calculator: calculatorServer(), broken: defaultServers().broken, added: calculatorServer() } }),
    );
    await expect(serverRow(page, 'added')).toHaveAttribute('data-status', 'needs-approval');
    const addedItem = bar.locator('[data-testid="attention-item"][data-server="added"]');
    await expect(addedItem).toHaveAttribute('data-need', 'approval');
    await expect(addedItem.getByTestId('attention-line')).toContainText(calculatorScript);
    // Above the sidebar and the chat: it comes before them in the page.
    const barBox = await bar.boundingBox();
    const sidebarBox = await page.getByTestId('server-sidebar').boundingBox();
    expect(barBox && sidebarBox && barBox.y < sidebarBox.y).toBe(true);

    for (const screen of ['servers', 'settings'] as const) {
      await page.getByTestId(`nav-${screen}`).click();
      await expect(bar.locator('[data-testid="attention-item"][data-server="added"]')).toBeVisible();
    }
    await page.getByTestId('nav-chat').click();

    await addedItem.getByTestId('attention-approve').click();
    await expectReady(page, 'added');
    await expect(addedItem).toHaveCount(0);
    await expect(brokenItem).toBeVisible();

    // The failing server's Open shows its page.
    await brokenItem.getByTestId('attention-open').click();
    await expect(page.getByTestId('server-page')).toHaveAttribute('data-server', 'broken');
  });

  test('a server waiting for approval offers Approve in its row, not a Restart that does nothing', async ({ page, host }) => {
    await expectReady(page, 'calculator');
    writeFileSync(host.configPath, JSON.stringify({ mcpServers: { calculator: calculatorServer(), added: calculatorServer() } }));
    const row = serverRow(page, 'added');
    await expect(row).toHaveAttribute('data-status', 'needs-approval');
    await expect(row.getByTestId('server-restart')).toHaveCount(0);
    const approve = row.getByTestId('server-approve');
    await expect(approve).toHaveText('Approve');
    await expect(approve).toHaveAttribute('title', new RegExp(calculatorScript.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await approve.click();
    await expectReady(page, 'added');
    await expect(row.getByTestId('server-approve')).toHaveCount(0);
    await expect(row.getByTestId('server-restart')).toHaveText('Restart');
  });
});

test('while the host is unreachable no server is shown as ready: their status is unknown', async ({ page, host }) => {
  test.skip(host.mode !== 'web', "headless mode only: the desktop window's host is its own main process");
  host.allowPageErrors(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/bridge\?token=[^']*' failed/);
  host.allowPageErrors(/Failed to load resource: net::ERR_CONNECTION_REFUSED/);
  const calculator = await expectReady(page, 'calculator');
  await expect(page.getByTestId('server-count')).toHaveText('1/2 ready');

  await host.terminate();
  await expect(page.getByTestId('disconnected-banner')).toBeVisible();
  for (const name of ['calculator', 'broken']) {
    const row = serverRow(page, name);
    await expect(row).toHaveAttribute('data-status', 'unknown');
    await expect(row.getByTestId('server-status')).toHaveText('Unknown');
  }
  await expect(calculator.getByTestId('server-restart')).toBeDisabled();
  await expect(page.getByTestId('server-count')).toHaveText('?/2');
  await expect(page.getByTestId('sidebar-unreachable')).toBeVisible();
  await expect(page.getByTestId('attention-bar')).toHaveCount(0);
  // The Servers screen says the same.
  await page.getByTestId('nav-servers').click();
  const configured = page.locator('[data-testid="config-server-row"][data-server="calculator"]');
  await expect(configured).toHaveAttribute('data-status', 'unknown');
  await expect(configured.getByTestId('config-server-status')).toHaveText('Unknown');
});
