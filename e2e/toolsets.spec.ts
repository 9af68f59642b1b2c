import { join } from 'node:path';
import { say } from '../src-main/test-support/fake-providers';
import { expect, repoRoot } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, send } from './helpers';
import { useLanguage } from './i18n-helpers';

/*
 * Toolsets: made in Settings → Toolsets, chosen per conversation in the composer. Proof is what the fake model is
 * offered: every request's tool names are in its log.
 */

const test = withFakeModel(() => say('ok'));
const catalog = join(repoRoot, 'src-main', 'core', 'fixtures', 'catalog-server.mjs');
test.use({
  mcpServers: {
    calculator: { command: process.execPath, args: [join(repoRoot, 'resources', 'calculator.mjs')] },
    dev: { command: process.execPath, args: [catalog, '--set=dev', '--tools=28'] },
  },
});

test('a toolset made in Settings, chosen in the composer: the offered tools change with it', async ({ page, fake }) => {
  await expectReady(page, 'calculator');
  await expectReady(page, 'dev');
  await expectChatReady(page, 'openai:fake-model');
  // No toolsets yet: no choice above the chat box.
  await expect(page.getByTestId('toolset-select')).toHaveCount(0);

  await page.getByTestId('nav-settings').click();
  // Every definition on every request, so "All tools" shows them all (auto would search above 30 tools).
  await page.getByTestId('chat-settings-section').getByTestId('tool-loading').selectOption('all');
  const section = page.getByTestId('toolsets-section');
  await section.getByTestId('toolset-new-name').fill('math');
  await section.getByTestId('toolset-add').click();
  const math = section.locator('[data-testid="toolset"][data-name="math"]');
  await math.locator('[data-testid="toolset-server"][data-server="calculator"]').click();
  await expect(math.locator('[data-testid="toolset-server"][data-server="calculator"]')).toBeChecked();
  // A second set of single tools.
  await section.getByTestId('toolset-new-name').fill('merge');
  await section.getByTestId('toolset-new-name').press('Enter');
  const mergeSet = section.locator('[data-testid="toolset"][data-name="merge"]');
  await mergeSet.locator('[data-testid="toolset-tools"][data-server="dev"] summary').click();
  await mergeSet.locator('[data-testid="toolset-tool"][data-key="dev/merge_pull_request"]').click();
  await expect(mergeSet.locator('[data-testid="toolset-tool"][data-key="dev/merge_pull_request"]')).toBeChecked();
  // A duplicate name is refused, saying which set.
  await section.getByTestId('toolset-new-name').fill('math');
  await section.getByTestId('toolset-add').click();
  await expect(section.getByTestId('toolsets-error')).toContainText('Toolset "math" is defined twice');
  // Renamed (Enter commits), and a third set added and deleted.
  await mergeSet.getByTestId('toolset-name').fill('merging');
  await mergeSet.getByTestId('toolset-name').press('Enter');
  const merging = section.locator('[data-testid="toolset"][data-name="merging"]');
  await expect(merging.locator('[data-testid="toolset-tool"][data-key="dev/merge_pull_request"]')).toBeChecked();
  await section.getByTestId('toolset-new-name').fill('scratch');
  await section.getByTestId('toolset-add').click();
  await section.locator('[data-testid="toolset"][data-name="scratch"]').getByTestId('toolset-delete').click();
  await expect(section.getByTestId('toolset')).toHaveCount(2);
  await expect(section.getByTestId('toolsets-error')).toHaveCount(0);

  await page.getByTestId('nav-chat').click();
  const select = page.getByTestId('toolset-select');
  await expect(select).toHaveValue('');
  await select.selectOption('math');
  await send(page, 'first');
  await expect(page.getByTestId('assistant-message')).toHaveAttribute('data-status', 'done');
  expect(fake.requests.at(-1)?.toolNames.sort()).toEqual(['calculator__add', 'calculator__divide', 'calculator__multiply', 'calculator__subtract']);

  // Switched in the same conversation: the next request is offered the other set.
  await expect(select.locator('option')).toHaveText(['All tools', 'math', 'merging']);
  await select.selectOption('merging');
  await send(page, 'second');
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done');
  await expect.poll(() => fake.requests.length).toBe(2);
  expect(fake.requests.at(-1)?.toolNames).toEqual(['dev__merge_pull_request']);

  await select.selectOption('');
  await send(page, 'third');
  await expect.poll(() => fake.requests.length).toBe(3);
  expect(fake.requests.at(-1)?.toolNames).toHaveLength(32);

  // Kept with the conversation: a reload shows its choice.
  await select.selectOption('math');
  await page.reload();
  await expect(page.getByTestId('toolset-select')).toHaveValue('math');
});

test('in Chinese: the toolset choice and the Settings section', async ({ page, fake }) => {
  await useLanguage(page, 'zh-CN');
  await expectReady(page, 'calculator');
  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('toolsets-section');
  await expect(section.locator('h2')).toHaveText('工具集');
  await section.getByTestId('toolset-new-name').fill('计算');
  await section.getByTestId('toolset-add').click();
  await section.locator('[data-testid="toolset"][data-name="计算"] [data-testid="toolset-server"][data-server="calculator"]').click();
  await expect(section.locator('[data-testid="toolset"][data-name="计算"] [data-testid="toolset-server"][data-server="calculator"]')).toBeChecked();
  await section.getByTestId('default-toolset').selectOption('计算');

  await page.getByTestId('nav-chat').click();
  const select = page.getByTestId('toolset-select');
  await expect(select).toHaveValue('计算');
  await expect(select.locator('option[value=""]')).toHaveText('全部工具');
  await expect(select.locator('option[value="计算"]')).toHaveText('计算（默认）');
  await expect(page.getByTestId('conversation-tools')).toContainText('工具集');
  await send(page, '你好');
  await expect.poll(() => fake.requests.length).toBe(1);
  expect(fake.requests[0]?.toolNames.every((n) => n.startsWith('calculator__'))).toBe(true);
});
