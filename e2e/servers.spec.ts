import { expect, test } from './fixtures';
import { expectReady, openRow, serverRow } from './helpers';

test('the calculator is ready over stdio with its four tools', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const calculator = await openRow(page, 'calculator');
  await expect(calculator.getByTestId('server-status')).toHaveText('Ready');
  await expect(calculator.getByTestId('server-transport')).toHaveText('stdio');
  await expect(calculator.getByTestId('server-protocol')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  const tools = calculator.getByTestId('tool-item');
  await expect(tools).toHaveCount(4);
  const names = await tools.evaluateAll((items) => items.map((item) => item.getAttribute('data-tool')));
  expect(names.sort()).toEqual(['add', 'divide', 'multiply', 'subtract']);
  await expect(page.getByTestId('config-path')).toHaveText(host.configPath);
  await expect(page.getByTestId('config-error-banner')).toHaveCount(0);
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);
});

test('a server whose command does not exist shows an error with a readable reason; the calculator stays ready', async ({ page }) => {
  const broken = serverRow(page, 'broken');
  await expect(broken).toHaveAttribute('data-status', 'error');
  await expect(broken.getByTestId('server-status')).toHaveText('Error');
  await openRow(page, 'broken');
  const reason = broken.getByTestId('server-error');
  await expect(reason).toContainText('definitely-not-a-real-command-xyz');
  await expect(reason).not.toContainText('ENOENT');
  await expect(broken.getByTestId('tool-item')).toHaveCount(0);
  await expectReady(page, 'calculator');
  await expect(page.getByTestId('server-count')).toHaveText('1/2 ready');
});

test('Restart asks main to restart a server; status comes back from main', async ({ page }) => {
  const broken = serverRow(page, 'broken');
  await expect(broken).toHaveAttribute('data-status', 'error');
  await openRow(page, 'broken');
  await broken.getByRole('button', { name: 'Restart broken' }).click();
  await expect(broken).toHaveAttribute('data-status', 'error');
  await expect(broken.getByTestId('server-error')).toContainText('definitely-not-a-real-command-xyz');
  await expect(broken.getByTestId('restart-error')).toHaveCount(0);

  const calculator = await expectReady(page, 'calculator');
  await expect(calculator).toHaveAttribute('data-pid', /^\d+$/);
  const firstPid = await calculator.getAttribute('data-pid');
  await calculator.getByRole('button', { name: 'Restart calculator' }).click();
  // A new process, and ready again.
  await expect(calculator).toHaveAttribute('data-pid', /^\d+$/);
  await expect(calculator).not.toHaveAttribute('data-pid', firstPid ?? '');
  await expectReady(page, 'calculator');
  await openRow(page, 'calculator');
  await expect(calculator.getByTestId('tool-item')).toHaveCount(4);
  await expect(calculator.getByTestId('server-restart')).toHaveText('Restart');
});

test('the stderr tail is collapsible and shows what the server logged', async ({ page }) => {
  await expectReady(page, 'calculator');
  const calculator = await openRow(page, 'calculator');
  const stderr = calculator.getByTestId('server-stderr');
  const log = stderr.locator('pre');
  await expect(log).toBeHidden();
  await stderr.locator('summary').click();
  await expect(log).toBeVisible();
  await expect(log).toContainText('[calculator] starting (precision 8)');
  await stderr.locator('summary').click();
  await expect(log).toBeHidden();
});
