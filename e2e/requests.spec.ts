import { join } from 'node:path';
import { callTool, say, sequence, type Script } from '../src-main/test-support/fake-providers';
import { withFakeModel } from './fake-model';
import { expect, repoRoot } from './fixtures';
import { readFileSync } from 'node:fs';
import { configRow, openServers } from './config-ui-helpers';
import { expectChatReady, expectReady, lastCard, send } from './helpers';

// Server requests in the UI: what a server asks of the person shows as a card on the call that caused it, and the answer
// goes back to the server. The server is src-main/core/fixtures/asking-server.mjs (its tools ask for sampling, a
// form and a URL); the model behind sampling is the fake OpenAI-compatible vendor on loopback (e2e/fake-model.ts).

const askingScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'asking-server.mjs');
const test = withFakeModel(sequence(say('Silver light on the tide.')));
test.use({ mcpServers: { asker: { command: process.execPath, args: [askingScript, '--debug'] } } });

test('approve a sampling request (edited first), check the model’s answer, send it: the tool result shows it', async ({ page, fake }) => {
  await expectReady(page, 'asker');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, '/ask-model {"topic":"the sea"}');
  const call = lastCard(page);
  const card = call.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'sampling');
  await expect(card).toHaveAttribute('data-server', 'asker');
  // What the server asked for, before anything reaches a model.
  await expect(card.getByTestId('request-deadline')).toHaveText(/left$/);
  await expect(card.getByRole('textbox', { name: /^Message 1 \(user\)/ })).toHaveValue('Write a short poem about the sea.');
  // includeContext "thisServer": the server's context follows its own system prompt (shown, editable).
  await expect(card.getByRole('textbox', { name: 'System prompt' })).toHaveValue(
    /^You are a terse poet\.\n\nContext from the MCP server that asked \(includeContext "thisServer"\):\nServer "asker"/,
  );
  await expect(card.getByRole('spinbutton', { name: 'Max tokens' })).toHaveValue('200');
  await expect(card.getByTestId('sampling-include-context')).toHaveText('this server’s context');
  await expect(card.getByTestId('sampling-model-preferences')).toContainText('fake');
  await expect(card.getByRole('combobox', { name: 'Model' })).toHaveValue('openai:fake-model');
  expect(fake.requests, 'nothing reached the model before approval').toHaveLength(0);

  await card.getByRole('textbox', { name: /^Message 1/ }).fill('Write a short poem about the moon.');
  await card.getByRole('button', { name: 'Approve' }).click();

  // The model's answer, editable before it goes back.
  const result = call.locator('[data-testid="request-card"][data-kind="sampling-result"]');
  const answer = result.getByRole('textbox', { name: 'Answer to send' });
  await expect(answer).toHaveValue('Silver light on the tide.');
  expect(JSON.stringify(fake.requests[0]?.body ?? {}), 'the edited prompt went to the model').toContain('the moon');
  await answer.fill('Silver light on the moon.');
  await result.getByRole('button', { name: 'Send' }).click();

  await expect(call).toHaveAttribute('data-state', 'ok');
  await expect(call.getByTestId('result-text')).toHaveText('model said: Silver light on the moon.');
  await expect(call.getByTestId('request-card')).toHaveCount(0);
});

test('decline a sampling request: nothing reaches the model, the server hears no', async ({ page, fake }) => {
  await expectReady(page, 'asker');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, '/ask-model {"topic":"the sea"}');
  const call = lastCard(page);
  const card = call.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'sampling');
  await card.getByRole('button', { name: 'Decline' }).click();
  await expect(call).not.toHaveAttribute('data-state', 'pending');
  await expect(call.getByTestId('request-settled')).toHaveAttribute('data-outcome', 'declined');
  await expect(call.getByTestId('request-settled-text')).toHaveText('declined: declined by the user');
  // The server gets the refusal (on 2026-07-28 the call itself then fails with it; the legacy era's tool says so).
  await expect(call).toContainText(/User rejected sampling request: declined by the user|sampling declined/);
  expect(fake.requests, 'a declined sampling never reaches the model').toHaveLength(0);
});

