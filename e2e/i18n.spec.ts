import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { docsShotPath } from './doc-shots';
import { calculatorServer, defaultServers, expect, repoRoot, test } from './fixtures';
import { featuresServer } from './features-helpers';
import { expectReady, lastCard, openRow, send, serverRow } from './helpers';
import { rawKeys, useLanguage } from './i18n-helpers';

const tiny = join(repoRoot, 'src-main', 'core', 'fixtures', 'tiny-server.mjs');

/*
 * Languages: Settings → Language switches the whole UI to 简体中文 at once (remembered across a reload),
 * the screens show Chinese and no raw catalogue key, and switching back gives English again.
 */

async function chooseLanguage(page: Page, value: 'en' | 'zh-CN' | 'system'): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('language-select').selectOption(value);
}

test('switching to 简体中文 and back', async ({ page }) => {
  await expectReady(page, 'calculator');
  await expect(page.getByTestId('nav-chat')).toHaveText('Chat');

  await chooseLanguage(page, 'zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('nav-chat')).toHaveText('聊天');
  await expect(page.getByTestId('nav-servers')).toHaveText('服务器');
  await expect(page.getByTestId('nav-settings')).toHaveText('设置');
  const settings = page.getByTestId('settings-screen');
  await expect(settings.getByRole('heading', { name: '语言' })).toBeVisible();
  await expect(settings.getByRole('heading', { name: '文件' })).toBeVisible();
  // The secrets file's caveat (the host's English text) in Chinese.
  await expect(settings.getByTestId('secrets-warning')).toContainText('而不是操作系统钥匙串中');
  expect(await rawKeys(page)).toEqual([]);

  // The chat screen: toolbar, the servers list and a server's row.
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('history-toggle')).toHaveText('历史');
  await expect(page.getByTestId('new-chat')).toHaveText('新聊天');
  await expect(page.getByTestId('server-sidebar').getByRole('heading', { name: '服务器' })).toBeVisible();
  await expect(serverRow(page, 'calculator').getByTestId('server-status')).toHaveText('就绪');
  await expect(serverRow(page, 'calculator').getByTestId('server-restart')).toHaveText('重启');
  expect(await rawKeys(page)).toEqual([]);

  // The audit log dialog.
  await page.getByTestId('open-audit').click();
  const audit = page.getByTestId('audit-dialog');
  await expect(audit.getByRole('heading', { name: '审计日志' })).toBeVisible();
  expect(await rawKeys(page)).toEqual([]);
  await page.keyboard.press('Escape');

  // A server's page: its tabs and the tool catalogue.
  await serverRow(page, 'calculator').getByTestId('server-open-page').click();
  const serverPage = page.getByTestId('server-page');
  await expect(serverPage.getByRole('tab', { name: /^工具/ })).toBeVisible();
  await expect(serverPage.getByText('选择一个工具以查看其模式和注解。')).toBeVisible();
  await serverPage.getByRole('tab', { name: /^资源/ }).click();
  await expect(serverPage.getByText('calculator 不提供资源。')).toBeVisible();
  await serverPage.getByRole('tab', { name: /^工具/ }).click();
  expect(await rawKeys(page)).toEqual([]);
  await page.getByTestId('server-page-close').click();

  // The servers screen and its form.
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('add-server')).toHaveText('添加服务器');
  await page.getByTestId('add-server').click();
  await expect(page.getByTestId('server-form').getByRole('heading', { name: '添加服务器' })).toBeVisible();
  expect(await rawKeys(page)).toEqual([]);

  // Remembered across a reload.
  await page.reload();
  await expect(page.getByTestId('nav-chat')).toHaveText('聊天');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  // And back: English again, at once.
  await chooseLanguage(page, 'en');
  await expect(page.getByTestId('nav-chat')).toHaveText('Chat');
  await expect(page.getByTestId('settings-screen').getByRole('heading', { name: 'Language' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await chooseLanguage(page, 'system');
  await expect(page.getByTestId('nav-chat')).toHaveText('Chat');
});

test.describe('the README picture', () => {
  // As the English one (e2e/screenshot.spec.ts): the calculator opened, another closed, one that fails.
  test.use({ mcpServers: { ...defaultServers(), features: featuresServer() } });

  test('screenshot in 简体中文 for the README', async ({ page, host }, testInfo) => {
    await expectReady(page, 'calculator');
    await expectReady(page, 'features');
    await chooseLanguage(page, 'zh-CN');
    await page.getByTestId('nav-chat').click();
    await send(page, '/add {"a":2,"b":3}');
    await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
    await expect(lastCard(page).getByTestId('call-state')).toHaveText('完成');
    // The sidebar as a person leaves it: the calculator opened to its tools, the attention bar naming the broken one.
    await (await openRow(page, 'calculator')).locator('[data-testid="tool-item"][data-tool="multiply"]').click();
    await expect(page.getByTestId('tool-form-submit')).toHaveText('调用 multiply');
    expect(await rawKeys(page)).toEqual([]);
    await page.mouse.move(900, 420); // no hover highlight in the picture
    await page.screenshot({ path: docsShotPath(host.mode, 'screenshot.png', testInfo, 'zh-CN') });
    await chooseLanguage(page, 'system');
  });
});

test.describe('a server in error', () => {
  // Writes a line to stderr and exits with code 3 before the handshake: an error, not restarted on its own.
  const early = "process.stderr.write('bad key in settings\\n'); setTimeout(() => process.exit(3), 50);";
  test.use({ mcpServers: { calculator: calculatorServer(), early: { command: process.execPath, args: ['-e', early] } } });

  test('its reason is worded in Chinese from its code and data, the stderr it quotes kept; English again after', async ({ page }) => {
    await expectReady(page, 'calculator');
    const row = serverRow(page, 'early');
    await expect(row).toHaveAttribute('data-status', 'error');
    await openRow(page, 'early');
    await expect(row.getByTestId('server-error')).toContainText('Server "early" exited with code 3 before it was ready');

    await chooseLanguage(page, 'zh-CN');
    await page.getByTestId('nav-chat').click();
    const reason = serverRow(page, 'early').getByTestId('server-error');
    await expect(reason).toContainText('服务器“early”在就绪前已退出，退出码 3');
    await expect(reason).toContainText('最近的 stderr 输出：');
    await expect(reason).toContainText('bad key in settings');
    await expect(reason).not.toContainText('exited with code');
    await expect(reason).not.toContainText('Last stderr lines');

    // The servers screen words it the same way.
    await page.getByTestId('nav-servers').click();
    const configured = page.locator('[data-testid="config-server-row"][data-server="early"]').getByTestId('server-error');
    await expect(configured).toContainText('服务器“early”在就绪前已退出，退出码 3');

    await chooseLanguage(page, 'en');
    await page.getByTestId('nav-chat').click();
    await expect(serverRow(page, 'early').getByTestId('server-error')).toContainText('Server "early" exited with code 3 before it was ready');
    await chooseLanguage(page, 'system');
  });
});

test.describe('a server that dies during a call', () => {
  test.use({ mcpServers: { calculator: calculatorServer(), crashy: { command: process.execPath, args: [tiny, '--name=crashy'] } } });

  test("the call's failure says how it ended in Chinese, quoting the server's stderr", async ({ page }) => {
    await expectReady(page, 'crashy');
    await chooseLanguage(page, 'zh-CN');
    await page.getByTestId('nav-chat').click();
    await send(page, '/crashy.crash {}');
    const card = lastCard(page);
    await expect(card).toContainText('调用 crashy/crash 失败：服务器“crashy”在调用期间退出，退出码 3。');
    await expect(card).toContainText('最近的 stderr 输出：');
    await expect(card).toContainText('crashy: segmentation fault (simulated)');
    await expect(card).not.toContainText('exited with code');
    // It restarts on its own.
    await expectReady(page, 'crashy');
    await chooseLanguage(page, 'system');
  });
});

test.describe('a config that does not validate, in Chinese', () => {
  test.use({ configText: '{\n  "mcpServers": {\n    "calculator": { "args": ["x"] }\n  }\n}\n' });

  test("the banner says what is wrong in Chinese (from the problem's reason code and data); the providers dialog and the secrets caveat too", async ({
    page,
    host,
  }) => {
    await expect(page.getByTestId('config-error')).toContainText('needs either "command"');
    await useLanguage(page, 'zh-CN');
    const detail = page.getByTestId('config-error');
    await expect(detail).toContainText(
      /^配置文件 \S+mcp\.json 第 \d+ 行第 \d+ 列有问题：mcpServers\.calculator 需要 "command"（要启动的程序）或 "url"（远程服务器）二者之一$/,
    );
    await expect(detail).not.toContainText('needs either');
    // The servers screen's paused notice and the raw editor's problem list say it the same way.
    await page.getByTestId('nav-servers').click();
    await expect(page.getByTestId('servers-paused')).toContainText('mcpServers.calculator 需要 "command"（要启动的程序）或 "url"（远程服务器）二者之一');
    await expect(page.getByTestId('servers-paused')).not.toContainText('needs either');
    await page.getByTestId('servers-mode-raw').click();
    await expect(
      page
        .getByTestId('editor-problems')
        .locator('li')
        .filter({ has: page.locator('[data-source="main"]') }),
    ).toContainText('mcpServers.calculator 需要 "command"');
    await page.getByTestId('servers-mode-list').click();

    // Settings → providers names the OpenAI-compatible endpoint in Chinese (the core's label is English).
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('open-providers').click();
    const compatible = page.getByTestId('providers-section').locator('[data-testid="provider-row"][data-provider="compatible"]');
    await expect(compatible.locator('strong')).toHaveText('OpenAI 兼容端点');
    await expect(page.getByTestId('providers-section')).not.toContainText('OpenAI-compatible endpoint');

    // The secrets caveat names the file it means (headless: a 0600 file).
    if (host.mode === 'web') {
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('secrets-warning')).toContainText(`机密保存在 ${host.dir}`);
    }
    await useLanguage(page, 'en');
    await expect(page.getByTestId('config-error')).toContainText('needs either "command"');
  });
});
