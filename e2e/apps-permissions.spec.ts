import { expect, test } from './fixtures';
import { expectReady } from './helpers';
import { appFramesOf, appLabScript, openApp } from './apps-helpers';

// Browser permissions an app asks for (`_meta.ui.permissions`) reach its frame only once the person allowed them for
// that server; the grant is remembered by the host, so a reloaded page frames the app with it at once.

test.use({ mcpServers: { lab: { command: process.execPath, args: [appLabScript] } } });

test('clipboardWrite and geolocation: asked on the card, absent from the frame until Allow, then kept across a reload', async ({ page }) => {
  await expectReady(page, 'lab');
  const opened = await openApp(page, 'perms');
  const line = opened.view.getByTestId('app-permissions');
  await expect(line).toHaveText(/This app of lab asks for: location, writing to the clipboard\./);
  const frame = opened.view.getByTestId('app-frame');
  await expect(opened.inner.locator('#out')).toHaveText('shown', { timeout: 15_000 });
  const outerAllow = async (): Promise<string> => (await frame.getAttribute('allow')) ?? '';
  expect(await outerAllow()).not.toMatch(/clipboard-write|geolocation/);
  // The app's own frame (inside the proxy) has neither, and the browser agrees.
  expect((await opened.outer.locator('iframe').getAttribute('allow')) ?? '').not.toMatch(/clipboard-write|geolocation/);
  expect(await opened.inner.evaluate(`document.featurePolicy.allowsFeature('clipboard-write')`)).toBe(false);

  await line.getByTestId('app-permissions-allow').click();
  await expect(opened.view.getByTestId('app-permissions')).toHaveCount(0);
  await expect(frame).toHaveAttribute('allow', /clipboard-write/);
  await expect(frame).toHaveAttribute('allow', /geolocation/);
  const again = await appFramesOf(opened.view);
  await expect(again.inner.locator('#out')).toHaveText('shown', { timeout: 15_000 });
  expect(await again.outer.locator('iframe').getAttribute('allow')).toMatch(/clipboard-write/);
  expect(await again.inner.evaluate(`document.featurePolicy.allowsFeature('clipboard-write')`)).toBe(true);
  expect(await again.inner.evaluate(`document.featurePolicy.allowsFeature('geolocation')`)).toBe(true);

  // A fresh page: the host remembers the grant for lab.
  await page.reload();
  await expectReady(page, 'lab');
  const after = await openApp(page, 'perms');
  await expect(after.inner.locator('#out')).toHaveText('shown', { timeout: 15_000 });
  await expect(after.view.getByTestId('app-frame')).toHaveAttribute('allow', /clipboard-write/);
  await expect(after.view.getByTestId('app-frame')).toHaveAttribute('allow', /geolocation/);
  await expect(after.view.getByTestId('app-permissions')).toHaveCount(0);
  expect(await after.inner.evaluate(`document.featurePolicy.allowsFeature('geolocation')`)).toBe(true);
});
