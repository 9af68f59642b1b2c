import { join } from 'node:path';
import { expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, openRow, send } from './helpers';

// The MCP reference server: image results, enum/boolean schemas, structured content and a long-running tool.
test.use({
  mcpServers: {
    everything: {
      command: process.execPath,
      args: [join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'],
    },
  },
});

test.beforeEach(async ({ page }) => {
  await expectReady(page, 'everything');
});

test('an image block is shown as an image', async ({ page }) => {
  await send(page, '/get-tiny-image');
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'ok');
  const image = card.getByTestId('result-image');
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  // Decoded, so the CSP allowed it.
  await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
});

test('enum and optional boolean inputs in a generated form', async ({ page }) => {
  await openRow(page, 'everything');
  await page.locator('[data-testid="tool-item"][data-tool="get-annotated-message"]').click();
  const form = page.getByTestId('tool-form');
  const messageType = form.getByTestId('field-messageType');
  const includeImage = form.getByTestId('field-includeImage');
  await expect(messageType).toHaveAttribute('aria-required', 'true');
  await expect(includeImage).not.toHaveAttribute('aria-required', 'true');
  // The schema's default (false) is preselected.
  await expect(includeImage).toHaveValue('false');
  await messageType.selectOption({ label: 'success' });
  await includeImage.selectOption({ label: 'true' });
  await form.getByTestId('tool-form-submit').click();
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card.getByTestId('result-text').first()).toContainText(/success/i);
  await expect(card.getByTestId('result-image')).toHaveCount(1);
});

test('structured content is shown', async ({ page }) => {
  await send(page, '/get-structured-content {"location":"Chicago"}');
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card.locator('.structured')).toContainText('Structured content');
});

test('a running call can be cancelled', async ({ page }) => {
  await send(page, '/trigger-long-running-operation {"duration":30,"steps":30}');
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'pending');
  await card.getByTestId('call-cancel').click();
  await expect(card).toHaveAttribute('data-state', 'cancelled');
  await expect(card.getByTestId('call-state')).toHaveText('Cancelled');
  await expect(card.getByTestId('call-cancel')).toHaveCount(0);
  // The server is still usable afterwards.
  await send(page, '/get-sum {"a":20,"b":22}');
  await expect(lastCard(page).getByTestId('result-text')).toContainText('42');
});
