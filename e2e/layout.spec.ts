import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { calculatorScript, calculatorServer, expect, repoRoot, test } from './fixtures';
import { expectReady, lastCard, openRow, send, serverRow } from './helpers';
import { configRow, openServers } from './config-ui-helpers';
import { featuresServer, openServerPage } from './features-helpers';
import { registryTest } from './registry-fixture';
import { expectNoRawKeys, languages, useLanguage } from './i18n-helpers';

/*
 * Layout and everyday use: every main screen fits 800×600 and 1600×1000, in English and in 简体中文 (no
 * sideways scroll, no control outside the window or clipped by its box, no raw catalogue key); the main flows by
 * keyboard alone; direct calls kept and audited; a tab
 * left open across a restart of `serve` says what to do.
 */

interface Offender {
  what: string;
  rect: { left: number; right: number; top: number; bottom: number };
  why: string;
}

/** The bits of the DOM the probes below use (this project's e2e code compiles without the DOM lib). */
interface El {
  tagName: string;
  textContent: string | null;
  parentElement: El | null;
  scrollHeight: number;
  clientHeight: number;
  classList: { contains(name: string): boolean };
  closest(selector: string): El | null;
  matches(selector: string): boolean;
  contains(other: unknown): boolean;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; width: number; height: number };
}
interface TextNode {
  textContent: string | null;
  parentElement: El | null;
}
interface PageGlobals {
  document: {
    documentElement: El & { clientWidth: number; scrollWidth: number };
    body: El;
    activeElement: El | null;
    querySelectorAll(selector: string): Iterable<El>;
    createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
    createRange(): { selectNodeContents(node: TextNode): void; getClientRects(): Iterable<{ top: number; height: number }> };
  };
  getComputedStyle(el: El): { visibility: string; display: string; overflowX: string; overflowY: string };
}

/** Controls outside the viewport (or clipped sideways by a box), and the page's own sideways overflow. */
async function layoutProblems(page: Page): Promise<{ overflowX: number; offenders: Offender[] }> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const offenders: Offender[] = [];
    const describe = (el: El): string => {
      const id = el.getAttribute('data-testid');
      const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''} "${label}"`;
    };
    const controls = document.querySelectorAll('button, input, select, textarea, a[href], [role="button"], [tabindex="0"]');
    for (const el of controls) {
      if (el.closest('[hidden], [inert]')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      // Inside a box that scrolls vertically (the log, a list) a control may be scrolled out of view: fine.
      let scroller: El | null = el.parentElement;
      let inScroller = false;
      let clippedBy: El | undefined;
      for (; scroller && scroller !== document.body; scroller = scroller.parentElement) {
        const s = getComputedStyle(scroller);
        if (/(auto|scroll)/.test(s.overflowY) && scroller.scrollHeight > scroller.clientHeight + 1) inScroller = true;
        if (/(hidden|clip)/.test(s.overflowX) && clippedBy === undefined) {
          const b = scroller.getBoundingClientRect();
          if (r.right > b.right + 1 || r.left < b.left - 1) clippedBy = scroller;
        }
      }
      const rect = { left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), bottom: Math.round(r.bottom) };
      if (r.right > vw + 1 || r.left < -1) offenders.push({ what: describe(el), rect, why: `sideways outside the ${vw}px window` });
      else if (!inScroller && (r.bottom > vh + 1 || r.top < -1)) offenders.push({ what: describe(el), rect, why: `below or above the ${vh}px window` });
      else if (clippedBy && !clippedBy.classList.contains('collapsed')) offenders.push({ what: describe(el), rect, why: `clipped by ${describe(clippedBy)}` });
    }
    return { overflowX: document.documentElement.scrollWidth - vw, offenders };
  });
}

/**
 * Short labels (a button's, a tab's, a field's name: one "word", up to 12 characters) shown on more than one line.
 * An English word never breaks, but Chinese may break between any two characters, so a label squeezed by its
 * neighbours turns into a column of single characters (配 / 置) instead of making room or wrapping whole.
 */
async function splitLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
    const found: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      if (text.length < 2 || text.length > 12 || /\s/.test(text)) continue;
      if (!node.parentElement || node.parentElement.closest('[hidden], [inert], textarea, .cm-editor')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set<number>();
      for (const r of range.getClientRects()) if (r.height > 0) lines.add(Math.round(r.top));
      if (lines.size > 1) found.push(text);
    }
    return found;
  });
}

/** The screen fits the window (see layoutProblems), keeps its short labels whole and shows no raw catalogue key. */
async function expectFits(page: Page, screen: string): Promise<void> {
  const { overflowX, offenders } = await layoutProblems(page);
  expect(overflowX, `${screen}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  expect(offenders, `${screen}: controls out of reach`).toEqual([]);
  expect(await splitLabels(page), `${screen}: short labels broken across lines`).toEqual([]);
  await expectNoRawKeys(page, screen);
}

