import { readFileSync, writeFileSync } from 'node:fs';
import { calculatorServer, expect, test } from './fixtures';
import { editorText, openRawEditor, replaceEditorText } from './config-ui-helpers';
import { expectReady, serverRow } from './helpers';

const fileWith = (servers: Record<string, unknown>): string => `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;

test('the raw editor marks a syntax error at its line as you type, and main’s validation error at its line on save', async ({ page, host }) => {
  await expectReady(page, 'calculator');
  const before = readFileSync(host.configPath, 'utf8');
  const editor = await openRawEditor(page);
  await expect(editor.getByTestId('editor-no-problems')).toBeVisible();
  // Highlighted as JSON (CodeMirror token spans), under the page's CSP.
  await expect(editor.locator('.cm-content span').first()).toBeVisible();

  // A missing comma at the end of line 4: the problem is where the next property starts, line 5.
  const calc = JSON.stringify(calculatorServer());
  await replaceEditorText(page, editor, `{\n  // comments are fine\n  "mcpServers": {\n    "calculator": ${calc}\n    "two": { "command": "x" }\n  }\n}\n`);
  await expect(editor.locator('.cm-line[data-problem-line="5"]')).toContainText('"two"');
  await expect(editor.locator('[data-testid="editor-problem"][data-source="local"]')).toHaveAttribute('data-line', '5');
  await expect(editor.getByTestId('editor-problems')).toContainText('expected a comma');
  await expect(editor.locator('.cm-lintRange-error').first()).toBeVisible();

  // Valid JSON that only main's schema refuses: args must be an array. Main refuses the save, at line 5.
  await replaceEditorText(
    page,
    editor,
    `{\n  "mcpServers": {\n    "calculator": ${calc},\n    "two": {\n      "command": "x", "args": "oops"\n    }\n  }\n}\n`,
  );
  await expect(editor.getByTestId('editor-no-problems')).toBeVisible();
  await editor.getByTestId('editor-save').click();
  await expect(editor.getByTestId('editor-status')).toContainText('Not saved — line 5');
  await expect(editor.getByTestId('editor-status')).toContainText('must be an array');
  await expect(editor.locator('[data-testid="editor-problem"][data-source="main"]')).toHaveAttribute('data-line', '5');
  await expect(editor.locator('.cm-line[data-problem-line="5"]')).toContainText('"oops"');
  expect(readFileSync(host.configPath, 'utf8')).toBe(before);

  // Valid text saves (Ctrl+S): written as typed, comments kept, and applied (broken is gone).
  const valid = `{\n  // edited in the app\n  "mcpServers": {\n    "calculator": ${calc},\n  },\n}\n`;
  await replaceEditorText(page, editor, valid);
  await expect(editor.getByTestId('editor-no-problems')).toBeVisible();
  await expect(editor).toHaveAttribute('data-dirty', 'true');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(editor.getByTestId('editor-status')).toContainText('Saved');
  await expect(editor).toHaveAttribute('data-dirty', 'false');
  expect(readFileSync(host.configPath, 'utf8')).toBe(valid);
  expect(readFileSync(`${host.configPath}.bak`, 'utf8')).toBe(before);
  await page.getByTestId('nav-chat').click();
  await expect(serverRow(page, 'broken')).toHaveCount(0);
  await expectReady(page, 'calculator');
});

test('the editor follows the file: reloads when clean, asks when there are unsaved edits', async ({ page, host }) => {
  const editor = await openRawEditor(page);

  // Clean: an external change simply appears.
  writeFileSync(host.configPath, fileWith({ calculator: calculatorServer(), external: { command: 'definitely-not-a-real-command-xyz' } }));
  await expect(editor.locator('.cm-content')).toContainText('"external"');
  await expect(editor.getByTestId('editor-changed-on-disk')).toHaveCount(0);

  // Dirty: the newer file is offered, not forced.
  await replaceEditorText(page, editor, fileWith({ calculator: calculatorServer(), mine: { command: 'x' } }));
  await expect(editor).toHaveAttribute('data-dirty', 'true');
  writeFileSync(host.configPath, fileWith({ calculator: calculatorServer(), theirs: { command: 'y' } }));
  await expect(editor.getByTestId('editor-changed-on-disk')).toBeVisible();
  await expect(editor.locator('.cm-content')).toContainText('"mine"');

  // Keep editing, then save: the user's text wins knowingly.
  await editor.getByTestId('editor-keep').click();
  await expect(editor.getByTestId('editor-changed-on-disk')).toHaveCount(0);
  await editor.getByTestId('editor-save').click();
  await expect(editor.getByTestId('editor-status')).toContainText('Saved');
  expect(readFileSync(host.configPath, 'utf8')).toContain('"mine"');

  // Dirty again, and Reload takes the file's version.
  await replaceEditorText(page, editor, fileWith({ calculator: calculatorServer(), draft: { command: 'x' } }));
  writeFileSync(host.configPath, fileWith({ calculator: calculatorServer(), fromDisk: { command: 'z' } }));
  await editor.getByTestId('editor-reload').click();
  await expect(editor).toHaveAttribute('data-dirty', 'false');
  // The editor's lines are drawn after its state changes: read them until they show the file (or time out).
  await expect.poll(() => editorText(editor)).toBe(readFileSync(host.configPath, 'utf8'));

  // Unsaved text survives leaving the screen and coming back.
  await replaceEditorText(page, editor, fileWith({ calculator: calculatorServer(), kept: { command: 'x' } }));
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('config-editor').locator('.cm-content')).toContainText('"kept"');
  await expect(page.getByTestId('config-editor')).toHaveAttribute('data-dirty', 'true');
});
