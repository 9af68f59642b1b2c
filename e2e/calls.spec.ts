import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callTool, say, sequence } from '../src-main/test-support/fake-providers';
import { withFakeModel } from './fake-model';
import { repoRoot } from './fixtures';
import { expect } from './fixtures';
import { expectChatReady, expectReady, lastCard, send } from './helpers';

// Calls belong to the host, not the tab: a reload or a second tab sees a running call running, then its real result
// (also one started in the other tab while both show the conversation);
// a request answered in one tab leaves the others. Each request card shows in one place (on the card of the call
// that caused it while the chat shows that card, else in the "Waiting for you" panel), and says how it ended.

const fixtures = join(repoRoot, 'src-main', 'core', 'fixtures');
const test = withFakeModel(sequence(say('Silver light on the tide.')));
test.use({
  mcpServers: {
    features: { command: process.execPath, args: [join(fixtures, 'features-server.mjs')] },
    asker: { command: process.execPath, args: [join(fixtures, 'asking-server.mjs')] },
  },
});

/** Another tab on the same host (the page keeps its token per tab: a new one needs the printed URL). */
async function secondTab(page: Page): Promise<Page> {
  const token: unknown = await page.evaluate("sessionStorage.getItem('switchboard.bridgeToken')");
  if (typeof token !== 'string' || token === '') throw new Error('the page kept no token');
  const tab = await page.context().newPage();
  await tab.goto(`${new URL(page.url()).origin}/?token=${token}`);
  return tab;
}

test('a reload while a slow call runs: the card shows it running, then its real result', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode: the page reloads over the bridge');
  await expectReady(page, 'features');
  await send(page, '/slow {"steps":5,"delayMs":700}');
  const card = lastCard(page);
  await expect(card.getByTestId('progress-count')).toBeVisible();

  await page.reload();
  await expectReady(page, 'features');
  const again = lastCard(page);
  await expect(again).toHaveAttribute('data-state', 'pending');
  await expect(again.getByTestId('call-error')).toHaveCount(0);
  // Its progress is the host's, not started afresh.
  await expect(again.getByTestId('progress-count')).toBeVisible();
  await expect(again).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  await expect(again.getByTestId('result-text')).toHaveText('slow done: 5 steps');
  await expect(page.getByText('did not finish')).toHaveCount(0);
});