/** The window sizes every screen must fit: the smallest the app supports, and a large one. */
const viewports = [
  { width: 800, height: 600 },
  { width: 1600, height: 1000 },
] as const;

for (const language of languages) {
  for (const viewport of viewports) {
    test.describe(`${language} at ${viewport.width}×${viewport.height}`, () => {
      test.use({ viewport });

      test('every main screen fits: chat, history, dialogs, server page, servers, settings', async ({ page }) => {
        await useLanguage(page, language);
        await expectReady(page, 'calculator');
        await expectFits(page, 'chat');
        // A row opened (tools, stderr, launch details) fits too; and the attention bar names the broken server.
        await expect(page.getByTestId('attention-bar')).toBeVisible();
        await openRow(page, 'calculator');
        await openRow(page, 'broken');
        await expectFits(page, 'chat, rows opened');
        await expect(page.getByTestId('open-providers')).toBeInViewport();
        await expect(page.getByTestId('open-audit')).toBeInViewport();
        await send(page, '/add {"a":2,"b":3}');
        await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
        await page.getByTestId('history-toggle').click();
        await expectFits(page, 'chat with history');
        await page.getByTestId('history-toggle').click();

        await page.getByTestId('open-providers').click();
        await expect(page.getByTestId('providers-section')).toBeVisible();
        await expectFits(page, 'providers in settings');
        await page.getByTestId('nav-chat').click();
        await page.getByTestId('open-audit').click();
        await expect(page.getByTestId('audit-dialog')).toBeVisible();
        await expectFits(page, 'audit dialog');
        await page.keyboard.press('Escape');

        await serverRow(page, 'calculator').getByTestId('server-open-page').click();
        await expect(page.getByTestId('server-page')).toBeVisible();
        await expectFits(page, 'server page');

        // The servers list folds away and comes back.
        await page.getByTestId('server-page-close').click();
        await expect(page.getByTestId('server-page')).toHaveCount(0);
        await page.getByTestId('sidebar-toggle').click();
        await expect(page.getByTestId('server-sidebar')).toHaveAttribute('data-collapsed', 'true');
        await expect(serverRow(page, 'calculator')).toHaveCount(0);
        await expectFits(page, 'chat, servers list folded');
        await page.getByTestId('sidebar-toggle').click();
        await expect(serverRow(page, 'calculator')).toBeVisible();

        await openServers(page);
        await expectFits(page, 'servers screen');
        await page.getByTestId('add-server').click();
        await expect(page.getByTestId('server-form')).toBeVisible();
        await expectFits(page, 'server form');
        await page.getByTestId('open-import').click();
        await expect(page.getByTestId('import-dialog')).toBeVisible();
        await expectFits(page, 'import dialog');
        await page.keyboard.press('Escape');
        await page.getByTestId('servers-mode-raw').click();
        await expect(page.getByTestId('config-editor').locator('.cm-content')).toContainText('mcpServers');
        await expectFits(page, 'raw JSON editor');

        await page.getByTestId('nav-settings').click();
        await expect(page.getByTestId('settings-screen')).toBeVisible();
        await expectFits(page, 'settings');
      });
    });
  }
}

