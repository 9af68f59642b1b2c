import { arch, hostname, platform } from 'node:os';
import { expect, test } from './fixtures';
import { expectReady } from './helpers';
import { exampleServer, openApp } from './apps-helpers';

// MCP Apps from npm beyond the vanilla example: the React one (get-time), and the system monitor, whose app polls an
// app-only tool of its server through the host.

test.describe('server-basic-react', () => {
  test.use({ mcpServers: { react: { command: process.execPath, args: [exampleServer('server-basic-react'), '--stdio'] } } });

  test('renders with its tool result; its button brings a new result into the app', async ({ page }) => {
    await expectReady(page, 'react');
    const { card, inner } = await openApp(page, 'get-time');
    const time = (await card.getByTestId('result-text').textContent()) ?? '';
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);
    const shown = inner.locator('p', { hasText: 'Server Time:' }).locator('code');
    await expect(shown).toHaveText(time, { timeout: 15_000 });
    await inner.getByRole('button', { name: 'Get Server Time' }).click();
    await expect(shown).not.toHaveText(time);
    await expect(shown).toHaveText(/^\d{4}-\d\d-\d\dT/);
  });
});

test.describe('server-system-monitor', () => {
  test.use({ mcpServers: { monitor: { command: process.execPath, args: [exampleServer('server-system-monitor'), '--stdio'] } } });

  test('renders the system info of its result, then polls its app-only tool through the host', async ({ page }) => {
    await expectReady(page, 'monitor');
    const { inner } = await openApp(page, 'get-system-info');
    // The server runs on this machine: its result names this host.
    await expect(inner.locator('#info-hostname')).toHaveText(hostname(), { timeout: 15_000 });
    await expect(inner.locator('#info-platform')).toHaveText(`${platform()} ${arch()}`);
    // The result starts polling poll-system-stats (visibility ["app"]): its answers come back into the app.
    await expect(inner.locator('#memory-percent')).toHaveText(/^\d+%$/, { timeout: 15_000 });
    await expect(inner.locator('#info-uptime')).not.toHaveText('--');
    await expect(inner.locator('#status-text')).toHaveText(/^\d\d:\d\d:\d\d$/);
    // Its button stops the polling, and starts it again.
    await inner.locator('#poll-toggle-btn').click();
    await expect(inner.locator('#status-text')).toHaveText('Stopped');
    await inner.locator('#poll-toggle-btn').click();
    await expect(inner.locator('#status-text')).toHaveText(/^\d\d:\d\d:\d\d$/);
  });
});
