import { join } from 'node:path';
import { callTool, say, sequence } from '../src-main/test-support/fake-providers';
import { expect, repoRoot } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, send } from './helpers';
import { useLanguage } from './i18n-helpers';

/*
 * Tool search in the real UI: a server with 120 tools puts the chat in search mode (auto); the fake model searches,
 * then calls what the search loaded. The search's card shows the query and the loaded tools.
 */

const test = withFakeModel(
  sequence(
    callTool('search_tools', { query: 'merge a pull request', limit: 3 }),
    callTool('dev__merge_pull_request', { repo: 'a/b', number: 7 }),
    say('Merged.'),
  ),
);
test.use({
  mcpServers: { dev: { command: process.execPath, args: [join(repoRoot, 'src-main', 'core', 'fixtures', 'catalog-server.mjs'), '--set=dev', '--tools=120'] } },
});

test('a search card with the query and what it loaded, then the loaded tool asks for approval as usual', async ({ page, fake }) => {
  await expectReady(page, 'dev');
  await expectChatReady(page, 'openai:fake-model');
  await send(page, 'merge PR 7 of a/b');
  const search = page.getByTestId('tool-search-card');
  await expect(search.getByTestId('tool-search-query')).toHaveText('merge a pull request');
  await expect(search.getByTestId('tool-search-matches').locator('li').first()).toHaveAttribute('data-tool', 'merge_pull_request');
  await expect(search).toContainText('3 tools loaded');
  const approval = page.getByTestId('approval-card');
  await expect(approval).toHaveAttribute('data-tool', 'merge_pull_request');
  await approval.getByTestId('approve-once').click();
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('Merged.');
  expect(fake.requests[0]?.toolNames).toEqual(['search_tools']);
});

test('in Chinese: the search card, and the setting in Settings', async ({ page, fake }) => {
  await useLanguage(page, 'zh-CN');
  await expectReady(page, 'dev');
  await expect(page.getByTestId('model-picker')).toHaveValue('openai:fake-model');
  await send(page, '合并 PR 7');
  const search = page.getByTestId('tool-search-card');
  await expect(search).toContainText('搜索工具：');
  await expect(search).toContainText('已加载 3 个工具');
  await page.getByTestId('approval-card').getByTestId('approve-once').click();
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-status', 'done');

  await page.getByTestId('open-providers').click();
  const select = page.getByTestId('chat-settings-section').getByTestId('tool-loading');
  await expect(select).toHaveValue('auto');
  await expect(select.locator('option[value="all"]')).toHaveText('每次请求都提供全部工具');
  await select.selectOption('all');
  await expect(select).toHaveValue('all');
  // Kept by main (chat-settings.json), not by the page.
  await page.reload();
  // The reload comes back to Settings.
  await expect(page.getByTestId('chat-settings-section').getByTestId('tool-loading')).toHaveValue('all');
  expect(fake.requests[0]?.toolNames).toEqual(['search_tools']);
});
