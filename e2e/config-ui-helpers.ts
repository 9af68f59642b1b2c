import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Helpers for the in-app config specs (servers screen, raw editor, import, secrets). */

export function configRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="config-server-row"][data-server="${name}"]`);
}

export async function openServers(page: Page): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('servers-screen')).toBeVisible();
}

export async function openRawEditor(page: Page): Promise<Locator> {
  await openServers(page);
  await page.getByTestId('servers-mode-raw').click();
  const editor = page.getByTestId('config-editor');
  await expect(editor.locator('.cm-content')).toBeVisible();
  await expect(editor.locator('.cm-content')).toContainText('mcpServers');
  return editor;
}

/** Replaces the editor's whole text, as a paste would. */
export async function replaceEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** The editor's text, line by line as CodeMirror shows it. */
export async function editorText(editor: Locator): Promise<string> {
  const lines = await editor.locator('.cm-content .cm-line').allTextContents();
  return lines.join('\n');
}
