import { callTool, say, sequence, startFakeProvider, type FakeProvider, type Script } from '../src-main/test-support/fake-providers';
import { test as base, expect } from './fixtures';
import { featuresServer } from './features-helpers';
import { expectReady, send } from './helpers';

// The chat's tool card shows the progress of the model's call (calls:progress by the chat's call id), a timer and Cancel.
const test = base.extend<{ model: { script: Script }; fake: FakeProvider }>({
  model: [{ script: sequence(callTool('features__slow', { steps: 6, delayMs: 400 }), say('Done slowly.')) }, { option: true }],
  fake: async ({ model }, use) => {
    const fake = await startFakeProvider('openai', model.script);
    await use(fake);
    await fake.close();
  },
  hostEnv: async ({ fake }, use) => {
    await use({ OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-e2e-not-a-real-key', SWITCHBOARD_MODEL: 'openai:fake-model' });
  },
});
test.use({ mcpServers: { features: featuresServer() } });

test('the tool card of a model call shows its progress moving, a timer and Cancel', async ({ page }) => {
  await expectReady(page, 'features');
  await send(page, 'do it slowly');
  await page.getByTestId('approval-card').getByTestId('approve-once').click();
  const card = page.getByTestId('tool-card');
  await expect(card).toHaveAttribute('data-status', 'running');
  const progress = card.getByTestId('call-progress');
  const at = async (): Promise<number> => Number((await progress.getAttribute('data-progress', { timeout: 1000 }).catch(() => null)) ?? 0);
  await expect.poll(at).toBeGreaterThanOrEqual(1);
  const first = await at();
  await expect.poll(at).toBeGreaterThan(first);
  await expect(card.getByTestId('call-timer')).toHaveText(/^\d+\.\d s$/);
  await expect(card.getByTestId('tool-cancel')).toBeVisible();
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Done slowly.');
});

test.describe('a long call', () => {
  test.use({ model: { script: sequence(callTool('features__slow', { steps: 60, delayMs: 250 }), say('It was cancelled.')) } });

  test('Cancel on the tool card cancels that call; the turn goes on', async ({ page }) => {
    await expectReady(page, 'features');
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
