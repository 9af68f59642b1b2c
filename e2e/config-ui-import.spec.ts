import type { Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorScript, calculatorServer, expect, test } from './fixtures';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady, openRow } from './helpers';

/** Approves a server's launch on its consent card (in the chat's server list). */
async function approve(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await (await openRow(page, name)).getByTestId('consent-approve').click();
  await expectReady(page, name);
}

const readServers = (path: string): Record<string, Record<string, unknown>> =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;

test('import from a Claude-format file: the preview names the conflict, skips it by default, overwrites only on confirmation', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const claudeFile = join(host.dir, 'claude_desktop_config.json');
  const theirCalculator = { command: process.execPath, args: [calculatorScript] };
  writeFileSync(
    claudeFile,
    JSON.stringify({
      mcpServers: {
        calculator: theirCalculator,
        imported: { command: process.execPath, args: [calculatorScript], env: { API_KEY: 'sk-e2e-import-value' } },
      },
    }),
  );

  await openServers(page);
  await page.getByTestId('open-import').click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-source-path').check();
  await dialog.getByTestId('import-path').fill(claudeFile);
  await dialog.getByTestId('import-preview').click();

  await expect(dialog.getByTestId('import-file')).toHaveText(claudeFile);
  const conflict = dialog.locator('[data-testid="import-candidate"][data-name="calculator"]');
  const fresh = dialog.locator('[data-testid="import-candidate"][data-name="imported"]');
  await expect(conflict).toHaveAttribute('data-status', 'conflict');
  await expect(conflict.getByTestId('import-conflict')).toContainText('a different “calculator” exists');
  await expect(conflict.getByRole('checkbox', { name: 'Overwrite calculator' })).not.toBeChecked();
  await expect(fresh).toHaveAttribute('data-status', 'new');
  await expect(fresh.getByRole('checkbox', { name: 'Import imported' })).toBeChecked();
  await expect(fresh).toContainText('env.API_KEY');
  await expect(dialog).not.toContainText('sk-e2e-import-value');
  await expect(dialog.getByTestId('import-move-secrets')).toBeChecked();

  await dialog.getByTestId('import-apply').click();
  const result = dialog.getByTestId('import-result');
  await expect(result.getByTestId('import-added')).toContainText('imported');
  await expect(result.locator('[data-testid="import-skipped"] li[data-name="calculator"]')).toContainText('not overwritten');
  await expect(result.getByTestId('import-secrets')).toContainText('imported_API_KEY');
  let servers = readServers(host.configPath);
  expect(servers.calculator).toEqual(calculatorServer());
  expect(servers.imported?.env).toEqual({ API_KEY: '${secret:imported_API_KEY}' });
  expect(readFileSync(host.configPath, 'utf8')).not.toContain('sk-e2e-import-value');
  await dialog.getByTestId('import-done').click();
  // An imported command does not run before a person approved it (e2e/consent.spec.ts).
  await expect(configRow(page, 'imported')).toHaveAttribute('data-status', 'needs-approval');
  await approve(page, 'imported');
  await openServers(page);
  await expect(configRow(page, 'imported')).toHaveAttribute('data-status', 'ready');

  // Again, now choosing to overwrite: an explicit confirmation first.
  await page.getByTestId('open-import').click();
  await dialog.getByTestId('import-source-path').check();
  await dialog.getByTestId('import-path').fill(claudeFile);
  await dialog.getByTestId('import-preview').click();
  await conflict.getByRole('checkbox', { name: 'Overwrite calculator' }).check();
  await dialog.getByTestId('import-apply').click();
  const confirm = dialog.getByTestId('import-confirm');
  await expect(confirm).toContainText('calculator');
  expect(readServers(host.configPath).calculator).toEqual(calculatorServer());
  await confirm.getByTestId('import-confirm-overwrite').click();
  await expect(result.getByTestId('import-replaced')).toContainText('calculator');
  servers = readServers(host.configPath);
  expect(servers.calculator).toEqual(theirCalculator);
  expect(servers.imported?.env).toEqual({ API_KEY: '${secret:imported_API_KEY}' });
  await dialog.getByTestId('import-done').click();
  // Their calculator runs another command line than the approved one: asked again.
  await expect(configRow(page, 'calculator')).toHaveAttribute('data-status', 'needs-approval');
  await approve(page, 'calculator');
  await openServers(page);
  await expect(configRow(page, 'calculator')).toHaveAttribute('data-status', 'ready');
});

test('export: one server or all, as Claude-compatible JSON', async ({ page }) => {
  await openServers(page);
  await configRow(page, 'calculator').getByTestId('server-export').click();
  const dialog = page.getByTestId('export-dialog');
  const text = JSON.parse(await dialog.getByTestId('export-text').inputValue()) as unknown;
  expect(text).toEqual({ mcpServers: { calculator: calculatorServer() } });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByTestId('export-all').click();
  await expect(dialog.getByTestId('export-text')).toHaveValue(/"broken"/);
  const all = JSON.parse(await dialog.getByTestId('export-text').inputValue()) as { mcpServers: Record<string, unknown> };
  expect(Object.keys(all.mcpServers).sort()).toEqual(['broken', 'calculator']);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('secrets: set one and see its name, never its value; delete it', async ({ page }) => {
  const value = 'sk-e2e-never-shown-4711';
  await page.getByTestId('nav-settings').click();
  const panel = page.getByTestId('secrets-panel');
  // Headless keeps secrets in a file, and says so.
  await expect(panel.getByTestId('secrets-warning')).toContainText('not in the OS keychain');
  await panel.getByTestId('secret-name').fill('E2E_TOKEN');
  await panel.getByTestId('secret-value').fill(value);
  await expect(panel.getByTestId('secret-value')).toHaveAttribute('type', 'password');
  await panel.getByTestId('secret-save').click();
  const item = panel.locator('[data-testid="secret-item"][data-name="E2E_TOKEN"]');
  await expect(item).toBeVisible();
  await expect(panel.getByTestId('secret-value')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(value);
  const inputValues = await page.locator('input, textarea').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  expect(inputValues.join('\n')).not.toContain(value);

  // A reload (fresh list from main) still shows only the name.
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(item).toBeVisible();
  await expect(page.locator('body')).not.toContainText(value);

  await item.getByTestId('secret-delete').click();
  await item.getByTestId('secret-delete-confirm').click();
  await expect(item).toHaveCount(0);
  await expect(panel).toContainText('No secrets stored yet.');
});

test('Open config file and Reveal logs show the paths in headless mode', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'the desktop app opens them in the OS instead');
  await openServers(page);
  await page.getByTestId('open-config-file').click();
  await expect(page.getByTestId('shell-path-text')).toHaveText(host.configPath);
  await page.getByTestId('reveal-logs').click();
  await expect(page.getByTestId('shell-path-text')).toContainText(host.dir);
  await expect(page.getByTestId('shell-path-text')).toContainText('logs');
});
