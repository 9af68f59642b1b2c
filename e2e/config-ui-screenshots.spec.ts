import { join } from 'node:path';
import { calculatorServer, expect, repoRoot, test } from './fixtures';
import { configRow, openRawEditor, openServers, replaceEditorText } from './config-ui-helpers';
import { expectReady } from './helpers';

test.use({
  mcpServers: {
    calculator: calculatorServer(),
    github: { command: 'definitely-not-a-real-command-xyz', args: ['-y', 'some-github-server'], env: { GITHUB_TOKEN: '${secret:GITHUB_TOKEN}' } },
    remote: { url: 'http://127.0.0.1:9/mcp' },
  },
});

// Only the web project writes the README's images; the Electron run keeps its own copies.
const shotPath = (mode: string, name: string, outputPath: (name: string) => string): string =>
  mode === 'web' ? join(repoRoot, 'docs', name) : outputPath(name);

test('screenshots of the servers screen and of the raw editor with an inline error', async ({ page, host }, testInfo) => {
  await expectReady(page, 'calculator');
  await openServers(page);
  await expect(configRow(page, 'remote')).toHaveAttribute('data-status', /error|crash-loop/);
  await configRow(page, 'github').getByTestId('server-edit').click();
  await expect(page.getByTestId('server-form')).toBeVisible();
  await page.mouse.move(1200, 780);
  await page.screenshot({ path: shotPath(host.mode, 'servers.png', (n) => testInfo.outputPath(n)) });

  const editor = await openRawEditor(page);
  const text = `{
  // Claude Desktop–compatible; comments and trailing commas are fine.
  "mcpServers": {
    "calculator": {
      "command": "node",
      "args": ["resources/calculator.mjs", "--debug"],
      "env": { "CALC_PRECISION": "8" }
    },
    "github": {
      "command": "npx"
      "args": ["-y", "some-github-server"],
      "env": { "GITHUB_TOKEN": "\${secret:GITHUB_TOKEN}" }
    },
  },
}
`;
  await replaceEditorText(page, editor, text);
  await expect(editor.locator('.cm-line[data-problem-line="11"]')).toBeVisible();
  await page.mouse.move(1200, 780);
  await page.screenshot({ path: shotPath(host.mode, 'editor.png', (n) => testInfo.outputPath(n)) });
});
