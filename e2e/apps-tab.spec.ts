import { join } from 'node:path';
import type { Frame, Locator, Page } from '@playwright/test';
import { expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';

// The server page's Apps tab against a real app server from npm: each tool with a UI and what it declares, opened
// with its tool's last result from the host's call registry, or run from the tab when it needs no arguments.

const vanilla = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
test.use({ mcpServers: { basic: { command: process.execPath, args: [vanilla, '--stdio'] } } });

async function innerFrame(scope: Locator): Promise<Frame> {
  const element = scope.getByTestId('app-frame');
  await expect(element).toHaveAttribute('src', /.+/);
  const outer = await (await element.elementHandle())?.contentFrame();
  if (!outer) throw new Error('the app view has no frame');
  let inner: Frame | undefined;
  await expect.poll(() => (inner = outer.childFrames()[0]) !== undefined, { timeout: 15_000 }).toBe(true);
  if (!inner) throw new Error('the sandbox proxy made no inner frame');
  return inner;
}

async function openAppsTab(page: Page): Promise<Locator> {
  await expectReady(page, 'basic');
  await page.evaluate("window.location.hash = '#/server/basic/apps'");
  const tab = page.getByTestId('apps-tab');
  await expect(tab).toBeVisible();
  return tab;
}

test('the Apps tab lists the tool with its UI resource and what it declares; its address is #/server/NAME/apps', async ({ page }) => {
  const tab = await openAppsTab(page);
  await expect(page.getByRole('tab', { name: /Apps/ })).toHaveAttribute('aria-selected', 'true');
  const row = tab.locator('[data-testid="apps-row"][data-tool="get-time"]');
  await expect(row.getByTestId('apps-resource')).toHaveText('ui://get-time/mcp-app.html');
  await expect(row.getByTestId('apps-status')).toHaveText('valid');
  await expect(row.getByTestId('apps-review')).toHaveText('reviewed');
  await expect(row.getByTestId('apps-visibility')).toHaveText('the model, the app');
  await expect(row.getByTestId('apps-permissions')).toHaveText('none');
  // A reload comes back to the same tab.
  await page.reload();
  await expect(page.getByTestId('apps-tab')).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/server/basic/apps');
});

test('Open with no call yet shows the app with no result; "Run the tool" (keyboard) gives it one', async ({ page }) => {
  const tab = await openAppsTab(page);
  const row = tab.locator('[data-testid="apps-row"][data-tool="get-time"]');
  await row.getByTestId('apps-open').focus();
  await page.keyboard.press('Enter');
  const panel = tab.getByTestId('apps-open-panel');
  await expect(panel.getByTestId('apps-open-note')).toContainText('No result yet');
  await expect(panel.getByTitle('Get Time')).toHaveCount(1);
  await innerFrame(panel);
  await row.getByTestId('apps-run').focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('apps-open-note')).toContainText('With the result of the call');
  const inner = await innerFrame(panel);
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/, { timeout: 15_000 });
});

test('Open shows the app with the result of the tool’s last call', async ({ page }) => {
  await expectReady(page, 'basic');
  await send(page, '/get-time {}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const time = (await lastCard(page).getByTestId('result-text').textContent()) ?? '';
  expect(time).toMatch(/^\d{4}-/);
  const tab = await openAppsTab(page);
  await tab.locator('[data-testid="apps-row"][data-tool="get-time"]').getByTestId('apps-open').click();
  const panel = tab.getByTestId('apps-open-panel');
  await expect(panel.getByTestId('apps-open-note')).toContainText('With the result of the call');
  const inner = await innerFrame(panel);
  await expect(inner.locator('#server-time')).toHaveText(time, { timeout: 15_000 });
});
