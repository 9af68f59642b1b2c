import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { calculatorServer, expect, repoRoot, test } from './fixtures';
import { configRow, editorText, openRawEditor, openServers } from './config-ui-helpers';
import { expectReady, lastCard, openRow, send, serverRow } from './helpers';

/*
 * The sandbox from the UI: the server form sets a stdio entry's `sandbox` key (bubblewrap here), the
 * launch details show the sandbox in force, and the settings screen sets the default for every other server.
 */

test.use({ mcpServers: { calculator: calculatorServer() } });

const probeScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'sandbox-probe.mjs');
const readConfigFile = (path: string): { mcpServers: Record<string, Record<string, unknown>> } =>
  JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };

async function openLaunchDetails(page: Page, name: string) {
  await page.getByTestId('nav-chat').click();
  const row = await openRow(page, name);
  const launch = row.getByTestId('server-launch');
  await launch.locator('summary').click();
  return launch.getByTestId('server-sandbox');
}

test('a custom sandbox set in the form is written to the entry and in force: the allowed folder is readable, nothing else', async ({
  page,
  host,
}, testInfo) => {
  await expectReady(page, 'calculator');
  const shared = join(host.dir, 'shared');
  const work = join(host.dir, 'work');
  const elsewhere = join(host.dir, 'elsewhere');
  for (const dir of [shared, work, elsewhere]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(shared, 'note.txt'), 'allowed-note-e2e');
  writeFileSync(join(elsewhere, 'secret.txt'), 'not-for-the-server-e2e');

  await openServers(page);
  await page.getByTestId('add-server').click();
  const form = page.getByTestId('server-form');
  await form.getByTestId('form-name').fill('probe');
  await form.getByTestId('form-command').fill(process.execPath);
  await form.getByTestId('form-args-add').click();
  await form.getByRole('textbox', { name: 'Argument 1' }).fill(probeScript);
  await form.getByTestId('form-cwd').fill(work);
  const sandbox = form.getByTestId('form-sandbox');
  await sandbox.getByTestId('form-sandbox-custom').check();
  await sandbox.getByTestId('form-sandbox-read-add').click();

  // An empty path is refused at its list and nothing is written.
  await form.getByTestId('form-save').click();
  await expect(form.getByTestId('form-error-sandboxRead')).toContainText('Give a path');
  expect(readConfigFile(host.configPath).mcpServers.probe).toBeUndefined();

  await sandbox.getByRole('textbox', { name: 'May also read: path 1' }).fill(shared);
  await testInfo.attach('sandbox-section', { body: await sandbox.screenshot(), contentType: 'image/png' });
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  await expect(configRow(page, 'probe')).toHaveAttribute('data-status', 'ready');
  expect(readConfigFile(host.configPath).mcpServers.probe?.sandbox).toEqual({ allowRead: [shared] });

  // The raw config shows the same key.
  const editor = await openRawEditor(page);
  await expect(editor.locator('.cm-content')).toContainText('"sandbox"');
  const text = await editorText(editor);
  expect(text).toContain('"allowRead"');
  expect(text).toContain(shared);

  // The launch details show the sandbox in force.
  const inForce = await openLaunchDetails(page, 'probe');
  await expect(inForce).toContainText('bubblewrap');
  await expect(inForce).toContainText(shared);
  await expect(inForce).toContainText('network on');

  // And it is: the allowed folder is readable, a folder beside it is not there for the server.
  await send(page, `/probe.read ${JSON.stringify({ path: join(shared, 'note.txt') })}`);
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('allowed-note-e2e');
  await send(page, `/probe.read ${JSON.stringify({ path: join(elsewhere, 'secret.txt') })}`);
  await expect(lastCard(page)).toHaveAttribute('data-state', 'error');
  await expect(lastCard(page)).not.toContainText('not-for-the-server-e2e');

  // Editing keeps the key as it is; the form reads it back.
  await openServers(page);
  await page.getByTestId('servers-mode-list').click();
  await configRow(page, 'probe').getByTestId('server-edit').click();
  await expect(form.getByTestId('form-sandbox-custom')).toBeChecked();
  await expect(form.getByRole('textbox', { name: 'May also read: path 1' })).toHaveValue(shared);
  await expect(form.getByTestId('form-sandbox-network')).toBeChecked();
  await form.getByTestId('form-sandbox-network').uncheck();
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  await expect.poll(() => readConfigFile(host.configPath).mcpServers.probe?.sandbox).toEqual({ allowRead: [shared], network: false });
  await expect(await openLaunchDetails(page, 'probe')).toContainText('network off');
});

test('the settings default sandbox applies to a server without its own; off in the form overrides it', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  // Opened, so that the absence below is the sandbox's, not the closed row's.
  await expect((await openRow(page, 'calculator')).getByTestId('server-launch')).toHaveCount(1);
  await expect(serverRow(page, 'calculator').getByTestId('server-launch').getByTestId('server-sandbox')).toHaveCount(0);

  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('sandbox-default');
  await section.getByTestId('sandbox-default-on').click();
  await expect(section.getByTestId('sandbox-default-on')).toBeChecked();
  await expect(page.getByTestId('sandbox-default-error-saved')).toBeVisible();
  await page.getByTestId('sandbox-default-network').click();
  await expect(page.getByTestId('sandbox-default-network')).not.toBeChecked();
  await expect(page.getByTestId('sandbox-default-error-saved')).toBeVisible();
  // Stored in the settings file the core reads, not in the servers config.
  expect(readConfigFile(host.configPath).mcpServers.calculator?.sandbox).toBeUndefined();

  // Re-applied: the calculator restarts in the default sandbox.
  const inForce = await openLaunchDetails(page, 'calculator');
  await expect(inForce).toContainText('bubblewrap');
  await expect(inForce).toContainText('network off');
  await expectReady(page, 'calculator');

  // The entry's own "off" wins over the default.
  await openServers(page);
  await configRow(page, 'calculator').getByTestId('server-edit').click();
  const form = page.getByTestId('server-form');
  await expect(form.getByTestId('form-sandbox-default')).toBeChecked();
  await form.getByTestId('form-sandbox-off').check();
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  await expect.poll(() => readConfigFile(host.configPath).mcpServers.calculator?.sandbox).toBe(false);
  await page.getByTestId('nav-chat').click();
  await expectReady(page, 'calculator');
  await expect((await openRow(page, 'calculator')).getByTestId('server-launch')).toHaveCount(1);
  await expect(serverRow(page, 'calculator').getByTestId('server-sandbox')).toHaveCount(0);

  // Turning the default off clears it.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('sandbox-default-off').click();
  await expect(page.getByTestId('sandbox-default-off')).toBeChecked();
  await expect(page.getByTestId('sandbox-default-network')).toBeDisabled();
});
