import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculatorServer, expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, openRow, send, serverRow } from './helpers';

const tiny = join(repoRoot, 'src-main', 'core', 'fixtures', 'tiny-server.mjs');
// Exists while the test wants the flaky server to crash; the fixture's temp dir is per test, this is per run.
const crashFlag = join(tmpdir(), `switchboard-crash-flag-${process.pid}`);

test.describe('a crashing server', () => {
  test.use({
    mcpServers: {
      calculator: calculatorServer(),
      flaky: { command: process.execPath, args: [tiny, '--name=flaky', `--die-while=${crashFlag}`] },
    },
  });

  test('a crash mid-call shows its reason and stderr; it restarts on its own; the calculator is untouched', async ({ page }) => {
    const calculator = await expectReady(page, 'calculator');
    const calculatorPid = await calculator.getAttribute('data-pid');
    const flaky = await expectReady(page, 'flaky');
    const firstPid = await flaky.getAttribute('data-pid');

    await send(page, '/flaky.crash {}');
    const card = lastCard(page);
    await expect(card).toContainText('Server "flaky" exited with code 3');
    await expect(card).toContainText('flaky: segmentation fault (simulated)');
    // Backoff restart brings it back: ready again, with a new process (both at once, not a stale 'ready').
    await expect
      .poll(async () => {
        const [status, pid] = await Promise.all([flaky.getAttribute('data-status'), flaky.getAttribute('data-pid')]);
        return status === 'ready' && pid !== null && pid !== firstPid;
      })
      .toBe(true);
    await send(page, '/flaky.echo {"text":"back"}');
    await expect(lastCard(page)).toContainText('flaky:back');
    await expect(calculator).toHaveAttribute('data-pid', calculatorPid ?? '');
    await expectReady(page, 'calculator');
  });

  test('a crash loop is shown with its reason and stderr; Restart brings the server back once fixed', async ({ page }) => {
    const calculator = await expectReady(page, 'calculator');
    const calculatorPid = await calculator.getAttribute('data-pid');
    const flaky = serverRow(page, 'flaky');
    await expect(flaky).toHaveAttribute('data-status', 'ready');
    // From now on it dies right after each start.
    writeFileSync(crashFlag, '');
    try {
      await flaky.getByRole('button', { name: 'Restart flaky' }).click();
      await expect(flaky).toHaveAttribute('data-status', 'crash-loop', { timeout: 20_000 });
      await openRow(page, 'flaky');
      await expect(flaky.getByTestId('server-error')).toContainText('exited with code 7');
      const stderr = flaky.getByTestId('server-stderr');
      await stderr.locator('summary').click();
      await expect(stderr.locator('pre')).toContainText('flaky: fatal error, exiting');
      await expect(calculator).toHaveAttribute('data-status', 'ready');
    } finally {
      rmSync(crashFlag, { force: true });
    }
    await flaky.getByRole('button', { name: 'Restart flaky' }).click();
    await expect(flaky).toHaveAttribute('data-status', 'ready');
    await send(page, '/flaky.echo {"text":"fixed"}');
    await expect(lastCard(page)).toContainText('flaky:fixed');
    await expect(calculator).toHaveAttribute('data-pid', calculatorPid ?? '');
  });
});
