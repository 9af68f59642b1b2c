import { readFileSync, writeFileSync } from 'node:fs';
import { calculatorScript, calculatorServer, expect, test } from './fixtures';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady, lastCard, send, serverRow } from './helpers';

const readConfigFile = (path: string): { mcpServers: Record<string, Record<string, unknown>> } =>
  JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };

test('add a server through the form: it is written to the file and becomes ready', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await page.getByTestId('add-server').click();
  const form = page.getByTestId('server-form');
  await form.getByTestId('form-name').fill('calc2');
  await form.getByTestId('form-command').fill(process.execPath);
  await form.getByTestId('form-args-add').click();
  await form.getByRole('textbox', { name: 'Argument 1' }).fill(calculatorScript);
  await form.getByTestId('form-env-add').click();
  await form.getByRole('textbox', { name: 'variable 1 name' }).fill('CALC_PRECISION');
  await form.getByRole('textbox', { name: 'variable 1 value' }).fill('3');
  // A credential-looking value is offered to secret storage, and replaced by a reference.
  await form.getByTestId('form-env-add').click();
  await form.getByRole('textbox', { name: 'variable 2 name' }).fill('API_TOKEN');
  await form.getByRole('textbox', { name: 'variable 2 value' }).fill('tok-e2e-secret');
  await form.getByTestId('store-as-secret').click();
  await expect(form.getByTestId('secret-name-for-value')).toHaveValue('calc2_API_TOKEN');
  await form.getByRole('button', { name: /Store and use/ }).click();
  await expect(form.getByRole('textbox', { name: 'variable 2 value' })).toHaveValue('${secret:calc2_API_TOKEN}');
  await form.getByTestId('form-save').click();

  await expect(configRow(page, 'calc2')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('server-form')).toHaveCount(0);
  const written = readConfigFile(host.configPath);
  expect(written.mcpServers.calc2).toEqual({
    command: process.execPath,
    args: [calculatorScript],
    env: { CALC_PRECISION: '3', API_TOKEN: '${secret:calc2_API_TOKEN}' },
  });
  expect(readFileSync(host.configPath, 'utf8')).not.toContain('tok-e2e-secret');
  expect(written.mcpServers.calculator).toEqual(calculatorServer());

  // It answers in the chat, with its own precision.
  await page.getByTestId('nav-chat').click();
  await expectReady(page, 'calc2');
  await send(page, '/calc2.divide {"a":1,"b":3}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('0.333');
});