test('fill in an elicitation form: defaults shown, checked before sending, the values reach the server', async ({ page }) => {
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  const call = lastCard(page);
  const card = call.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(card.getByTestId('request-message')).toHaveText('Tell us about yourself');
  const form = card.getByRole('form');
  // Defaults (SEP-1034) are filled in; the enum shows its titles.
  await expect(form.getByRole('spinbutton', { name: /^Age/ })).toHaveValue('30');
  await expect(form.getByRole('combobox', { name: /^Subscribe/ })).toHaveValue('true');
  await expect(form.getByRole('combobox', { name: /^Favourite colour/ }).locator('option:checked')).toHaveText('Green');

  // Nothing is sent until it is valid: the name is required, the email must be one.
  await form.getByRole('button', { name: 'Accept' }).click();
  const name = form.getByRole('textbox', { name: /^Your name/ });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Required.')).toBeVisible();
  await name.fill('Ann');
  const email = form.getByRole('textbox', { name: /^Email/ });
  await email.fill('not-an-email');
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(call).toHaveAttribute('data-state', 'pending');

  await email.fill('ann@example.com');
  await form.getByRole('combobox', { name: /^Favourite colour/ }).selectOption({ label: 'Blue' });
  await form.getByRole('button', { name: 'Accept' }).click();

  await expect(call).toHaveAttribute('data-state', 'ok');
  const text = call.getByTestId('result-text');
  await expect(text).toContainText('form accepted:');
  for (const part of ['"name":"Ann"', '"email":"ann@example.com"', '"colour":"blue"', '"age":30', '"subscribe":true']) await expect(text).toContainText(part);
});

test('decline a URL elicitation: the host and the full URL are shown, nothing is opened, the server hears no', async ({ page }) => {
  await expectReady(page, 'asker');
  await send(page, '/ask-url');
  const call = lastCard(page);
  const card = call.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'elicitation-url');
  await expect(card.getByTestId('request-url-host')).toHaveText('auth.example.com');
  await expect(card.getByTestId('request-url')).toHaveText('https://auth.example.com/consent?session=fixture');
  await expect(card.getByRole('button', { name: 'Open auth.example.com' })).toBeEnabled();
  await card.getByRole('button', { name: 'Decline' }).click();

  await expect(call).toHaveAttribute('data-state', 'ok');
  await expect(call.getByTestId('result-text')).toHaveText('url declined');
  const notice = call.getByTestId('request-settled');
  await expect(notice).toHaveAttribute('data-outcome', 'declined');
  await expect(notice).toContainText('declined');
});

test('consent to a URL in the web page: the link is shown to click (the page cannot open a browser), the server hears yes', async ({ page, host }) => {
  // The desktop app would hand the URL to the system browser (shell.openExternal) instead of showing it.
  test.skip(host.mode === 'electron', 'web only: the desktop app opens the system browser');
  await expectReady(page, 'asker');
  await send(page, '/ask-url');
  const call = lastCard(page);
  await call.getByTestId('request-card').getByRole('button', { name: 'Open auth.example.com' }).click();
  await expect(call.getByTestId('result-text')).toHaveText('url accepted');
  const link = call.getByTestId('request-settled').getByRole('link', { name: 'https://auth.example.com/consent?session=fixture' });
  await expect(link).toHaveAttribute('href', 'https://auth.example.com/consent?session=fixture');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
});

