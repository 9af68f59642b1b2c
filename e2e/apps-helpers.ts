import { join } from 'node:path';
import type { Frame, Locator, Page } from '@playwright/test';
import { expect, repoRoot } from './fixtures';
import { send } from './helpers';

export const appLabScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'app-lab-server.mjs');
export const appsServerScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'apps-server.mjs');
export const exampleServer = (name: string): string => join(repoRoot, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

/** The sandbox proxy's frame (outer) and the app's own (inner, srcdoc) under a card's app view. */
export async function appFramesOf(view: Locator): Promise<{ outer: Frame; inner: Frame }> {
  const element = view.getByTestId('app-frame');
  await expect(element).toHaveAttribute('src', /.+/);
  const outer = await (await element.elementHandle())?.contentFrame();
  if (!outer) throw new Error('the app view has no frame');
  let inner: Frame | undefined;
  await expect.poll(() => (inner = outer.childFrames()[0]) !== undefined, { timeout: 15_000 }).toBe(true);
  if (!inner) throw new Error('the sandbox proxy made no inner frame');
  return { outer, inner };
}

/** Calls `/tool {}` from the chat box; the card's app view and its frames once the call succeeded. */
export async function openApp(page: Page, tool: string): Promise<{ card: Locator; view: Locator; outer: Frame; inner: Frame }> {
  // The card by its place, so that later cards do not move the locator.
  const cards = page.getByTestId('call-card');
  const index = await cards.count();
  await send(page, `/${tool} {}`);
  const card = cards.nth(index);
  await expect(card).toHaveAttribute('data-state', 'ok');
  const view = card.getByTestId('app-view');
  await expect(view).toBeVisible();
  return { card, view, ...(await appFramesOf(view)) };
}