test('edit: rename, disable and enable, then remove with confirmation', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await configRow(page, 'calculator').getByTestId('server-edit').click();
  const form = page.getByTestId('server-form');
  await expect(form.getByTestId('form-command')).toHaveValue(process.execPath);
  await expect(form.getByRole('textbox', { name: 'Argument 2' })).toHaveValue('--debug');
  await form.getByTestId('form-name').fill('calc');
  await form.getByTestId('form-save').click();
  await expect(configRow(page, 'calc')).toHaveAttribute('data-status', 'ready');
  await expect(configRow(page, 'calculator')).toHaveCount(0);
  expect(Object.keys(readConfigFile(host.configPath).mcpServers).sort()).toEqual(['broken', 'calc']);

  const toggle = configRow(page, 'calc').getByRole('switch', { name: 'Enable calc' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(configRow(page, 'calc')).toHaveAttribute('data-disabled', 'true');
  await expect(configRow(page, 'calc').getByTestId('config-server-status')).toHaveText('Disabled');
  expect(readConfigFile(host.configPath).mcpServers.calc?.disabled).toBe(true);
  await toggle.click();
  await expect(configRow(page, 'calc')).toHaveAttribute('data-status', 'ready');
  expect(readConfigFile(host.configPath).mcpServers.calc?.disabled).toBeUndefined();

  await configRow(page, 'broken').getByTestId('server-remove').click();
  await expect(configRow(page, 'broken')).toContainText('Remove broken from the config?');
  await configRow(page, 'broken').getByTestId('server-remove-confirm').click();
  await expect(configRow(page, 'broken')).toHaveCount(0);
  expect(Object.keys(readConfigFile(host.configPath).mcpServers)).toEqual(['calc']);
});

test('form validation: problems are shown at their fields and nothing is written', async ({ page, host }) => {
  await openServers(page);
  const before = readFileSync(host.configPath, 'utf8');
  await page.getByTestId('add-server').click();
  const form = page.getByTestId('server-form');
  await form.getByTestId('form-name').fill('calculator');
  await form.getByTestId('form-save').click();
  await expect(form.getByTestId('form-error-name')).toContainText('already exists');
  await expect(form.getByTestId('form-error-command')).toBeVisible();
  await form.getByTestId('form-kind-remote').check();
  await form.getByTestId('form-url').fill('ftp://nope');
  await form.getByTestId('form-save').click();
  await expect(form.getByTestId('form-error-url')).toContainText('http');
  expect(readFileSync(host.configPath, 'utf8')).toBe(before);
});

test('a broken file shows the banner at its line while the calculator keeps answering; fixing it clears the banner', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const good = readFileSync(host.configPath, 'utf8');
  // Line 3 of the JSON.stringify'd file is `"calculator": {`: drop the opening brace's line's colon.
  const lines = good.split('\n');
  expect(lines[2]).toContain('"calculator": {');
  lines[2] = lines[2]?.replace('"calculator": {', '"calculator" {') ?? '';
  writeFileSync(host.configPath, lines.join('\n'));

  const banner = page.getByTestId('config-error-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByTestId('config-error-location')).toHaveText(/^line 3, column \d+$/);
  await expect(banner.getByTestId('config-error')).toContainText(`${host.configPath}:3:`);
  await expect(banner.getByTestId('config-error-open-editor')).toHaveText('Open in editor at line 3');

  // The last good config keeps running.
  await send(page, '/add {"a":2,"b":3}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
  await expectReady(page, 'calculator');

  // The banner's button opens the raw editor with the problem marked at that line.
  await banner.getByTestId('config-error-open-editor').click();
  const editor = page.getByTestId('config-editor');
  await expect(editor.locator('.cm-line[data-problem-line="3"]')).toContainText('"calculator" {');
  await expect(editor.locator('[data-testid="editor-problem"][data-line="3"]').first()).toBeVisible();
  // The servers list pauses editing while the file is broken.
  await page.getByTestId('servers-mode-list').click();
  await expect(page.getByTestId('servers-paused')).toContainText('line 3');
  await expect(page.getByTestId('add-server')).toBeDisabled();

  writeFileSync(host.configPath, good);
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('servers-paused')).toHaveCount(0);
  await expect(page.getByTestId('add-server')).toBeEnabled();
  await page.getByTestId('nav-chat').click();
  await send(page, '/add {"a":20,"b":22}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('42');
});

test.describe('a server waiting for an ${input:…}', () => {
  test.use({
    configText: `${JSON.stringify(
      {
        inputs: [{ id: 'precision', type: 'promptString', description: 'Digits after the point', password: true }],
        mcpServers: { asks: { command: process.execPath, args: [calculatorScript], env: { CALC_PRECISION: '${input:precision}' } } },
      },
      null,
      2,
    )}\n`,
  });

  test('prompts for it (password-style, as declared), stores it, and the server starts', async ({ page }) => {
    const row = serverRow(page, 'asks');
    await expect(row.getByTestId('server-needs-input')).toBeVisible();
    const prompt = row.getByTestId('input-prompt');
    await expect(prompt).toContainText('Digits after the point');
    await expect(prompt.getByTestId('input-prompt-value')).toHaveAttribute('type', 'password');
    await prompt.getByTestId('input-prompt-value').fill('2');
    await prompt.getByRole('button', { name: 'Save and start' }).click();
    await expectReady(page, 'asks');
    await send(page, '/divide {"a":2,"b":3}');
    await expect(lastCard(page).getByTestId('result-text')).toHaveText('0.67');
    await page.getByTestId('nav-settings').click();
    await expect(page.locator('[data-testid="secret-item"][data-name="input.precision"]')).toBeVisible();
  });
});
