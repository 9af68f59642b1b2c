import { join } from 'node:path';
import { calculatorModel, callTool, say, sequence } from '../src-main/test-support/fake-providers';
import { test as base, expect, repoRoot } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, send } from './helpers';

/*
 * Chat with an LLM in the real UI: a fake OpenAI-compatible server (real HTTP on loopback, scripted SSE with
 * tool calls) stands in for the vendor; the host's real provider code talks to it through OPENAI_BASE_URL.
 */

const test = withFakeModel(calculatorModel());

test('"what is 2+3": the approval card, Allow once, then 5', async ({ page, fake }) => {
  await expectReady(page, 'calculator');
  await expect(page.getByTestId('model-picker')).toHaveValue('openai:fake-model');
  // The picker offers what the endpoint lists at /models.
  await page.getByTestId('model-picker').focus();
  await expect(page.locator('#model-options option[value="openai:fake-model-2"]')).toHaveCount(1);
  await send(page, 'what is 2+3');
  await expect(page.getByTestId('user-message')).toHaveText('what is 2+3');
  const approval = page.getByTestId('approval-card');
  await expect(approval).toHaveAttribute('data-server', 'calculator');
  await expect(approval).toHaveAttribute('data-tool', 'add');
  await expect(approval.getByTestId('json-tree')).toContainText('a: 2');
  await expect(approval.getByTestId('json-tree')).toContainText('b: 3');
  await approval.getByTestId('approve-once').click();
  const card = page.getByTestId('tool-card');
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(card.getByTestId('result-text')).toHaveText('5');
  const answer = page.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer.getByTestId('markdown').last()).toHaveText('The answer is 5');
  await expect.poll(() => fake.requests[1]?.toolResults[0]?.content).toBe('5');

  // The turn is in the history, and in the audit log.
  await page.getByTestId('history-toggle').click();
  await expect(page.getByTestId('history-item')).toHaveCount(1);
  await expect(page.getByTestId('history-item')).toContainText('what is 2+3');
  await page.getByTestId('open-audit').click();
  await expect(page.getByTestId('audit-row')).toHaveCount(2);
  await expect(page.getByTestId('audit-row').first()).toContainText('calculator/add');
  await page.getByTestId('dialog-close').click();
});

test('Deny: the card says so and the model is told', async ({ page, fake }) => {
  await expectReady(page, 'calculator');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, 'what is 2+3');
  await page.getByTestId('approval-card').getByTestId('approve-deny').click();
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'denied');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('You denied the calculator, so I cannot compute that.');
  await expect.poll(() => fake.requests[1]?.toolResults[0]?.content ?? '').toMatch(/denied/);
});

test.describe('a hostile tool result', () => {
  const evil =
    'Look: <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> ' +
    '[click me](javascript:window.__pwned=3) <a href="javascript:window.__pwned=4">a</a> ' +
    '<svg onload="window.__pwned=5"></svg> ![tracker](https://example.invalid/pixel.png) **bold**';
  test.use({
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'],
      },
    },
    model: { script: sequence(callTool('everything__echo', { message: evil }), say(`The tool said: ${evil}`)) },
  });

  test('executes nothing: no <img onerror>, no <script>, no javascript: link, no remote image', async ({ page }) => {
    await expectReady(page, 'everything');
    await expectChatReady(page, 'openai:fake-model');
    await page.evaluate(() => {
      (globalThis as unknown as { __pwned?: number }).__pwned = undefined;
    });
    await send(page, 'echo something nasty');
    await page.getByTestId('approval-card').getByTestId('approve-once').click();
    const card = page.getByTestId('tool-card');
    await expect(card).toHaveAttribute('data-status', 'done');
    await expect(card.getByTestId('result-markdown')).toContainText('<script>window.__pwned=2</script>');
    await expect(card.getByTestId('result-markdown').locator('strong')).toHaveText('bold');
    const answer = page.getByTestId('assistant-message');
    await expect(answer).toHaveAttribute('data-status', 'done');
    await expect(answer.getByTestId('markdown').last()).toContainText('<img src=x onerror=');

    const log = page.getByTestId('chat-log');
    await expect(log.locator('script')).toHaveCount(0);
    await expect(log.locator('svg')).toHaveCount(0);
    await expect(log.locator('img')).toHaveCount(0);
    await expect(log.locator('a[href^="javascript:" i]')).toHaveCount(0);
    await expect(log.locator('[onerror], [onload]')).toHaveCount(0);
    // Remote images wait for the user: a button, not a request.
    await expect(log.locator('.md-remote-image')).toHaveCount(2);
    // Clicking every link the markdown made does nothing harmful either.
    for (const link of await log.locator('.md a').all()) await link.click({ modifiers: ['ControlOrMeta'] }).catch(() => undefined);
    // Watch the flag for a while (an onerror or a delayed handler would fire within it), not just once.
    for (let i = 0; i < 10; i++) {
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await page.waitForTimeout(200);
    }
  });
});

base.describe('without a provider', () => {
  base('the chat stays in direct mode and says how to add one', async ({ page }) => {
    await expectReady(page, 'calculator');
    await expect(page.getByTestId('no-provider-hint')).toContainText('ANTHROPIC_API_KEY or OPENAI_API_KEY');
    await send(page, 'hello');
    await expect(page.getByTestId('chat-notice').last()).toContainText('No LLM provider is configured');
    await send(page, '/add {"a":2,"b":3}');
    await expect(page.getByTestId('call-card').getByTestId('result-text')).toHaveText('5');
  });
});
