import { join } from 'node:path';
import { say, sequence } from '../src-main/test-support/fake-providers';
import { withFakeModel } from './fake-model';
import { expect, repoRoot } from './fixtures';
import { expectReady, lastCard, send } from './helpers';
import { useLanguage } from './i18n-helpers';

/* Languages: a request card in 简体中文 — its heading from the kind, how it ended from the codes. */
const askingScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'asking-server.mjs');
const test = withFakeModel(sequence(say('x')));
test.use({ mcpServers: { asker: { command: process.execPath, args: [askingScript, '--debug'] } } });

test('request cards in Chinese: the heading from the kind, how it ended from the codes', async ({ page }) => {
  await expectReady(page, 'asker');
  await useLanguage(page, 'zh-CN');
  await expectReady(page, 'asker');
  await send(page, '/ask-form');
  const call = lastCard(page);
  const card = call.getByTestId('request-card');
  await expect(card).toHaveAttribute('data-kind', 'elicitation-form');
  await expect(card.locator('.card-title')).toHaveText('表单 asker 请你填写表单');
  await expect(card.locator('.card-title strong')).toHaveText('asker');
  await call.getByTestId('request-decline').click();
  const notice = call.getByTestId('request-settled');
  await expect(notice.getByTestId('request-settled-text')).toHaveText('已拒绝：由你拒绝');
  await expect(notice).toContainText('请你填写表单：已拒绝');
  await send(page, '/ask-form');
  const call2 = lastCard(page);
  await expect(call2.getByTestId('request-card')).toHaveCount(1);
  await call2.getByTestId('call-cancel').click();
  await expect(call2.getByTestId('request-settled-text')).toHaveText('已取消：请求方已撤回');
});
