import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The UI's languages, as the Settings picker and localStorage name them. */
export const languages = ['en', 'zh-CN'] as const;
export type Language = (typeof languages)[number];

/** Where the renderer remembers the language picked in Settings (src-renderer/i18n/index.ts). */
const storageKey = 'switchboard.language';

/** The bits of the DOM the probes use (this project's e2e code compiles without the DOM lib). */
interface TextNode {
  textContent: string | null;
  parentElement: { closest(selector: string): unknown; getBoundingClientRect(): { width: number; height: number } } | null;
}
interface PageGlobals {
  document: {
    body: unknown;
    createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
  };
  localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void };
}

/**
 * Switches the UI to `language` the way a remembered choice does (localStorage, then a reload), and waits until the
 * page says so. `en` also pins English (the browser's own language never decides a test's wording).
 */
export async function useLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate(([key, value]) => (globalThis as unknown as PageGlobals).localStorage.setItem(key, value), [storageKey, language] as const);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** Visible text that looks like an i18n key (`serverRow.restart`, `errors.unknown-server.generic`), outside code. */
export async function rawKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
    const found: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const parent = node.parentElement;
      if (!parent || parent.closest('code, pre, [hidden], textarea, .cm-editor')) continue;
      const box = parent.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (/^[a-z][a-zA-Z]*(\.[a-zA-Z-]+)+$/.test(text)) found.push(text);
    }
    return found;
  });
}

/** Fails when the screen shows a raw catalogue key (a `t('…')` whose key is in neither catalogue). */
export async function expectNoRawKeys(page: Page, screen: string): Promise<void> {
  expect(await rawKeys(page), `${screen}: raw catalogue keys on screen`).toEqual([]);
}
