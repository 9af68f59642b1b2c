import { expect, test } from './fixtures';
import { expectReady, lastCard, openRow } from './helpers';

test('a form generated from inputSchema calls the tool: multiply 6 × 7 = 42', async ({ page }) => {
  await expectReady(page, 'calculator');
  const calculator = await openRow(page, 'calculator');
  await calculator.locator('[data-testid="tool-item"][data-tool="multiply"]').click();
  const form = page.getByTestId('tool-form');
  await expect(form).toBeVisible();
  await expect(form).toContainText('multiply');

  const a = form.getByTestId('field-a');
  const b = form.getByTestId('field-b');
  await expect(a).toHaveAttribute('type', 'number');
  await expect(a).toHaveAttribute('aria-required', 'true');
  await expect(form.getByLabel('a', { exact: false }).first()).toBeVisible();

  // Required fields are checked before anything is sent.
  await form.getByTestId('tool-form-submit').click();
  await expect(form.getByRole('alert').first()).toHaveText('Required.');
  await expect(page.getByTestId('call-card')).toHaveCount(0);

  await a.fill('6');
  await b.fill('7');
  await form.getByTestId('tool-form-submit').click();
  const card = lastCard(page);
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card).toHaveAttribute('data-tool', 'multiply');
  await expect(card.getByTestId('result-text')).toHaveText('42');
});

test('the tool picker opens the same form', async ({ page }) => {
  await expectReady(page, 'calculator');
  await page.getByTestId('tool-picker').selectOption({ label: 'divide' });
  const form = page.getByTestId('tool-form');
  await expect(form).toContainText('divide');
  await form.getByTestId('field-a').fill('1');
  await form.getByTestId('field-b').fill('4');
  await form.getByTestId('tool-form-submit').click();
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('0.25');
  await form.getByTestId('tool-form-close').click();
  await expect(form).toHaveCount(0);
});
