import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorScript, expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';

/*
 * Electron only: the app's own binary running its bundled calculator through `--switchboard-run-script` (how the
 * first-run config starts it, as the packaged app has the RunAsNode fuse off), and an entry in the
 * ELECTRON_RUN_AS_NODE form (existing configs may hold one), which the app rewrites to the flag form at start.
 */
const pathTxt = join(repoRoot, 'node_modules', 'electron', 'path.txt');
const electronBinary = existsSync(pathTxt)
  ? join(repoRoot, 'node_modules', 'electron', 'dist', readFileSync(pathTxt, 'utf8').trim())
  : 'electron-not-installed';
// Unpackaged, the binary needs the app's entry first (a packaged app loads its own).
const entry = join(repoRoot, 'out', 'main', 'index.js');

test.describe('the app binary as the calculator runtime', () => {
  test.skip(({ hostMode }) => hostMode !== 'electron', 'the desktop app only: headless mode runs scripts with node');
  test.use({
    mcpServers: {
      calculator: { command: electronBinary, args: [entry, '--switchboard-run-script', '--', calculatorScript, '--debug'], env: { CALC_PRECISION: '8' } },
      legacy: { command: electronBinary, args: [calculatorScript], env: { ELECTRON_RUN_AS_NODE: '1' } },
    },
  });

  test('runs the bundled calculator through --switchboard-run-script, and upgrades an ELECTRON_RUN_AS_NODE entry', async ({ page, host }) => {
    await expectReady(page, 'calculator');
    await expectReady(page, 'legacy');
    await send(page, '/calculator.add {"a":2,"b":3}');
    const card = lastCard(page);
    await expect(card).toHaveAttribute('data-state', 'ok');
    await expect(card.getByTestId('result-text')).toHaveText('5');
    const legacy = (JSON.parse(readFileSync(host.configPath, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers.legacy;
    expect(legacy).toEqual({ command: electronBinary, args: [entry, '--switchboard-run-script', '--', calculatorScript] });
  });
});
