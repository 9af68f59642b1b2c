import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorScript, calculatorServer, expect, test } from './fixtures';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady, openRow, serverRow } from './helpers';

/*
 * Consent before a command runs: the test's own config is what the host first sees, so its calculator
 * starts; a server imported afterwards waits until a person has seen exactly what it runs and approved it.
 */

test.use({ mcpServers: { calculator: calculatorServer() } });

test('an imported entry does not start before approval; the consent card shows the full command; approve starts it', async ({ page, host }, testInfo) => {
  await expectReady(page, 'calculator');
  const source = join(host.dir, 'claude_desktop_config.json');
  const args = [calculatorScript, '--debug', 'an arg with spaces'];
  writeFileSync(
    source,
    JSON.stringify({ mcpServers: { imported: { command: process.execPath, args, env: { CALC_PRECISION: '2', API_TOKEN: 'tok-e2e-consent-value' } } } }),
  );

  await openServers(page);
  await page.getByTestId('open-import').click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-source-path').check();
  await dialog.getByTestId('import-path').fill(source);
  await dialog.getByTestId('import-preview').click();
  // Keep the token in the config as it is (not moved to secrets): its value must still never be shown.
  await dialog.getByTestId('import-move-secrets').uncheck();
  await dialog.getByTestId('import-apply').click();
  await expect(dialog.getByTestId('import-result').getByTestId('import-added')).toContainText('imported');
  await dialog.getByTestId('import-done').click();
  await expect(configRow(page, 'imported')).toHaveAttribute('data-status', 'needs-approval');
  // The servers screen shows the same card where the import landed.
  await expect(configRow(page, 'imported').getByTestId('consent-line')).toContainText(calculatorScript);

  await page.getByTestId('nav-chat').click();
  const row = serverRow(page, 'imported');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');
  await expect(row.getByTestId('server-status')).toHaveText('Needs approval');
  // Nothing ran: no pid, no launch yet.
  await expect(row).not.toHaveAttribute('data-pid', /\d+/);
  await openRow(page, 'imported');
  const card = row.getByTestId('consent-card');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('consent-line')).toHaveText(`${process.execPath} ${calculatorScript} --debug 'an arg with spaces'`);
  await expect(card.getByTestId('consent-command')).toHaveText(process.execPath);
  await expect(card.getByTestId('consent-args').locator('li')).toHaveText(args);
  await expect(card.getByTestId('consent-env')).toContainText('API_TOKEN');
  await expect(card.getByTestId('consent-env')).toContainText('CALC_PRECISION');
  await expect(card).not.toContainText('tok-e2e-consent-value');
  // It stays put: still waiting a moment later, after another server's activity.
  await expectReady(page, 'calculator');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');

  await testInfo.attach('consent-card', { body: await card.screenshot(), contentType: 'image/png' });
  await card.getByTestId('consent-approve').click();
  await expectReady(page, 'imported');
  await expect(row.getByTestId('consent-card')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-pid', /\d+/);
});

test('an external edit that changes an approved command asks again, showing what was approved before', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const changed = { ...calculatorServer(), args: [calculatorScript, '--debug', '--changed'] };
  writeFileSync(host.configPath, `${JSON.stringify({ mcpServers: { calculator: changed } }, null, 2)}\n`);
  const row = serverRow(page, 'calculator');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');
  await openRow(page, 'calculator');
  const card = row.getByTestId('consent-card');
  await expect(card).toContainText('changed');
  await expect(card.getByTestId('consent-line')).toContainText('--changed');
  await card.getByTestId('consent-previous').locator('summary').click();
  await expect(card.getByTestId('consent-previous')).not.toContainText('--changed');
  await expect(card.getByTestId('consent-previous')).toContainText(calculatorScript);
  await card.getByTestId('consent-approve').click();
  await expectReady(page, 'calculator');
});

test('an external edit that adds a reference, a code-loading variable and a looser sampling policy asks, showing them by name', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const base = calculatorServer();
  const changed = {
    ...base,
    env: { ...base.env, API_TOKEN: '${env:HOME}', LITERAL_TOKEN: 'tok-e2e-literal-value', NODE_OPTIONS: '--max-old-space-size=200' },
    sampling: { mode: 'allow', perMinute: 50 },
  };
  writeFileSync(host.configPath, `${JSON.stringify({ mcpServers: { calculator: changed } }, null, 2)}\n`);
  const row = serverRow(page, 'calculator');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');
  await openRow(page, 'calculator');
  const card = row.getByTestId('consent-card');
  const subject = card.getByTestId('consent-subject');
  // References by name, never their value; code-loading variables in full; the sampling policy in words.
  await expect(subject.getByTestId('consent-references')).toHaveText('API_TOKEN ← ${env:HOME}');
  await expect(subject.getByTestId('consent-loader')).toHaveText('NODE_OPTIONS=--max-old-space-size=200');
  await expect(subject.getByTestId('consent-sampling')).toContainText('at most 50 per minute');
  await expect(subject.getByTestId('consent-changed-mark')).toHaveCount(4);
  await expect(card).not.toContainText('tok-e2e-literal-value');
  await card.getByTestId('consent-approve').click();
  await expectReady(page, 'calculator');
});
