import type { Locator, Page } from '@playwright/test';
import { serverRow } from '../src-main/kit/page-objects';
import { expect } from './fixtures';

// The QA kit's page objects (src-main/kit/page-objects.ts): the same ones QA teams' specs use.
export { expectSettled, sendChat as send, serverRow } from '../src-main/kit/page-objects';

export async function expectReady(page: Page, name: string): Promise<Locator> {
  const row = serverRow(page, name);
  await expect(row).toHaveAttribute('data-status', 'ready');
  return row;
}

/**
 * Waits until typed text goes to `model`: the providers are loaded (the picker shows the model) and the chat can
 * use it (the box says so). The servers list can come back before the providers do, so a server row can say
 * "ready" while text sent to the chat still only gets a "Nothing to send that to yet" notice.
 */
export async function expectChatReady(page: Page, model: string): Promise<void> {
  await expect(page.getByTestId('model-picker')).toHaveValue(model);
  await expect(page.getByTestId('chat-input')).toHaveAttribute('placeholder', /^Ask anything/);
}

export function lastCard(page: Page): Locator {
  return page.getByTestId('call-card').last();
}

export function lastNotice(page: Page): Locator {
  return page.getByTestId('chat-notice').last();
}

/** A server's row in the sidebar, opened (rows start closed): for what it shows inside — tools, reasons, cards. */
export async function openRow(page: Page, name: string): Promise<Locator> {
  const row = serverRow(page, name);
  if ((await row.getAttribute('data-expanded')) !== 'true') await row.getByTestId('server-expand').click();
  await expect(row).toHaveAttribute('data-expanded', 'true');
  return row;
}
