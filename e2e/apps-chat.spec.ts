import { join } from 'node:path';
import type { Frame } from '@playwright/test';
import { say } from '../src-main/test-support/fake-providers';
import { expect, repoRoot } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, lastCard, send } from './helpers';

// An app's ui/message with a model configured (a fake OpenAI-compatible vendor on loopback): it becomes the next user
// message, shown as from the app, and the model is told the app sent it.

const vanilla = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
const test = withFakeModel(() => say('Thanks, app.'));
test.use({ mcpServers: { basic: { command: process.execPath, args: [vanilla, '--stdio'] } } });

test('ui/message is sent to the model as the next user message, marked as from the app', async ({ page, fake }) => {
  await expectReady(page, 'basic');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, '/get-time {}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
  const element = lastCard(page).getByTestId('app-frame');
  await expect(element).toHaveAttribute('src', /.+/);
  const outer = await (await element.elementHandle())?.contentFrame();
  let inner: Frame | undefined;
  await expect.poll(() => (inner = outer?.childFrames()[0]) !== undefined, { timeout: 15_000 }).toBe(true);
  if (!inner) throw new Error('no app frame');
  await expect(inner.locator('#server-time')).toHaveText(/^\d{4}-/, { timeout: 15_000 });
  await inner.locator('#message-text').fill('Hello from the app');
  await inner.locator('#send-message-btn').click();

  await expect(page.getByTestId('user-message').last()).toHaveText('Hello from the app');
  await expect(page.getByTestId('message-from-app').last()).toHaveText('From the app Get Time');
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done');
  await expect.poll(() => JSON.stringify(fake.requests[0]?.body ?? {})).toContain('sent by the app \\"Get Time\\" (tool get-time of server \\"basic\\")');
});