// A server's page with every kind of item (the calculator's has tools only): each tab, an item open in each.
test.describe("a server's page, tab by tab", () => {
  test.use({ mcpServers: { features: featuresServer() } });
  for (const language of languages) {
    for (const viewport of viewports) {
      test(`every tab fits, an item open (${language}, ${viewport.width}×${viewport.height})`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await useLanguage(page, language);
        await expectReady(page, 'features');
        await send(page, '/log');
        await expect(lastCard(page)).toHaveAttribute('data-state', 'ok');
        const serverPage = await openServerPage(page, 'features');
        const tools = serverPage.getByTestId('panel-tools');
        await tools.getByRole('option', { name: /^structured / }).click();
        await expect(tools.getByRole('option', { name: /^structured /, selected: true })).toBeVisible();
        await expectFits(page, 'tools tab');
        await serverPage.getByTestId('tab-resources').click();
        const hello = serverPage.getByTestId('panel-resources').getByRole('option', { name: /Hello/ });
        await hello.click();
        await expect(serverPage.getByTestId('resource-content')).toContainText('Hello from the features fixture.');
        await expectFits(page, 'resources tab');
        await serverPage.getByTestId('tab-prompts').click();
        const greet = serverPage.getByTestId('panel-prompts').getByRole('option', { name: /^Greet/ });
        await greet.click();
        await expect(greet).toHaveAttribute('aria-selected', 'true');
        await expectFits(page, 'prompts tab');
        await serverPage.getByTestId('tab-logs').click();
        await expect(serverPage.getByTestId('panel-logs').getByRole('option', { name: /a warning message/ })).toBeVisible();
        await expectFits(page, 'logs tab');
        await serverPage.getByTestId('tab-trace').click();
        await expect(serverPage.getByTestId('panel-trace').locator('[data-kind="request"]', { hasText: 'tools/call' }).last()).toBeVisible();
        await expectFits(page, 'trace tab');
      });
    }
  }
});

// The catalogue (a local MCP Registry on loopback) and its install dialog.
registryTest.describe('the catalogue and its install dialog', () => {
  registryTest.use({ mcpServers: { calculator: calculatorServer() } });
  for (const language of languages) {
    for (const viewport of viewports) {
      registryTest(`fit (${language}, ${viewport.width}×${viewport.height})`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await useLanguage(page, language);
        await expectReady(page, 'calculator');
        await openServers(page);
        await page.getByTestId('servers-mode-catalogue').click();
        const catalogue = page.getByTestId('registry-catalogue');
        await expect(catalogue.getByTestId('registry-item')).toHaveCount(4);
        await expectFits(page, 'catalogue');
        await catalogue.locator('[data-testid="registry-item"][data-name="io.github.example/weather"]').getByTestId('registry-install').click();
        await expect(page.getByTestId('install-dialog').getByTestId('install-command')).toBeVisible();
        await expectFits(page, 'install dialog');
      });
    }
  }
});

