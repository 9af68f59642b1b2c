import { expect, test } from './fixtures';

test.describe('with a config file that does not validate', () => {
  test.use({ configText: '{\n  "mcpServers": {\n    "calculator": { "args": ["x"] }\n  }\n}\n' });

  test('a banner shows the config problem and the app still runs', async ({ page, host }) => {
    const banner = page.getByTestId('config-error-banner');
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId('config-error')).toContainText(host.configPath);
    await expect(banner.getByTestId('config-error')).toContainText('"command"');
    await expect(banner.getByTestId('config-error-location')).toHaveText(/^line \d+, column \d+$/);
    await expect(page.getByTestId('config-path')).toHaveText(host.configPath);
    await expect(page.getByTestId('server-count')).toHaveText('0/0 ready');
    await expect(page.getByText('No servers configured')).toBeVisible();
    await page.getByTestId('chat-input').fill('/add {"a":2,"b":3}');
    await page.getByTestId('chat-input').press('Enter');
    await expect(page.getByTestId('chat-notice').last()).toContainText('no servers are configured');
  });
});
