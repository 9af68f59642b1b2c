import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { openServerPage } from './features-helpers';
import { expectReady, lastCard, openRow, send } from './helpers';
import { appsServerScript, openApp } from './apps-helpers';

// An app's HTML is pinned with its tool: when the server serves different HTML on a later run, the tool shows as
// changed and needs review, and its app is not rendered (nor the tool run) until a person accepts the new one.

const variantFile = join(mkdtempSync(join(tmpdir(), 'switchboard-apps-changed-')), 'variant');
writeFileSync(variantFile, '1');

test.use({ mcpServers: { apps: { command: process.execPath, args: [appsServerScript, `--variant-file=${variantFile}`] } } });

test('a UI resource whose HTML changed between runs needs review and is not rendered until accepted', async ({ page }) => {
  writeFileSync(variantFile, '1');
  await expectReady(page, 'apps');
  const first = await openApp(page, 'show_clock');
  await expect(first.inner.locator('#v')).toHaveText('clock variant 1', { timeout: 15_000 });

  // The next run serves other HTML.
  writeFileSync(variantFile, '2');
  const row = await openRow(page, 'apps');
  const item = row.locator('[data-testid="tool-item"][data-tool="show_clock"]');
  await expect(item).toHaveAttribute('data-review', 'trusted');
  await row.getByTestId('server-restart').click();
  // The app on screen was opened on the session that ended: it is not left drawing; opened again on the new
  // session, it is refused until reviewed.
  await expect(first.card.getByTestId('app-failed')).toContainText('apps/show_clock changed since it was trusted');
  await expect(first.card.getByTestId('app-frame')).toHaveCount(0);
  await expect(item).toHaveAttribute('data-review', 'changed');
  await expect(item.getByTestId('review-badge')).toHaveText('changed — needs review');

  // Refused, saying what changed, and no app is drawn for it.
  await send(page, '/show_clock {}');
  const refused = lastCard(page);
  await expect(refused).toHaveAttribute('data-state', 'error');
  await expect(refused.getByTestId('call-error')).toContainText('apps/show_clock changed since it was trusted (appHtml)');
  await expect(refused.getByTestId('app-frame')).toHaveCount(0);
  for (const frame of page.frames()) expect(await frame.locator('#v').allTextContents()).not.toContain('clock variant 2');

  // A reloaded page draws the earlier card's app again from the conversation: not while it needs review.
  await page.reload();
  await expectReady(page, 'apps');
  await expect(page.getByTestId('call-card').first().getByTestId('app-failed')).toContainText('apps/show_clock changed since it was trusted');
  await expect(page.getByTestId('app-frame')).toHaveCount(0);

  // Accepted on the server page, the new app renders.
  const serverPage = await openServerPage(page, 'apps');
  await serverPage
    .getByRole('listbox', { name: 'Tool catalogue of apps' })
    .getByRole('option', { name: /^show_clock/ })
    .click();
  const detail = serverPage.getByTestId('tool-detail');
  await expect(detail.getByTestId('trust-review')).toHaveAttribute('data-state', 'changed');
  await expect(detail.locator('[data-testid="trust-diff"][data-field="appHtml"]')).toHaveCount(1);
  await detail.getByTestId('trust-accept').click();
  await expect(item).toHaveAttribute('data-review', 'trusted');
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  const second = await openApp(page, 'show_clock');
  await expect(second.inner.locator('#v')).toHaveText('clock variant 2', { timeout: 15_000 });
});
