import { join } from 'node:path';
import type { Frame } from '@playwright/test';
import { expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, send } from './helpers';

// A tool that runs only as a task (io.modelcontextprotocol/tasks) and has an MCP App: its call card shows the app,
// which gets the tool input at once and the task's final result when the task completes.

const fixture = join(repoRoot, 'src-main', 'core', 'fixtures', 'task-status-server.mjs');
test.use({ mcpServers: { tasks: { command: process.execPath, args: [fixture, '--app'] } } });

test('a task’s result card renders the tool’s app with the task’s final result', async ({ page }) => {
  await expectReady(page, 'tasks');
  await send(page, '/pushed {"text":"hi","afterMs":1500}');
  const card = lastCard(page);
  const element = card.getByTestId('app-frame');
  await expect(element).toHaveAttribute('src', /.+/);
  const outer = await (await element.elementHandle())?.contentFrame();
  let inner: Frame | undefined;
  await expect.poll(() => (inner = outer?.childFrames()[0]) !== undefined, { timeout: 15_000 }).toBe(true);
  if (!inner) throw new Error('no app frame');
  await expect(inner.locator('#input')).toHaveText('{"text":"hi","afterMs":1500}');
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card).toContainText('task');
  await expect(inner.locator('#result')).toHaveText('pushed: hi');
});
