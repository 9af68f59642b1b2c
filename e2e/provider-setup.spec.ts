import { say, sequence, startFakeProvider, type FakeProvider } from '../src-main/test-support/fake-providers';
import { expect, test as base } from './fixtures';
import { expectChatReady, expectReady, send } from './helpers';

/*
 * Setting up a model provider from the app: the providers live in Settings (the chat links there), the
 * OpenAI-compatible endpoint's base URL is required and checked, and saving a working provider offers the chat with
 * its model chosen. A fake OpenAI-compatible server (real HTTP on loopback) is the endpoint; no provider is in the
 * host's environment.
 */
const test = base.extend<{ fake: FakeProvider }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  fake: async ({}, use) => {
    const fake = await startFakeProvider('openai', sequence(say('Hello from the endpoint')));
    await use(fake);
    await fake.close();
  },
});

test('from the chat to Settings → Model providers, the base URL required, then straight back to a working chat', async ({ page, fake }) => {
  await expectReady(page, 'calculator');
  // The chat's way there: the empty chat's "Add a provider" lands on the providers in Settings.
  await page.getByTestId('chat-empty').getByTestId('add-provider').click();
  await expect(page.getByTestId('settings-screen')).toBeVisible();
  const section = page.getByTestId('providers-section');
  await expect(section.getByRole('heading', { name: 'Model providers' })).toBeFocused();
  await expect(page.getByTestId('providers-dialog')).toHaveCount(0);

  const row = section.locator('[data-testid="provider-row"][data-provider="compatible"]');
  const baseURL = row.getByTestId('provider-base-url');
  await expect(baseURL).toHaveAttribute('placeholder', /^Base URL \(required\)/);
  await expect(baseURL).toHaveAccessibleName('OpenAI-compatible endpoint base URL (required)');
  await expect(baseURL).toHaveAttribute('aria-required', 'true');
  // The other providers' base URLs stay optional.
  await expect(section.locator('[data-provider="openai"]').getByTestId('provider-base-url')).toHaveAttribute('placeholder', 'Base URL (optional)');

  // Saving without one says what is needed, and saves nothing.
  await row.getByTestId('provider-save').click();
  await expect(row.getByTestId('provider-error')).toContainText('needs a base URL');
  await expect(row).toContainText('not set up');
  await baseURL.fill('localhost:1234');
  await row.getByTestId('provider-save').click();
  await expect(row.getByTestId('provider-error')).toContainText('is not an http:// or https:// address');

  await baseURL.fill(fake.baseURL);
  await row.getByTestId('provider-save').click();
  await expect(row.getByTestId('provider-error')).toHaveCount(0);
  await expect(row).toContainText('ready');
  const start = row.getByTestId('provider-start-chat');
  await expect(start).toHaveText('Chat with compatible:fake-model');
  await start.click();

  // The chat, with that model, and a message goes to the endpoint.
  await expect(page.getByTestId('settings-screen')).toHaveCount(0);
  await expectChatReady(page, 'compatible:fake-model');
  await expect(page.getByTestId('chat-input')).toBeFocused();
  await send(page, 'hi');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Hello from the endpoint');
  expect(fake.requests).toHaveLength(1);

  // The toolbar's "Providers & approvals" leads to the same place.
  await page.getByTestId('open-providers').click();
  await expect(page.getByTestId('providers-section').getByRole('heading', { name: 'Model providers' })).toBeFocused();
  await expect(page.getByTestId('chat-settings-section').getByTestId('approval-mode')).toBeVisible();
});
