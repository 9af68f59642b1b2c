import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectReady } from './helpers';

// The Settings screen: its inputs look like the rest, and its sections use a wide window's width.

/** The e2e project has no DOM types: what this spec reads of the page's window. */
interface Styled {
  padding: string;
  borderRadius: string;
  borderTopWidth: string;
  borderTopStyle: string;
}
declare const window: { getComputedStyle(el: unknown): Styled };

const look = (locator: Locator) =>
  locator.evaluate((el) => {
    const style = window.getComputedStyle(el);
    return { padding: style.padding, radius: style.borderRadius, border: style.borderTopWidth + ' ' + style.borderTopStyle };
  });

test.describe('at 1600 px', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test('the allow-list and roots inputs are styled like the other fields; sections in two columns, the page using the width', async ({ page }) => {
    await expectReady(page, 'calculator');
    await page.getByTestId('nav-settings').click();
    const screen = page.getByTestId('settings-screen');
    const styled = await look(screen.getByTestId('supervision-startTimeoutMs'));
    expect(styled.border).toBe('1px solid');
    expect(await look(screen.getByTestId('env-allow-input'))).toEqual(styled);
    expect(await look(screen.getByTestId('default-root-input'))).toEqual(styled);

    // Wide sections span most of the window; paired ones sit side by side.
    const providers = await screen.getByTestId('providers-section').boundingBox();
    expect(providers?.width ?? 0).toBeGreaterThan(1600 * 0.8);
    const env = await screen.getByTestId('env-allow-input').locator('xpath=ancestor::section[1]').boundingBox();
    const roots = await screen.getByTestId('default-root-input').locator('xpath=ancestor::section[1]').boundingBox();
    expect(env && roots && Math.abs(env.y - roots.y) < 2 && roots.x > env.x + env.width).toBe(true);
  });
});

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test('one column, nothing wider than the window', async ({ page }) => {
    await expectReady(page, 'calculator');
    await page.getByTestId('nav-settings').click();
    const screen = page.getByTestId('settings-screen');
    const env = await screen.getByTestId('env-allow-input').locator('xpath=ancestor::section[1]').boundingBox();
    const roots = await screen.getByTestId('default-root-input').locator('xpath=ancestor::section[1]').boundingBox();
    expect(env && roots && roots.y > env.y && Math.abs(roots.x - env.x) < 2).toBe(true);
    expect(await screen.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});
