import { docsShotPath } from './doc-shots';
import { defaultServers, expect, test } from './fixtures';
import { featuresServer } from './features-helpers';
import { expectReady, lastCard, openRow, send } from './helpers';

// Three servers: the calculator (opened in the picture), another left closed with its tool count, one that fails.
test.use({ mcpServers: { ...defaultServers(), features: featuresServer() } });

test('screenshot of the main UI for the README', async ({ page, host }, testInfo) => {
  await expectReady(page, 'calculator');
  await expectReady(page, 'features');
  await expect(page.locator('[data-testid="server-row"][data-server="broken"]')).toHaveAttribute('data-status', 'error');
  await send(page, '/add {"a":2,"b":3}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
  await send(page, '/divide {"a":1,"b":0}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'error');
  // The sidebar as a person leaves it: the calculator opened to its tools, the attention bar naming the broken one.
  await expect(page.getByTestId('attention-bar')).toContainText('broken');
  await (await openRow(page, 'calculator')).locator('[data-testid="tool-item"][data-tool="multiply"]').click();
  await expect(page.getByTestId('tool-form')).toBeVisible();
  await page.getByTestId('field-a').fill('6');
  await page.getByTestId('field-b').fill('7');
  await page.mouse.move(900, 420); // no hover highlight in the picture
  await page.screenshot({ path: docsShotPath(host.mode, 'screenshot.png', testInfo) });
});
