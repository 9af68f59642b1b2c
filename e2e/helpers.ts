import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export function serverRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="server-row"][data-server="${name}"]`);
}

export async function expectReady(page: Page, name: string): Promise<Locator> {
  const row = serverRow(page, name);
  await expect(row).toHaveAttribute('data-status', 'ready');
  return row;
}

/** Types a line in the chat box and sends it with Enter. */
export async function send(page: Page, line: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.fill(line);
  await input.press('Enter');
}

export function lastCard(page: Page): Locator {
  return page.getByTestId('call-card').last();
}

export function lastNotice(page: Page): Locator {
  return page.getByTestId('chat-notice').last();
}
