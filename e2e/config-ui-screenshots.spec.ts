import { calculatorServer, expect, test } from './fixtures';
import { configRow, openRawEditor, openServers, replaceEditorText } from './config-ui-helpers';
import { docsShotPath } from './doc-shots';
import { expectReady } from './helpers';
import { expectNoRawKeys, languages, useLanguage } from './i18n-helpers';

test.use({
  mcpServers: {
    calculator: calculatorServer(),
    github: { command: 'definitely-not-a-real-command-xyz', args: ['-y', 'some-github-server'], env: { GITHUB_TOKEN: '${secret:GITHUB_TOKEN}' } },
    remote: { url: 'http://127.0.0.1:9/mcp' },
  },
});

// The comment at the top of the edited file, in the picture's language (the editor shows what the user typed).
const editorComment = {
  en: '// Claude Desktop–compatible; comments and trailing commas are fine.',
  'zh-CN': '// 与 Claude Desktop 兼容；可以写注释，也可以有尾随逗号。',
} as const;

for (const language of languages) {
  test(`screenshots of the servers screen and of the raw editor with an inline error (${language})`, async ({ page, host }, testInfo) => {
    await useLanguage(page, language);
    await expectReady(page, 'calculator');
    await openServers(page);
    await expect(configRow(page, 'remote')).toHaveAttribute('data-status', /error|crash-loop/);
    await configRow(page, 'github').getByTestId('server-edit').click();
    await expect(page.getByTestId('server-form')).toBeVisible();
    await expectNoRawKeys(page, 'servers screen');
    await page.mouse.move(1200, 780);
    await page.screenshot({ path: docsShotPath(host.mode, 'servers.png', testInfo, language) });

    const editor = await openRawEditor(page);
    const text = `{
  ${editorComment[language]}
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
    await expectNoRawKeys(page, 'raw editor');
    await page.mouse.move(1200, 780);
    await page.screenshot({ path: docsShotPath(host.mode, 'editor.png', testInfo, language) });
  });
}
