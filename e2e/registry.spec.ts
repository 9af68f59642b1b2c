import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { mcpb, packBundle } from '../src-main/test-support/bundle-fixture';
import { tempDir } from '../src-main/test-support/processes';
import { calculatorServer, expect } from './fixtures';
import { registryTest } from './registry-fixture';
import { configRow, openServers } from './config-ui-helpers';
import { expectReady } from './helpers';
import { expectNoRawKeys, useLanguage } from './i18n-helpers';

/*
 * One-step installs: the catalogue browses a local MCP Registry on loopback (a real HTTP server serving
 * server.json documents) that the host is pointed at with SWITCHBOARD_REGISTRY; a bundle packed by the official mcpb
 * CLI is dropped on the servers screen. Either way the dialog shows the full command first, secret values go to
 * secret storage, and the added stdio entry waits for consent before it starts.
 */

const test = registryTest;

test.use({ mcpServers: { calculator: calculatorServer() } });

/** A real drop on the servers screen: a DataTransfer holding the file, as a drag from the file manager delivers it. */
async function dropBundle(page: Page, bytes: Buffer, fileName: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ b64, name }) => {
      const page = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
        atob(data: string): string;
      };
      const transfer = new page.DataTransfer();
      const data = Uint8Array.from(page.atob(b64), (c) => c.charCodeAt(0));
      transfer.items.add(new page.File([data], name, { type: 'application/zip' }));
      return transfer;
    },
    { b64: bytes.toString('base64'), name: fileName },
  );
  await page.getByTestId('bundle-drop').dispatchEvent('drop', { dataTransfer });
}

test('the catalogue: search, deprecated entries not installable, install shows the pinned command and asks for the secret; the entry waits for approval', async ({
  page,
  host,
}, testInfo) => {
  // The smallest window the app supports: nothing may scroll sideways.
  await page.setViewportSize({ width: 800, height: 600 });
  // (The page's DOM types are not in this file's lib: the page's globals are described here.)
  const sideways = (): Promise<number> =>
    page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
  await expectReady(page, 'calculator');
  await openServers(page);
  await expect(page.getByTestId('bundle-drop')).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
  await page.getByTestId('servers-mode-catalogue').click();
  const catalogue = page.getByTestId('registry-catalogue');
  // The first page of everything, then a search.
  await expect(catalogue.getByTestId('registry-item')).toHaveCount(4);
  await expect(catalogue.getByTestId('registry-more')).toBeVisible();
  await catalogue.getByTestId('registry-search').fill('weather');
  await catalogue.getByRole('button', { name: 'Search' }).click();
  await expect(catalogue.getByTestId('registry-item')).toHaveCount(2);
  const old = catalogue.locator('[data-testid="registry-item"][data-name="io.github.example/old-weather"]');
  await expect(old.getByTestId('registry-refused')).toContainText('is deprecated in the registry (use io.github.example/weather)');
  await expect(old.getByTestId('registry-install')).toHaveCount(0);
  await testInfo.attach('catalogue', { body: await catalogue.screenshot(), contentType: 'image/png' });
  expect(await sideways()).toBeLessThanOrEqual(0);

  await catalogue.locator('[data-testid="registry-item"][data-name="io.github.example/weather"]').getByTestId('registry-install').click();
  const dialog = page.getByTestId('install-dialog');
  await expect(dialog.getByTestId('install-command')).toHaveText(
    'WEATHER_API_KEY=${secret:weather.WEATHER_API_KEY} WEATHER_CITY=<WEATHER_CITY> npx -y @example/weather-mcp@1.4.2 --units=<units>',
  );
  await expect(dialog.getByTestId('install-version')).toHaveText('1.4.2');
  expect(await sideways()).toBeLessThanOrEqual(0);
  const key = dialog.locator('[data-testid="install-input"][data-key="WEATHER_API_KEY"] input');
  await expect(key).toHaveAttribute('type', 'password');
  // Without the required secret the form does not submit; with it, the entry is added.
  await dialog.getByTestId('install-apply').click();
  await expect(dialog.getByTestId('install-result')).toHaveCount(0);
  await key.fill('e2e-weather-key');
  await dialog.locator('[data-testid="install-input"][data-key="units"] select').selectOption('imperial');
  await dialog.getByTestId('install-apply').click();
  await expect(dialog.getByTestId('install-result')).toContainText('Stored as secrets: weather.WEATHER_API_KEY');
  await dialog.getByTestId('install-done').click();

  await page.getByTestId('servers-mode-list').click();
  const row = configRow(page, 'weather');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');
  await expect(row.getByTestId('consent-line')).toHaveText('npx -y @example/weather-mcp@1.4.2 --units=imperial');
  const config = readFileSync(host.configPath, 'utf8');
  expect(config).toContain('${secret:weather.WEATHER_API_KEY}');
  expect(config).not.toContain('e2e-weather-key');
});

