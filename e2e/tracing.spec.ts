import { expect, test } from './fixtures';
import { openServerPage } from './features-helpers';
import { expectReady, lastCard, send } from './helpers';

// W3C trace context: the Trace tab shows each request's trace id (a direct call is one trace: its request and its
// response, and "Same trace" shows only those); Settings → Tracing turns the OTLP span export on.

test('the Trace tab shows the trace id of a direct call, and "Same trace" filters by it', async ({ page }) => {
  await expectReady(page, 'calculator');
  await send(page, '/calculator.add {"a":2,"b":3}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const serverPage = await openServerPage(page, 'calculator');
  await serverPage.getByRole('tab', { name: 'Trace' }).click();
  const list = serverPage.getByRole('listbox', { name: 'Protocol trace of calculator' });
  const call = list.locator('[data-kind="request"]', { hasText: 'tools/call' }).last();
  await expect(call.getByTestId('trace-traceid')).toHaveText(/^[0-9a-f]{8}$/);
  const short = await call.getByTestId('trace-traceid').innerText();
  await call.click();
  await expect(serverPage.getByTestId('trace-detail-traceid')).toContainText(new RegExp(`${short}[0-9a-f]{24}`));
  await serverPage.getByTestId('trace-same-trace').click();
  await expect(serverPage.getByTestId('trace-trace-filter')).toContainText(short);
  // The call's request and its response: nothing of the handshake or the lists (traces of their own).
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByTestId('trace-traceid')).toHaveText([short, short]);
  await serverPage.getByTestId('trace-trace-filter').click();
  await expect.poll(() => list.getByRole('option').count()).toBeGreaterThan(2);
});

test('Settings → Tracing: the export is off by default; on, it needs an http(s) endpoint, and is saved', async ({ page }) => {
  await expectReady(page, 'calculator');
  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('tracing-settings');
  await expect(section.getByTestId('telemetry-enabled')).not.toBeChecked();
  await section.getByTestId('telemetry-enabled').check();
  await section.getByTestId('telemetry-save').click();
  await expect(section.getByTestId('telemetry-error')).toContainText('endpoint');
  await section.getByTestId('telemetry-endpoint').fill('http://127.0.0.1:4318/v1/traces');
  await section.getByTestId('telemetry-headers').fill('x-api-key: abc');
  await section.getByTestId('telemetry-save').click();
  await expect(section.getByTestId('telemetry-saved')).toBeVisible();
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('telemetry-enabled')).toBeChecked();
  await expect(page.getByTestId('telemetry-endpoint')).toHaveValue('http://127.0.0.1:4318/v1/traces');
  await expect(page.getByTestId('telemetry-headers')).toHaveValue('x-api-key: abc');
});
