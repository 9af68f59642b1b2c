import { callTool, say, sequence } from '../src-main/test-support/fake-providers';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { withFakeModel } from './fake-model';
import { featuresServer } from './features-helpers';
import { expectChatReady, expectReady, send } from './helpers';

// The chat's tool card shows the progress of the model's call (calls:progress by the chat's call id), a timer and Cancel.
const test = withFakeModel(sequence(callTool('features__slow', { steps: 6, delayMs: 400 }), say('Done slowly.')));
test.use({ mcpServers: { features: featuresServer() } });

/** One rendered state of the chat's tool card. */
interface CardState {
  status: string | null;
  progress: number | undefined;
  timer: string | undefined;
  cancelVisible: boolean;
}

/** The few DOM bits the recorder uses (this project's TypeScript has no DOM lib: specs run in Node). */
interface DomNode {
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  getClientRects(): { length: number };
  readonly textContent: string | null;
}
interface PageGlobals {
  document: { body: unknown; querySelector(selector: string): DomNode | null };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
  getComputedStyle(node: DomNode): { visibility: string };
  toolCardStates?: CardState[];
}

/**
 * Records every state the tool card is rendered in (a MutationObserver sees each commit), so that what is only
 * shown while the call runs is checked on what was rendered, not on whatever a poll happens to catch before the
 * call ends. Returns a function that reads the states so far.
 */
async function recordToolCard(page: Page): Promise<() => Promise<CardState[]>> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const states: CardState[] = [];
    g.toolCardStates = states;
    const visible = (node: DomNode | null): boolean => node !== null && node.getClientRects().length > 0 && g.getComputedStyle(node).visibility !== 'hidden';
    const snapshot = (): void => {
      const card = g.document.querySelector('[data-testid="tool-card"]');
      if (!card) return;
      const progress = card.querySelector('[data-testid="call-progress"]')?.getAttribute('data-progress');
      const state: CardState = {
        status: card.getAttribute('data-status'),
        progress: progress === null || progress === undefined ? undefined : Number(progress),
        timer: card.querySelector('[data-testid="call-timer"]')?.textContent ?? undefined,
        cancelVisible: visible(card.querySelector('[data-testid="tool-cancel"]')),
      };
      if (JSON.stringify(states[states.length - 1]) !== JSON.stringify(state)) states.push(state);
    };
    new g.MutationObserver(snapshot).observe(g.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as PageGlobals).toolCardStates ?? []);
}

test('the tool card of a model call shows its progress moving, a timer and Cancel', async ({ page }) => {
  await expectReady(page, 'features');
  await expectChatReady(page, 'openai:fake-model');
  const states = await recordToolCard(page);
  await send(page, 'do it slowly');
  await page.getByTestId('approval-card').getByTestId('approve-once').click();
  const card = page.getByTestId('tool-card');
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Done slowly.');
  // While it ran: progress moving (a first value, then a greater one), a timer and Cancel.
  const running = (await states()).filter((s) => s.status === 'running');
  const progress = running.flatMap((s) => (s.progress !== undefined && s.progress >= 1 ? [s.progress] : []));
  expect(progress.length, 'progress shown while running').toBeGreaterThanOrEqual(1);
  expect(Math.max(...progress), 'the progress moved').toBeGreaterThan(progress[0] ?? Infinity);
  expect(
    running.some((s) => /^\d+\.\d s$/.test(s.timer ?? '')),
    'a timer while running',
  ).toBe(true);
  expect(
    running.some((s) => s.cancelVisible),
    'Cancel while running',
  ).toBe(true);
  expect(
    running.some((s) => (s.progress ?? 0) >= 1 && /^\d+\.\d s$/.test(s.timer ?? '') && s.cancelVisible),
    'all three at once',
  ).toBe(true);
});

test.describe('a long call', () => {
  // Far longer than the test may run: the call can only end by its Cancel.
  test.use({ model: { script: sequence(callTool('features__slow', { steps: 1000, delayMs: 250 }), say('It was cancelled.')) } });

  test('Cancel on the tool card cancels that call; the turn goes on', async ({ page }) => {
    await expectReady(page, 'features');
    await expectChatReady(page, 'openai:fake-model');
    await send(page, 'do it very slowly');
    await page.getByTestId('approval-card').getByTestId('approve-once').click();
    const card = page.getByTestId('tool-card');
    const progress = card.getByTestId('call-progress');
    await expect.poll(async () => Number((await progress.getAttribute('data-progress', { timeout: 1000 }).catch(() => null)) ?? 0)).toBeGreaterThanOrEqual(1);
    await card.getByTestId('tool-cancel').click();
    await expect(card).not.toHaveAttribute('data-status', 'running');
    await expect(card).toHaveAttribute('data-status', /cancelled|error/);
    await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('It was cancelled.');
  });
});

test.describe('a resource attached to a message', () => {
  test.use({ model: { script: sequence(say('Read it.')) } });

  test('goes to the model as context, and the message shows what went with it', async ({ page, fake }) => {
    await expectReady(page, 'features');
    await expectChatReady(page, 'openai:fake-model');
    await page.getByTestId('server-open-page').click();
    const serverPage = page.getByTestId('server-page');
    await serverPage.getByRole('tab', { name: /^Resources/ }).click();
    await serverPage.getByRole('searchbox', { name: 'Search resources' }).fill('hello.txt');
    await serverPage.getByRole('listbox', { name: 'Resources of features' }).getByRole('option').first().click();
    const attach = serverPage.getByTestId('resource-attach');
    await attach.click();
    await expect(attach).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await expect(page.getByTestId('attachment')).toHaveAttribute('data-uri', 'fixture://static/hello.txt');
    await send(page, 'what does it say?');
    await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Read it.');
    await expect(page.getByTestId('attachments')).toHaveCount(0);
    await expect(page.getByTestId('sent-attachments')).toContainText('hello');
    await expect.poll(() => JSON.stringify(fake.requests[0]?.body ?? {})).toContain('Hello from the features fixture.');
  });
});
