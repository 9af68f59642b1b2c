// A secret set from the CLI in another terminal while the app (serve) runs on the same data: the Settings list shows
// it at once, the server that was waiting on it starts; deleting it from the CLI takes it off the list.
import { runCliSync } from '../src-main/test-support/cli-process';
import { calculatorScript, calculatorServer, expect, isolatedDirs, test } from './fixtures';
import { expectReady, serverRow } from './helpers';

test.use({
  mcpServers: {
    calculator: calculatorServer(),
    waiting: { command: process.execPath, args: [calculatorScript], env: { CALC_TOKEN: '${secret:cli_token}' } },
  },
});

test('a secret set from the CLI while the app runs is listed at once, and the server waiting on it starts', async ({ page, host }) => {
  test.skip(host.mode === 'electron', "the desktop app keeps its secrets in the OS keychain, not in the CLI's file");
  await expectReady(page, 'calculator');
  await expect(serverRow(page, 'waiting')).toHaveAttribute('data-status', 'error');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('secret-item')).toHaveCount(0);

  const cli = (...args: string[]) => runCliSync(['--config', host.configPath, 'secret', ...args], isolatedDirs(host.dir));
  const set = cli('set', 'cli_token', 'value-from-another-terminal');
  expect(set.status, set.stderr).toBe(0);
  await expect(page.locator('[data-testid="secret-item"][data-name="cli_token"]')).toBeVisible();
  await expectReady(page, 'waiting');

  const deleted = cli('delete', 'cli_token');
  expect(deleted.status, deleted.stderr).toBe(0);
  await expect(page.getByTestId('secret-item')).toHaveCount(0);
});