test('two tabs: a form answered in one leaves the other, whose call card then shows the result', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode: a second browser tab on the same host');
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  const call = lastCard(page);
  await expect(call.getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');

  const other = await secondTab(page);
  await expectReady(other, 'asker');
  const otherCall = lastCard(other);
  // The second tab reopens the conversation: the call is running, and the request is on its card (not in the panel).
  await expect(otherCall).toHaveAttribute('data-state', 'pending');
  await expect(otherCall.getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(other.getByTestId('requests-panel')).toHaveCount(0);

  const form = call.getByTestId('request-card').getByRole('form');
  await form.getByRole('textbox', { name: /^Your name/ }).fill('Ann');
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(call).toHaveAttribute('data-state', 'ok');

  await expect(otherCall.getByTestId('request-card')).toHaveCount(0);
  await expect(other.getByTestId('requests-panel')).toHaveCount(0);
  await expect(otherCall).toHaveAttribute('data-state', 'ok');
  await expect(otherCall.getByTestId('result-text')).toContainText('form accepted:');
  await other.close();
});

test('two tabs on one conversation: a direct call made in one shows in the other, running, then its result', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode: a second browser tab on the same host');
  await expectReady(page, 'features');
  await send(page, '/slow {"steps":1,"delayMs":10}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const other = await secondTab(page);
  await expectReady(other, 'features');
  // The second tab reopens the conversation: its one card so far.
  await expect(other.getByTestId('call-card')).toHaveCount(1);

  await send(page, '/slow {"steps":4,"delayMs":400}');
  const shown = other.getByTestId('call-card').nth(1);
  await expect(shown).toHaveAttribute('data-state', 'pending');
  await expect(shown).toHaveAttribute('data-tool', 'slow');
  await expect(shown.getByTestId('progress-count')).toBeVisible();
  await expect(shown).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  await expect(shown.getByTestId('result-text')).toHaveText('slow done: 4 steps');
  // Once in each tab: the tab that made the call did not get a second card for it.
  await expect(other.getByTestId('call-card')).toHaveCount(2);
  await expect(page.getByTestId('call-card')).toHaveCount(2);
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('slow done: 4 steps');
  await other.close();
});

test('a request waiting when the page reloads stays on its call card, never in the panel too', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode: the page reloads over the bridge');
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  await expect(lastCard(page).getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(page.getByTestId('requests-panel')).toHaveCount(0);

  // Notes whether the panel ever shows after the reload, even for a moment (the request first there, then moving).
  await page.addInitScript({
    content: `window.panelSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="requests-panel"]')) window.panelSeen = true;
      }).observe(document, { childList: true, subtree: true });`,
  });
  await page.reload();
  await expectReady(page, 'asker');
  const call = lastCard(page);
  await expect(call).toHaveAttribute('data-state', 'pending');
  await expect(call.getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(page.getByTestId('request-card')).toHaveCount(1);
  await expect(page.getByTestId('requests-panel')).toHaveCount(0);
  expect(await page.evaluate('window.panelSeen'), 'the panel showed the request meanwhile').toBe(false);
  await call.getByTestId('request-card').getByRole('button', { name: 'Decline' }).click();
  await expect(call).toHaveAttribute('data-state', 'ok');
  await expect(call.getByTestId('result-text')).toHaveText('form declined');
});

test('an approved sampling request says what became of it: the model answered, then its answer went back', async ({ page }) => {
  await expectReady(page, 'asker');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, '/ask-model {"topic":"the sea"}');
  const call = lastCard(page);
  await call.getByTestId('request-card').getByRole('button', { name: 'Approve' }).click();

  const asked = call.locator('[data-testid="request-settled"][data-kind="sampling"]');
  await expect(asked.getByTestId('request-settled-text')).toHaveText('Approved: the model answered; check its answer before it goes to asker.');
  const result = call.locator('[data-testid="request-card"][data-kind="sampling-result"]');
  await result.getByRole('button', { name: 'Send' }).click();

  await expect(call).toHaveAttribute('data-state', 'ok');
  await expect(asked).toHaveAttribute('data-stage', 'done');
  await expect(asked.getByTestId('request-settled-text')).toHaveText("Done: the model's answer went to asker.");
  await expect(call.getByText('the model is running')).toHaveCount(0);
  // One place per request: on the call card, and not in the panel as well.
  await expect(page.getByTestId('requests-panel')).toHaveCount(0);
});

test.describe('a model turn across a reload', () => {
  test.use({ model: { script: sequence(callTool('features__slow', { steps: 5, delayMs: 700 }), say('All five steps are done.')) } });

  test('the reloaded page shows the running turn, keeps Stop, and then its end', async ({ page, host }) => {
    test.skip(host.mode !== 'web', 'headless mode: the page reloads over the bridge');
    await expectReady(page, 'features');
    await expectChatReady(page, 'openai:fake-model');
    await send(page, 'take five slow steps');
    await page.getByTestId('approval-card').getByTestId('approve-once').click();
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'running');

    await page.reload();
    await expectReady(page, 'features');
    await expect(page.getByTestId('user-message')).toHaveText('take five slow steps');
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'running');
    await expect(page.getByTestId('assistant-message')).toHaveAttribute('data-status', 'streaming');
    await expect(page.getByTestId('chat-stop')).toBeVisible();

    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
    await expect(page.getByTestId('tool-card').getByTestId('result-text')).toHaveText('slow done: 5 steps');
    await expect(page.getByTestId('assistant-message')).toHaveAttribute('data-status', 'done');
    await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('All five steps are done.');
    await expect(page.getByTestId('chat-stop')).toHaveCount(0);
  });
});
