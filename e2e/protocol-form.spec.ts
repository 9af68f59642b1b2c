import { readFileSync } from 'node:fs';
import { calculatorServer, expect, test } from './fixtures';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady, openRow, serverRow } from './helpers';

/*
 * The server form's protocol version: a select of `auto` (the default, not written) and the revisions; a pinned one is
 * written to the entry's "protocolVersion", shown again when the entry is edited, and is what the server then speaks.
 */

test.use({ mcpServers: { calculator: calculatorServer() } });

const readEntry = (path: string, name: string): Record<string, unknown> | undefined =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers[name];

test('a protocol version chosen in the form is saved into the config file; auto removes it again', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await configRow(page, 'calculator').getByTestId('server-edit').click();
  const form = page.getByTestId('server-form');
  const select = form.getByTestId('form-protocol-version');
  await expect(select).toHaveValue('auto');
  await expect(select.locator('option')).toHaveText(['Auto (negotiate; the default)', '2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  await expect(form.getByLabel('Protocol version')).toBeVisible();

  await select.selectOption('2025-06-18');
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  await expect.poll(() => readEntry(host.configPath, 'calculator')?.protocolVersion).toBe('2025-06-18');
  // The restarted server speaks the pinned revision (the sidebar's protocol chip).
  await expect(configRow(page, 'calculator')).toHaveAttribute('data-status', 'ready');
  await page.getByTestId('nav-chat').click();
  await openRow(page, 'calculator');
  await expect(serverRow(page, 'calculator').getByTestId('server-protocol')).toHaveText('2025-06-18');

  // Edited again: the form shows the pin; back to auto, the key goes.
  await openServers(page);
  await configRow(page, 'calculator').getByTestId('server-edit').click();
  await expect(form.getByTestId('form-protocol-version')).toHaveValue('2025-06-18');
  await form.getByTestId('form-protocol-version').selectOption('auto');
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  await expect
    .poll(() => readEntry(host.configPath, 'calculator') !== undefined && !('protocolVersion' in (readEntry(host.configPath, 'calculator') ?? {})))
    .toBe(true);
});
