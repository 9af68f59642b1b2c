import { expect, test } from './fixtures';
import { expectReady } from './helpers';

// The Catalogue tab when the MCP Registry cannot be reached: what a person can do in the app, not a CLI flag.
test.use({ hostEnv: { SWITCHBOARD_REGISTRY: 'http://127.0.0.1:9/' } });

test('offline: the catalogue says what to do in the app and offers Retry', async ({ page }) => {
  await expectReady(page, 'calculator');
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('servers-mode-catalogue').click();
  const error = page.getByTestId('registry-error');
  await expect(error).toContainText('Cannot reach the MCP Registry at http://127.0.0.1:9');
  await expect(error).toContainText('Add server');
  await expect(error).toContainText('SWITCHBOARD_REGISTRY');
  await expect(error).not.toContainText('--registry');
  await error.getByTestId('registry-retry').click();
  await expect(page.getByTestId('registry-error')).toContainText('press Retry');
});