/** Presses Tab until the focused element matches `selector` (so it is reachable by keyboard); fails otherwise. */
async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => (globalThis as unknown as PageGlobals).document.activeElement?.matches(s) === true, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} was not reached with ${max} presses of Tab`);
}

/** Tabs through the whole page and returns the visible, enabled controls Tab never reached (roving ones excepted). */
async function unreachableByTab(page: Page): Promise<string[]> {
  const total = await page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    let n = 0;
    for (const el of document.querySelectorAll('[data-kb-idx]')) delete (el as unknown as { dataset: Record<string, string> }).dataset.kbIdx;
    for (const el of document.querySelectorAll(
      'button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), a[href], summary',
    )) {
      const r = el.getBoundingClientRect();
      // Roving focus is keyboard access too: a tab list's other tabs (tabindex -1) and a radio group's unchecked
      // radios are reached with the arrow keys once Tab is in the group.
      if (el.closest('[hidden], [inert]') || r.width === 0 || getComputedStyle(el).visibility === 'hidden' || el.getAttribute('tabindex') === '-1') continue;
      if (el.matches('input[type="radio"]:not(:checked)')) continue;
      (el as unknown as { dataset: Record<string, string> }).dataset.kbIdx = String(n++);
    }
    return n;
  });
  const seen = new Set<string>();
  await page.evaluate(() => (globalThis as unknown as { document: { body: { focus(): void } } }).document.body.focus());
  for (let i = 0; i < total * 2 + 10 && seen.size < total; i++) {
    await page.keyboard.press('Tab');
    const idx = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-kb-idx') ?? null);
    if (idx !== null) seen.add(idx);
  }
  return page.evaluate(
    (reached) => {
      const { document } = globalThis as unknown as PageGlobals;
      const missing: string[] = [];
      for (const el of document.querySelectorAll('[data-kb-idx]')) {
        if (reached.includes(el.getAttribute('data-kb-idx') ?? '')) continue;
        missing.push(
          `${el.tagName.toLowerCase()} ${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30)}`,
        );
      }
      return missing;
    },
    [...seen],
  );
}

test.describe('by keyboard alone', () => {
  for (const language of languages) {
    test(`every control on the chat, a server page, the servers and settings screens is reached with Tab (${language})`, async ({ page }) => {
      await useLanguage(page, language);
      await expectReady(page, 'calculator');
      expect(await unreachableByTab(page), 'chat').toEqual([]);
      // Opened rows too: the tools, the stderr tail and the launch details are reached.
      await openRow(page, 'calculator');
      await openRow(page, 'broken');
      expect(await unreachableByTab(page), 'chat, rows opened').toEqual([]);
      await serverRow(page, 'calculator').getByTestId('server-open-page').click();
      await expect(page.getByTestId('server-page')).toBeVisible();
      expect(await unreachableByTab(page), 'server page').toEqual([]);
      await page.getByTestId('server-page-close').click();
      await page.getByTestId('nav-servers').click();
      await expect(page.getByTestId('servers-screen')).toBeVisible();
      expect(await unreachableByTab(page), 'servers').toEqual([]);
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('settings-screen')).toBeVisible();
      expect(await unreachableByTab(page), 'settings').toEqual([]);
    });
  }

  test('a dialog keeps Tab inside, Esc closes it, and focus goes back to its button', async ({ page }) => {
    await expectReady(page, 'calculator');
    await tabTo(page, '[data-testid="open-audit"]');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('audit-dialog');
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 12; i++) {
      expect(await dialog.evaluate((d) => d.contains((globalThis as unknown as PageGlobals).document.activeElement))).toBe(true);
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('open-audit')).toBeFocused();

    // The same for the servers screen's import dialog.
    await tabTo(page, '[data-testid="nav-servers"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-testid="open-import"]');
    const opener = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-testid'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('import-dialog')).toBeVisible();
    expect(await page.getByTestId('import-dialog').evaluate((d) => d.contains((globalThis as unknown as PageGlobals).document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('import-dialog')).toHaveCount(0);
    await expect(page.getByTestId(opener ?? '')).toBeFocused();
  });

  test('call a tool from the composer: / lists tools, ↓ and Tab pick one, Enter calls it; ↑ recalls it; Esc closes a form', async ({ page }) => {
    await expectReady(page, 'calculator');
    await tabTo(page, '[data-testid="chat-input"]');
    await page.keyboard.type('/');
    const list = page.getByTestId('slash-suggestions');
    await expect(list).toBeVisible();
    const names = await list.getByTestId('slash-suggestion').evaluateAll((items) => items.map((i) => i.getAttribute('data-name')));
    expect(names.slice(0, 4)).toEqual(['add', 'subtract', 'multiply', 'divide']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(list.locator('[aria-selected="true"]')).toHaveAttribute('data-name', 'multiply');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('chat-input')).toHaveValue('/multiply ');
    await page.keyboard.type('{"a":6,"b":7}');
    await page.keyboard.press('Enter');
    await expect(lastCard(page).getByTestId('result-text')).toHaveText('42');
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('chat-input')).toHaveValue('/multiply {"a":6,"b":7}');

    // Esc hides the suggestions; Esc closes a tool's form.
    await page.getByTestId('chat-input').fill('');
    await page.keyboard.type('/su');
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await page.getByTestId('chat-input').fill('');
    // A server row opens from the keyboard, then its tools are reached.
    await tabTo(page, '[data-testid="server-row"][data-server="calculator"] [data-testid="server-expand"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-testid="tool-item"][data-tool="add"]');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('tool-form')).toBeVisible();
    await tabTo(page, '[data-testid="chat-input"]');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('tool-form')).toHaveCount(0);
  });

  test('add a server through the form without the mouse; it becomes ready', async ({ page }) => {
    await expectReady(page, 'calculator');
    await tabTo(page, '[data-testid="nav-servers"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-testid="add-server"]');
    await page.keyboard.press('Enter');
    const form = page.getByTestId('server-form');
    await expect(form).toBeVisible();
    await tabTo(page, '[data-testid="form-name"]');
    await page.keyboard.type('calc3');
    await tabTo(page, '[data-testid="form-command"]');
    await page.keyboard.type(process.execPath);
    await tabTo(page, '[data-testid="form-args-add"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[aria-label="Argument 1"]');
    await page.keyboard.type(calculatorScript);
    await tabTo(page, '[data-testid="form-save"]');
    await page.keyboard.press('Enter');
    await expect(configRow(page, 'calc3')).toHaveAttribute('data-status', 'ready');
  });
});

test('direct calls are kept in the conversation (after a reload) and in the audit log', async ({ page }) => {
  await expectReady(page, 'calculator');
  await send(page, '/add {"a":2,"b":3}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
  await send(page, '/divide {"a":1,"b":0}');
  await expect(lastCard(page)).toHaveAttribute('data-state', 'error');

  await page.reload();
  await expectReady(page, 'calculator');
  const cards = page.getByTestId('call-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.first().getByTestId('result-text')).toHaveText('5');
  await expect(cards.last()).toHaveAttribute('data-state', 'error');

  await page.getByTestId('open-audit').click();
  const rows = page.getByTestId('audit-dialog').locator('[data-testid="audit-row"][data-direct="true"]');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('calculator/divide');
  await expect(rows.last()).toContainText('calculator/add');
  await expect(rows.last()).toContainText('{"a":2,"b":3}');
});

test('a tab left open while serve restarts with a new token says to open the new URL', async ({ page, host }) => {
  test.skip(host.mode !== 'web', 'headless mode only: the desktop app has no `serve` process to restart or bridge token to change');
  // The browser logs each refused reconnection and the /bridge-info probe while the host is down.
  host.allowPageErrors(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/bridge\?token=[^']*' failed/);
  host.allowPageErrors(/Failed to load resource: net::ERR_CONNECTION_REFUSED/);
  await expectReady(page, 'calculator');
  await host.terminate();
  await expect(page.getByTestId('disconnected-banner')).toBeVisible();
  // A new `serve` on the same data folder takes the same port (remembered), with a new token.
  const home = join(host.dir, 'home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ...host.env,
  };
  delete env.SWITCHBOARD_CONFIG;
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src-main', 'cli', 'main.ts'), '--config', host.configPath, 'serve'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith('http'));
        if (line) resolve(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    expect(new URL(url).port).toBe(new URL(page.url()).port);
    await expect(page.getByTestId('disconnected-banner')).toContainText('Open the new URL printed by `switchboard serve`', { timeout: 30_000 });
    await expect(page.getByTestId('disconnected-banner')).not.toContainText('Reconnecting');
    // The new URL works.
    await page.goto(url);
    await expectReady(page, 'calculator');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

test('Settings: env allow-list, supervision defaults and default roots are edited with validation; the theme sticks', async ({ page }) => {
  await expectReady(page, 'calculator');
  await page.getByTestId('nav-settings').click();
  const input = page.getByTestId('env-allow-input');
  await input.fill('1BAD');
  await input.press('Enter');
  await expect(page.getByTestId('env-allow-error')).toContainText('not a variable name');
  await expect(page.getByTestId('env-allow-name')).toHaveCount(0);
  await input.fill('HTTPS_PROXY');
  await input.press('Enter');
  await expect(page.locator('[data-testid="env-allow-name"][data-name="HTTPS_PROXY"]')).toBeVisible();
  await expect(input).toHaveValue('');

  // The host checks the limits too (the same bounds the core applies), and names the field.
  await page.getByTestId('supervision-requestTimeoutMs').fill('5');
  await page.getByTestId('supervision-save').click();
  await expect(page.getByTestId('supervision-error')).toContainText('supervision.requestTimeoutMs');
  await page.getByTestId('supervision-requestTimeoutMs').fill('120000');
  await page.getByTestId('supervision-save').click();
  await expect(page.getByTestId('supervision-error-saved')).toBeVisible();

  await page.getByTestId('default-root-input').fill('~/projects');
  await page.getByTestId('default-root-add').click();
  await expect(page.locator('[data-testid="default-root"][data-root="~/projects"]')).toBeVisible();

  await page.getByTestId('theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(
    () =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string }; document: { body: unknown } }).getComputedStyle(
        (globalThis as unknown as { document: { body: unknown } }).document.body,
      ).backgroundColor,
  );

  await page.reload();
  await expectReady(page, 'calculator');
  await page.getByTestId('nav-settings').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('theme-dark')).toBeChecked();
  await expect(page.locator('[data-testid="env-allow-name"][data-name="HTTPS_PROXY"]')).toBeVisible();
  await expect(page.getByTestId('supervision-requestTimeoutMs')).toHaveValue('120000');
  await expect(page.locator('[data-testid="default-root"][data-root="~/projects"]')).toBeVisible();
  await page.getByTestId('theme-light').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const light = await page.evaluate(
    () =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string }; document: { body: unknown } }).getComputedStyle(
        (globalThis as unknown as { document: { body: unknown } }).document.body,
      ).backgroundColor,
  );
  expect(light).not.toBe(background);
});
