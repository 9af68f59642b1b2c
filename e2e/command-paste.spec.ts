import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, repoRoot, test } from './fixtures';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady, lastCard, send } from './helpers';

const tinyServer = join(repoRoot, 'src-main', 'core', 'fixtures', 'tiny-server.mjs');

const savedEntry = (path: string, name: string): unknown =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers[name];

test('a command line pasted into Command becomes the program and its arguments, and the server starts', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await page.getByTestId('add-server').click();
  const form = page.getByTestId('server-form');
  await form.getByTestId('form-name').fill('pasted');
  // As a README's `npx -y @modelcontextprotocol/server-everything` is pasted, with a local program that runs offline;
  // the quotes keep one argument whole and go.
  const line = `"${process.execPath}" ${tinyServer} '--name=pasted'`;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(
    (text) => (globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }).navigator.clipboard.writeText(text),
    line,
  );
  await form.getByTestId('form-command').focus();
  await page.keyboard.press('ControlOrMeta+v');

  await expect(form.getByTestId('form-command')).toHaveValue(process.execPath);
  await expect(form.getByRole('textbox', { name: 'Argument 1' })).toHaveValue(tinyServer);
  await expect(form.getByRole('textbox', { name: 'Argument 2' })).toHaveValue('--name=pasted');
  await expect(form.getByTestId('form-command-split')).toHaveText(
    'Split into the program and 2 arguments below. To keep a path with spaces whole, put it in quotes.',
  );
  await form.getByTestId('form-save').click();

  await expect(configRow(page, 'pasted')).toHaveAttribute('data-status', 'ready');
  expect(savedEntry(host.configPath, 'pasted')).toEqual({ command: process.execPath, args: [tinyServer, '--name=pasted'] });
  await page.getByTestId('nav-chat').click();
  await expectReady(page, 'pasted');
  await send(page, '/pasted.echo {"text":"hi"}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('pasted:hi');
});

test('a command line typed into Command is split when the field is left or on save, before the arguments already listed', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await page.getByTestId('add-server').click();
  const form = page.getByTestId('server-form');
  await form.getByTestId('form-name').fill('typed');
  await form.getByTestId('form-args-add').click();
  await form.getByRole('textbox', { name: 'Argument 1' }).fill('--name=typed');
  await form.getByTestId('form-command').fill(`${process.execPath} ${tinyServer}`);
  await form.getByTestId('form-name').click();
  await expect(form.getByTestId('form-command')).toHaveValue(process.execPath);
  await expect(form.getByRole('textbox', { name: 'Argument 1' })).toHaveValue(tinyServer);
  await expect(form.getByRole('textbox', { name: 'Argument 2' })).toHaveValue('--name=typed');
  // Saving straight from the field (Enter, no blur) splits what was typed there too.
  await form.getByTestId('form-command').fill(`${process.execPath} --no-warnings`);
  await form.getByTestId('form-command').press('Enter');

  await expect(configRow(page, 'typed')).toHaveAttribute('data-status', 'ready');
  expect(savedEntry(host.configPath, 'typed')).toEqual({ command: process.execPath, args: ['--no-warnings', tinyServer, '--name=typed'] });
});
