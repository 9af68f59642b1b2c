import type { ThemeSetting } from '../../src-shared/host-api';

const storageKey = 'switchboard.theme';

/**
 * Light, dark, or the system's: `data-theme` on <html> picks the palette (global.css); "system" leaves it to
 * `prefers-color-scheme`. Remembered in localStorage too, so the next load paints in it before settings arrive.
 */
export function applyTheme(theme: ThemeSetting): void {
  if (typeof document === 'undefined') return; // store tests run without a DOM
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
  try {
    globalThis.localStorage?.setItem(storageKey, theme);
  } catch {
    // storage may be unavailable (a locked-down profile): the setting still comes from the host
  }
}

/** The theme last applied on this origin (before the host answers). */
export function rememberedTheme(): ThemeSetting {
  try {
    const value = localStorage.getItem(storageKey);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

const sidebarKey = 'switchboard.sidebarCollapsed';
export function rememberedSidebarCollapsed(): boolean {
  try {
    return localStorage.getItem(sidebarKey) === 'true';
  } catch {
    return false;
  }
}
export function rememberSidebarCollapsed(collapsed: boolean): void {
  try {
    localStorage.setItem(sidebarKey, String(collapsed));
  } catch {
    // not remembered; fine
  }
}
