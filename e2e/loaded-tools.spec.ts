import { join } from 'node:path';
import { callTool, say, sequence } from '../src-main/test-support/fake-providers';
import { expect, repoRoot } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, send } from './helpers';
import { useLanguage } from './i18n-helpers';

/*
 * The composer's list of a conversation's loaded tools: a server with 120 tools puts the chat in search mode (auto);
 * the fake model's search loads three tools, which the list shows; one is pinned, one removed, and the next request
 * the model gets is offered exactly what the list says. A toolset chosen afterwards marks the loaded tools it leaves out.
 */

const test = withFakeModel(sequence(callTool('search_tools', { query: 'merge a pull request', limit: 3 }), say('Found them.'), say('Next.')));
test.use({
  mcpServers: { dev: { command: process.execPath, args: [join(repoRoot, 'src-main', 'core', 'fixtures', 'catalog-server.mjs'), '--set=dev', '--tools=120'] } },
});

test('the loaded tools are listed; pin and remove change what the next request offers, and survive a reload', async ({ page, fake }) => {
  await expectReady(page, 'dev');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, 'find the merge tools');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Found them.');

  const list = page.getByTestId('loaded-tools');
  await expect(list.getByTestId('loaded-tools-summary')).toHaveText('Loaded tools (3)');
  await list.getByTestId('loaded-tools-summary').click();
  const items = list.getByTestId('loaded-tool');
  await expect(items).toHaveCount(3);
  await expect(items.first()).toHaveAttribute('data-key', 'dev/merge_pull_request');
  const removed = (await items.nth(1).getAttribute('data-key')) ?? '';

  const merge = list.locator('[data-testid="loaded-tool"][data-key="dev/merge_pull_request"]');
  await merge.getByTestId('loaded-tool-pin').click();
  await expect(merge).toHaveAttribute('data-pinned', 'true');
  await expect(merge.getByTestId('loaded-tool-pin')).toHaveText('Unpin');
  await items.nth(1).getByTestId('loaded-tool-remove').click();
  await expect(items).toHaveCount(2);
  await expect(list.getByTestId('loaded-tools-summary')).toHaveText('Loaded tools (2)');

  // Kept with the conversation by the host: the reopened conversation shows the same list.
  await page.reload();
  await page.getByTestId('loaded-tools-summary').click();
  await expect(page.getByTestId('loaded-tool')).toHaveCount(2);
  await expect(page.locator('[data-testid="loaded-tool"][data-key="dev/merge_pull_request"]')).toHaveAttribute('data-pinned', 'true');

  await send(page, 'go on');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Next.');
  const offered = fake.requests.at(-1)?.toolNames ?? [];
  expect(offered).toContain('dev__merge_pull_request');
  expect(offered).not.toContain(removed.replace('/', '__'));
  expect(offered).toHaveLength(3);

  // "Remove unpinned" leaves the pinned one.
  await page.getByTestId('loaded-tools-clear').click();
  await expect(page.getByTestId('loaded-tool')).toHaveCount(1);
  await expect(page.getByTestId('loaded-tool')).toHaveAttribute('data-key', 'dev/merge_pull_request');
});

test('in Chinese: the list, its pin and remove', async ({ page }) => {
  await useLanguage(page, 'zh-CN');
  await expectReady(page, 'dev');
  await expect(page.getByTestId('model-picker')).toHaveValue('openai:fake-model');
  await send(page, '找合并工具');
  const list = page.getByTestId('loaded-tools');
  await expect(list.getByTestId('loaded-tools-summary')).toHaveText('已加载的工具（3）');
  await list.getByTestId('loaded-tools-summary').click();
  const first = list.getByTestId('loaded-tool').first();
  await expect(first.getByTestId('loaded-tool-pin')).toHaveText('固定');
  await first.getByTestId('loaded-tool-pin').click();
  await expect(first.getByTestId('loaded-tool-pin')).toHaveText('取消固定');
  await expect(list.getByTestId('loaded-tool').last().getByTestId('loaded-tool-remove')).toHaveText('移除');
  await list.getByTestId('loaded-tool').last().getByTestId('loaded-tool-remove').click();
  await expect(list.getByTestId('loaded-tools-summary')).toHaveText('已加载的工具（2）');
});

test('a loaded tool the chosen toolset leaves out is marked and not offered, and stays loaded', async ({ page, fake }) => {
  await expectReady(page, 'dev');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, 'find the merge tools');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Found them.');
  await expect(page.getByTestId('loaded-tools-summary')).toHaveText('Loaded tools (3)');

  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('toolsets-section');
  await section.getByTestId('toolset-new-name').fill('merge');
  await section.getByTestId('toolset-add').click();
  const set = section.locator('[data-testid="toolset"][data-name="merge"]');
  await set.locator('[data-testid="toolset-tools"][data-server="dev"] summary').click();
  await set.locator('[data-testid="toolset-tool"][data-key="dev/merge_pull_request"]').click();
  await expect(set.locator('[data-testid="toolset-tool"][data-key="dev/merge_pull_request"]')).toBeChecked();
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('toolset-select').selectOption('merge');

  await page.getByTestId('loaded-tools-summary').click();
  const items = page.getByTestId('loaded-tool');
  await expect(items).toHaveCount(3);
  await expect(page.locator('[data-testid="loaded-tool"][data-key="dev/merge_pull_request"]')).toHaveAttribute('data-offered', 'true');
  const outside = page.locator('[data-testid="loaded-tool"][data-offered="false"]');
  await expect(outside).toHaveCount(2);
  await expect(outside.first().getByTestId('loaded-tool-outside')).toHaveText('not in this toolset');
  const left = (await outside.first().getAttribute('data-key')) ?? '';

  await send(page, 'go on');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Next.');
  const offered = fake.requests.at(-1)?.toolNames ?? [];
  expect(offered).toContain('dev__merge_pull_request');
  expect(offered).not.toContain(left.replace('/', '__'));
  // All tools again: the one left out is offered once more (it stayed loaded).
  await page.getByTestId('toolset-select').selectOption('');
  await expect(page.locator('[data-testid="loaded-tool"][data-offered="false"]')).toHaveCount(0);
});