test('a bundle dropped on the servers screen: manifest command shown, sensitive value asked, approved, runs; Remove deletes its files', async ({
  page,
  host,
}) => {
  await expectReady(page, 'calculator');
  const file = packBundle();
  await openServers(page);
  await dropBundle(page, readFileSync(file), 'greeter.mcpb');

  const folder = join(host.dir, 'home', '.config', 'Switchboard', 'bundles', 'greeter');
  const dialog = page.getByTestId('install-dialog');
  await expect(dialog.getByTestId('install-command')).toContainText(`node ${folder}/server/index.mjs`);
  await expect(dialog.getByTestId('install-command')).toContainText('GREETER_KEY=${secret:greeter.api_key}');
  await expect(dialog).toContainText('Not signed');
  await dialog.locator('[data-testid="install-input"][data-key="api_key"] input').fill('e2e-bundle-key');
  await dialog.getByTestId('install-apply').click();
  await expect(dialog.getByTestId('install-result')).toContainText('approve it on the servers screen first');
  await dialog.getByTestId('install-done').click();
  expect(existsSync(join(folder, 'server', 'index.mjs'))).toBe(true);

  const row = configRow(page, 'greeter');
  await expect(row).toHaveAttribute('data-status', 'needs-approval');
  await row.getByTestId('consent-approve').click();
  await expect(row).toHaveAttribute('data-status', 'ready');

  await row.getByTestId('server-remove').click();
  await row.getByTestId('server-remove-confirm').click();
  await expect(configRow(page, 'greeter')).toHaveCount(0);
  expect(existsSync(folder)).toBe(false);
});

test('a signed bundle dropped: the dialog says who signed it and that the publisher is not verified (in English and Chinese); one changed byte and it is refused, saying why', async ({
  page,
}, testInfo) => {
  await expectReady(page, 'calculator');
  const file = packBundle({ name: 'signed-greeter' });
  const keys = tempDir();
  mcpb(['sign', file, '--self-signed', '--cert', join(keys, 'cert.pem'), '--key', join(keys, 'key.pem')]);
  await openServers(page);
  await dropBundle(page, readFileSync(file), 'signed-greeter.mcpb');
  const dialog = page.getByTestId('install-dialog');
  const signature = dialog.locator('[data-testid="install-note"][data-code="selfSigned"]');
  await expect(signature).toContainText('Self-signed by MCPB Self-Signed Certificate (MCPB Extensions): the publisher is not verified.');
  await expect(signature.getByTestId('install-signature')).toHaveAttribute('data-status', 'self-signed');
  await expect(signature.getByTestId('install-signature')).toHaveText(/^Signing certificate SHA-256: ([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  await expect(dialog.locator('[data-code="verified"], [data-code="unsigned"]')).toHaveCount(0);
  await testInfo.attach('signed bundle', { body: await dialog.screenshot(), contentType: 'image/png' });
  await dialog.getByTestId('dialog-close').click();
  await expect(dialog).toHaveCount(0);

  const changed = readFileSync(file);
  changed.writeUInt8(changed.readUInt8(200) ^ 0x01, 200);
  await dropBundle(page, changed, 'signed-greeter.mcpb');
  await expect(dialog.getByTestId('install-error')).toContainText(
    'signed-greeter.mcpb is signed, but the signature does not match its contents: the file was changed after it was signed',
  );
  await expect(dialog.getByTestId('install-form')).toHaveCount(0);
  await dialog.getByTestId('dialog-close').click();

  // In Chinese the verdict is worded from its code and data (bundle.note.selfSigned), not the host's English.
  await useLanguage(page, 'zh-CN');
  await openServers(page);
  await dropBundle(page, readFileSync(file), 'signed-greeter.mcpb');
  await expect(signature).toContainText('由 MCPB Self-Signed Certificate (MCPB Extensions) 自签名：发布者未经验证。');
  await expect(signature.getByTestId('install-signature')).toHaveText(/^签名证书 SHA-256：([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  await expectNoRawKeys(page, 'install dialog (zh-CN)');
  await useLanguage(page, 'en');
});
