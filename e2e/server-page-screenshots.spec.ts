import { expect, test } from './fixtures';
import { featuresServer, openServerPage } from './features-helpers';
import { expectReady, lastCard, send } from './helpers';

// Screenshots of a server's page, each tab, at 1280×800 and 800×600, light and dark (written to the test's output
// folder, for a person to look at; nothing is compared).
test.use({ mcpServers: { features: featuresServer() } });

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
      await shot('tools');
      await serverPage.getByRole('tab', { name: /^Resources/ }).click();
      const firstResource = serverPage.getByRole('listbox', { name: /Resources of/ }).getByRole('option', { name: /Hello/ });
      if (await firstResource.isVisible().catch(() => false)) await firstResource.click();
      await shot('resources');
      await serverPage.getByRole('tab', { name: /^Prompts/ }).click();
      const greet = serverPage.getByRole('option', { name: /^Greet/ });
      if (await greet.isVisible().catch(() => false)) await greet.click();
      await shot('prompts');
      await serverPage.getByRole('tab', { name: 'Logs' }).click();
      await shot('logs');
      await serverPage.getByRole('tab', { name: 'Trace' }).click();
      await shot('trace');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
      await send(page, '/slow {"steps":20,"delayMs":300}');
      await page.waitForTimeout(1500);
      await shot('progress');
      await page.getByTestId('chat-input').fill('/gr');
      await shot('slash');
    });
  }
}
