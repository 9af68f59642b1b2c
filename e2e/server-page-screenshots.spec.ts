import { expect, test } from './fixtures';
import { docsShotPath } from './doc-shots';
import { featuresServer, openServerPage } from './features-helpers';
import { expectReady, lastCard, send } from './helpers';
import { expectNoRawKeys, languages, useLanguage } from './i18n-helpers';

// Screenshots of a server's page, each tab, at 1280×800 and 800×600, light and dark (written to the test's output
// folder, for a person to look at; nothing is compared). And the README's picture of one, in each language.
test.use({ mcpServers: { features: featuresServer() } });

for (const language of languages) {
  test(`a server's page for the README: the Resources tab reading a text resource (${language})`, async ({ page, host }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await useLanguage(page, language);
    await expectReady(page, 'features');
    const serverPage = await openServerPage(page, 'features');
    await serverPage.getByTestId('tab-resources').click();
    const panel = serverPage.getByTestId('panel-resources');
    const hello = panel.getByRole('option', { name: /Hello/ });
    await hello.click();
    await expect(hello).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByTestId('resource-viewer').getByTestId('resource-content')).toContainText('Hello from the features fixture.');
    await expectNoRawKeys(page, 'server page');
    await page.mouse.move(1275, 795); // no hover highlight in the picture
    await page.screenshot({ path: docsShotPath(host.mode, 'server-page.png', testInfo, language) });
  });
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`server page tabs at ${size.width}×${size.height}, ${scheme}`, async ({ page }, testInfo) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await expectReady(page, 'features');
      await send(page, '/log');
      await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
      const serverPage = await openServerPage(page, 'features');
      const shot = async (name: string): Promise<void> => {
        await page.mouse.move(size.width - 5, size.height - 5);
        await page.screenshot({ path: testInfo.outputPath(`${name}-${size.width}x${size.height}-${scheme}.png`) });
      };
      await serverPage.getByRole('option', { name: /^structured / }).click();
      await expect(serverPage.getByRole('option', { name: /^structured /, selected: true })).toBeVisible();
      await shot('tools');
      await serverPage.getByRole('tab', { name: /^Resources/ }).click();
      const hello = serverPage.getByRole('listbox', { name: /Resources of/ }).getByRole('option', { name: /Hello/ });
      await hello.click();
      await expect(serverPage.getByTestId('resource-viewer').getByTestId('resource-content')).toContainText('Hello from the features fixture.');
      await shot('resources');
      await serverPage.getByRole('tab', { name: /^Prompts/ }).click();
      const greet = serverPage.getByRole('option', { name: /^Greet/ });
      await greet.click();
      await expect(greet).toHaveAttribute('aria-selected', 'true');
      await shot('prompts');
      await serverPage.getByRole('tab', { name: 'Logs' }).click();
      await expect(serverPage.getByRole('listbox', { name: 'Log of features' }).getByRole('option', { name: /a warning message/ })).toBeVisible();
      await shot('logs');
      await serverPage.getByRole('tab', { name: 'Trace' }).click();
      await expect(
        serverPage.getByRole('listbox', { name: 'Protocol trace of features' }).locator('[data-kind="request"]', { hasText: 'tools/call' }).last(),
      ).toBeVisible();
      await shot('trace');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
      // 20 steps of 300 ms: still running, a few steps in, when the picture is taken.
      await send(page, '/slow {"steps":20,"delayMs":300}');
      const progress = lastCard(page).getByTestId('call-progress');
      await expect.poll(async () => Number((await progress.getAttribute('data-progress', { timeout: 1000 }).catch(() => null)) ?? 0)).toBeGreaterThanOrEqual(3);
      await shot('progress');
      await page.getByTestId('chat-input').fill('/gr');
      await expect(page.getByTestId('slash-suggestions').locator('[data-testid="slash-suggestion"][data-name="greet"]')).toBeVisible();
      await shot('slash');
    });
  }
}