test('cancelling the call withdraws its request, and the card says so', async ({ page }) => {
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  const call = lastCard(page);
  await expect(call.getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');
  await call.getByTestId('call-cancel').click();
  await expect(call).toHaveAttribute('data-state', 'cancelled');
  await expect(call.getByTestId('request-card')).toHaveCount(0);
  const notice = call.getByTestId('request-settled');
  await expect(notice).toHaveAttribute('data-outcome', 'cancelled');
  await expect(notice.getByTestId('request-settled-text')).toHaveText(/^cancelled: /);
  await notice.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(notice).toHaveCount(0);
});

test('a request with no call card on screen waits in the panel, visible from every screen', async ({ page }) => {
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  const call = lastCard(page);
  await expect(call.getByTestId('request-card')).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(page.getByTestId('requests-panel')).toHaveCount(0);
  // Away from the conversation, the request moves to the panel and can be answered there.
  await page.getByTestId('nav-servers').click();
  const panel = page.getByRole('complementary', { name: 'Requests waiting for you' });
  const card = panel.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'elicitation-form');
  // It folds out of the way and back.
  await panel.getByRole('button', { name: 'Hide' }).click();
  await expect(card).toBeHidden();
  await panel.getByRole('button', { name: 'Show' }).click();
  // Esc from inside the panel folds it too, with focus on Show.
  await card.getByRole('textbox', { name: /^Your name/ }).focus();
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();
  await expect(panel.getByRole('button', { name: 'Show' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card).toBeVisible();
  await card.getByRole('textbox', { name: /^Your name/ }).fill('Bo');
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(panel.getByTestId('request-settled')).toHaveAttribute('data-outcome', 'accepted');
  await page.getByTestId('nav-chat').click();
  await expect(call).toHaveAttribute('data-state', 'ok');
  await expect(call.getByTestId('result-text')).toContainText('"name":"Bo"');
});

test.describe('a tool the model calls', () => {
  // The model calls ask-model; the sampling request that tool makes goes to the same fake model (system prompt
  // "You are a terse poet."), whose answer the tool returns; then the model sums up.
  const script: Script = (request) => {
    if (JSON.stringify(request.body).includes('terse poet')) return say('Moonlit waves.');
    if (request.toolResults.length > 0) return say(`The server said: ${request.toolResults[0]?.content ?? ''}`);
    return callTool('asker__ask-model', { topic: 'night' });
  };
  test.use({ model: { script } });

  test('its sampling request shows on the chat’s tool card, and the answer flows back to the model', async ({ page }) => {
    await expectReady(page, 'asker');
    await expectChatReady(page, 'openai:fake-model');
    await send(page, 'ask the asker for a poem');
    await page.getByTestId('approval-card').getByTestId('approve-once').click();
    const toolCard = page.getByTestId('tool-card');
    const sampling = toolCard.locator('[data-testid="request-card"][data-kind="sampling"]');
    await expect(sampling.getByRole('textbox', { name: /^Message 1/ })).toHaveValue('Write a short poem about night.');
    await sampling.getByRole('button', { name: 'Approve' }).click();
    const result = toolCard.locator('[data-testid="request-card"][data-kind="sampling-result"]');
    await expect(result.getByRole('textbox', { name: 'Answer to send' })).toHaveValue('Moonlit waves.');
    await result.getByRole('button', { name: 'Send' }).click();
    await expect(toolCard).toHaveAttribute('data-status', 'done');
    await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('The server said: model said: Moonlit waves.');
  });
});

test('roots set in the server form reach the server without a restart', async ({ page, host }) => {
  const row = await expectReady(page, 'asker');
  const pid = await row.getAttribute('data-pid');
  await openServers(page);
  await configRow(page, 'asker').getByTestId('server-edit').click();
  const form = page.getByTestId('server-form');
  await form.getByRole('button', { name: 'Add root' }).click();
  await form.getByRole('textbox', { name: 'Root 1' }).fill('file:///srv/shared');
  await form.getByRole('button', { name: 'Add root' }).click();
  await form.getByRole('textbox', { name: 'Root 2' }).fill('https://example.com/not-a-folder');
  await form.getByTestId('form-save').click();
  await expect(form.getByTestId('form-error-roots')).toContainText('not a folder');
  await form.getByRole('button', { name: 'Remove root 2' }).click();
  await form.getByTestId('form-save').click();
  await expect(form).toHaveCount(0);
  const written = JSON.parse(readFileSync(host.configPath, 'utf8')) as { mcpServers: Record<string, { roots?: string[] }> };
  expect(written.mcpServers.asker?.roots).toEqual(['file:///srv/shared']);

  await page.getByTestId('nav-chat').click();
  await send(page, '/list-roots');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('roots: file:///srv/shared');
  await expect(row, 'the same process: roots changed without a restart').toHaveAttribute('data-pid', pid ?? '');
});
