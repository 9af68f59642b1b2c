/*
 * The page objects the QA kit's fixtures and the project's own e2e helpers share, over the selectors of
 * docs/testing.md (the selector contract): one place that knows how a server row is found, how a line is sent to the
 * chat, and when the servers have settled.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** Every status but `starting`: a server the app has finished starting, one way or another. */
const settledStatuses = ['ready', 'error', 'crash-loop', 'needs-approval', 'needs-login', 'stopped'] as const;

const cssString = (s: string): string => s.replace(/["\\]/g, '\\$&');

/** A server's row in the sidebar (`data-status`, `data-pid`, `data-expanded`). */
export function serverRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="server-row"][data-server="${cssString(name)}"]`);
}

/** Types a line in the chat box and sends it with Enter (a `/tool {json}` command, or a message to the model). */
export async function sendChat(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
}

/** The page shows `names` (when known) and none of its servers is still starting. */
export async function expectSettled(page: Page, names: readonly string[] | undefined): Promise<void> {
  const rows = page.getByTestId('server-row');
  if (names !== undefined) await expect(rows).toHaveCount(names.length, { timeout: 30_000 });
  else await expect(page.getByTestId('chat-input')).toBeVisible({ timeout: 30_000 });
  const unsettled = settledStatuses.map((s) => `:not([data-status="${s}"])`).join('');
  await expect(page.locator(`[data-testid="server-row"]${unsettled}`)).toHaveCount(0, { timeout: 60_000 });
}
