import { calculatorServer, expect, test } from './fixtures';
import { expectReady, openRow, serverRow } from './helpers';

// One stderr line, then exit: the host also retries it once with the legacy handshake, so it writes that line twice.
// (The line is put together at run time, so the command shown in the launch details does not contain it.)
const early = "process.stderr.write('bad key' + ' in settings\\n'); process.exit(3)";
// More lines than the reason quotes (its last five).
const chatty =
  "for (let i = 1; i <= 6; i++) process.stderr.write('loading part ' + i + '\\n'); process.stderr.write('bad key in settings\\n'); process.exit(3)";

test.use({
  mcpServers: {
    calculator: calculatorServer(),
    early: { command: process.execPath, args: ['-e', early] },
    chatty: { command: process.execPath, args: ['-e', chatty] },
  },
});

test('a crash that wrote one stderr line shows it once, in the reason, with no tail repeating it', async ({ page }) => {
  await expectReady(page, 'calculator');
  const row = serverRow(page, 'early');
  await expect(row).toHaveAttribute('data-status', 'error');
  await openRow(page, 'early');
  await expect(row.getByTestId('server-error')).toContainText('exited with code 3 before it was ready');
  await expect(row.getByTestId('server-error')).toContainText('bad key in settings');
  await expect(row.getByTestId('server-stderr')).toHaveCount(0);
  const text = await row.getByTestId('server-details').innerText();
  expect(text.split('bad key in settings').length - 1, 'times the line is shown').toBe(1);
});

test('a tail with lines the reason does not quote is shown, counting only the server lines', async ({ page }) => {
  const row = serverRow(page, 'chatty');
  await expect(row).toHaveAttribute('data-status', 'error');
  await openRow(page, 'chatty');
  await expect(row.getByTestId('server-error')).toContainText('bad key in settings');
  const stderr = row.getByTestId('server-stderr');
  await expect(stderr.locator('summary')).toContainText('(14 lines)');
  await stderr.locator('summary').click();
  await expect(stderr.locator('pre')).toContainText('loading part 1');
});
